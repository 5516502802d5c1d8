import * as path from 'path';
import { InstallerPermissions, InstallPreflight, OperatorBundle } from '../../src';

const CATALOG = path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod', 'catalogs', 'v4.12', 'odf-node-recovery-operator', 'catalog.yaml');

describe('OperatorBundle.fromCatalogPackage', () => {
  test('GIVEN a real FBC THEN every bundle of the package, sorted by name', () => {
    const bundles = OperatorBundle.fromCatalogPackage(CATALOG, 'odf-node-recovery-operator');
    expect(bundles.map((b) => [b.name, b.version, b.packageName])).toEqual([
      ['odf-node-recovery-operator.v1.0.0', '1.0.0', 'odf-node-recovery-operator'],
      ['odf-node-recovery-operator.v1.1.0', '1.1.0', 'odf-node-recovery-operator'],
    ]);
  });

  test('GIVEN the versions THEN derivation and checkVersions cover all of them and say which version needs what', () => {
    const bundles = OperatorBundle.fromCatalogPackage(CATALOG, 'odf-node-recovery-operator');
    const derived = InstallerPermissions.leastPrivilege({ bundles, namespace: 'team-a', targetNamespaces: [], allowClusterScoped: true });
    const results = InstallPreflight.checkVersions({
      bundles,
      namespace: 'team-a',
      targetNamespaces: [],
      installerRules: derived.namespacedRules,
      clusterInstallerRules: derived.clusterRules,
      otherNamespaceRules: derived.otherNamespaceRules,
    });
    expect(results.map((r) => [r.bundleName, r.missing.length])).toEqual([
      ['odf-node-recovery-operator.v1.0.0', 0],
      ['odf-node-recovery-operator.v1.1.0', 0],
    ]);
    // what only v1.0.0 needs is not enough for v1.1.0
    const firstOnly = InstallerPermissions.leastPrivilege({ bundles: [bundles[0]], namespace: 'team-a', targetNamespaces: [], allowClusterScoped: true });
    const upgrade = InstallPreflight.checkVersions({
      bundles,
      namespace: 'team-a',
      targetNamespaces: [],
      installerRules: firstOnly.namespacedRules,
      clusterInstallerRules: firstOnly.clusterRules,
      otherNamespaceRules: firstOnly.otherNamespaceRules,
    });
    expect(upgrade[0].missing).toEqual([]);
    expect(upgrade[1].missing.length).toBeGreaterThan(0);
  });

  test('GIVEN an unknown package THEN the error lists the packages the file has', () => {
    expect(() => OperatorBundle.fromCatalogPackage(CATALOG, 'etcd')).toThrow(
      `OperatorBundle.fromCatalogPackage: ${CATALOG} has no olm.bundle of package 'etcd'; it has bundles of: odf-node-recovery-operator`,
    );
  });
});
