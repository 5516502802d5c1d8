/**
 * Issue 9, first part, one test per finding: wrong-typed props from plain JavaScript, values written unchecked,
 * errors thrown at once instead of collected, messages split across lines, and 23 KB of errors for one mistake.
 * Each of these failed before the runtime input checks (src/core/input-check.ts) and the grouped preflight findings
 * (src/tenant/subscriptions/preflight-findings.ts). Plain JavaScript is simulated with `as any`: jsii languages behave the same.
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { CatalogSourceReference, CuratedCatalog, OperatorBundle, RbacRules, ScopedOperatorTenant, TargetNamespaces } from '../../src';
import { synthObjects, synthErrorLines } from '../util/synth';

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const ETCD = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
const RABBITMQ = OperatorBundle.fromDirectory(path.join(BUNDLES, 'rabbitmq-cluster-operator', '2.22.3'));
const CATALOG = CatalogSourceReference.fromName('community-operators', 'openshift-marketplace');
const LABEL = "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (RFC 1123 label)";
const SUBDOMAIN = "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (RFC 1123 subdomain)";

/** `synthErrorLines` of a fresh App whose chart `c` `build` fills. */
function synthErrorLinesOf(build: (chart: Chart) => void): string[] {
  const app = Testing.app();
  build(new Chart(app, 'c'));
  return synthErrorLines(app);
}

describe('wrong-typed props from plain JavaScript are synth errors, not TypeErrors', () => {
  test('a missing namespaceName', () => {
    expect(synthErrorLinesOf((c) => new ScopedOperatorTenant(c, 'T', {} as any))).toEqual([
      "[c/T] namespaceName: namespaceName is required but missing. Fix: set namespaceName to the tenant namespace, e.g. 'team-a' (MissingInput)",
    ]);
  });

  test("targetNamespaces: ['x'] (a list, not a TargetNamespaces)", () => {
    expect(synthErrorLinesOf((c) => new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a', targetNamespaces: ['x'] } as any))).toEqual([
      '[c/T] targetNamespaces="[\\"x\\"]": targetNamespaces must be a TargetNamespaces, got a list (["x"]). '
        + 'Fix: use TargetNamespaces.ownNamespace(), TargetNamespaces.namespaces([...], reason) or TargetNamespaces.allNamespaces(reason) (InvalidReference)',
    ]);
  });

  test('subscribe({ packageName, channel }) without catalog', () => {
    expect(synthErrorLinesOf((c) => new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a' }).subscribe({ packageName: 'etcd', channel: 'alpha' } as any))).toEqual([
      '[c/T/Subscription-etcd] catalog: catalog is required but missing: a Subscription must name the CatalogSource that serves the package. '
        + 'Fix: pass a catalog construct (e.g. a CuratedCatalog) or CatalogSourceReference.fromName(name, namespace) (MissingInput)',
    ]);
  });

  test('RbacRules.format(null) throws a clear Error in the diagnostics format', () => {
    expect(() => RbacRules.format(null as any, '')).toThrow(new Error(
      'RbacRules.format: rule="null": rule must be a PolicyRule object, got null. '
      + 'Fix: pass e.g. { apiGroups: [""], resources: ["pods"], verbs: ["get"] } (read Kubernetes JSON with PolicyRules.fromJson) (MissingInput)',
    ));
  });

  test('TargetNamespaces.namespaces with a string instead of a list is reported by the tenant that uses it', () => {
    expect(synthErrorLinesOf((c) => new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a', targetNamespaces: TargetNamespaces.namespaces('team-b' as any, 'watch team-b') }))).toEqual([
      '[c/T] targetNamespaces.namespaces="team-b": namespaces must be a list, got the string "team-b". Fix: pass the target namespaces as a list of namespace names (InvalidInputType)',
      '[c/T] targetNamespaces=\"[]\": TargetNamespaces.namespaces() was given no namespace. Fix: list at least one namespace, or use TargetNamespaces.ownNamespace() (NoTargetNamespaces)',
    ]);
  });
});

describe('errors are collected, not thrown at once (the other errors are not lost)', () => {
  test("namespaceName: '' with a bundle: InvalidName, next to the other mistake (no InstallPreflight.check throw)", () => {
    expect(synthErrorLinesOf((c) => {
      const t = new ScopedOperatorTenant(c, 'T', { namespaceName: '', installerRoleName: 'a/b' });
      t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    })).toEqual([
      '[c/T] namespaceName="": Namespace name must not be empty. Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)',
      "[c/T] installerRoleName=\"a/b\": Role name may not contain '/' or '%'. Fix: use a name without '/' or '%' (InvalidName)",
    ]);
  });

  test('a malformed rule with deriveInstallerRules: collected, next to the other mistake (no RbacRules.compact throw)', () => {
    expect(synthErrorLinesOf((c) => {
      const t = new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a', deriveInstallerRules: true, operatorGroupName: 'Bad' });
      t.addInstallerRule({ verbs: 'get' } as any);
      t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    })).toEqual([
      '[c/T] addInstallerRule(rule).verbs="get": addInstallerRule(rule).verbs must be a list of strings, got the string "get". '
        + 'Fix: write e.g. verbs: ["get"] (read Kubernetes JSON with PolicyRules.fromJson) (InvalidInputType)',
      `[c/T] operatorGroupName="Bad": OperatorGroup name ${SUBDOMAIN}. Fix: use a lower-case RFC 1123 subdomain (at most 253 characters) (InvalidName)`,
    ]);
  });
});

describe('values are checked before they are written', () => {
  test('namespaceName: 123 is an error (never written as name: 123)', () => {
    expect(synthErrorLinesOf((c) => new ScopedOperatorTenant(c, 'T', { namespaceName: 123 } as any))).toEqual([
      "[c/T] namespaceName=\"123\": namespaceName must be a string, got the number 123. Fix: set namespaceName to the tenant namespace, e.g. 'team-a' (InvalidInputType)",
    ]);
  });

  test('label and annotation values that are not strings', () => {
    expect(synthErrorLinesOf((c) => new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a', namespaceLabels: { team: 7 }, namespaceAnnotations: { note: { a: 1 } } } as any))).toEqual([
      '[c/T] namespaceLabels["team"]="7": the value of namespaceLabels["team"] must be a string, got the number 7. Fix: quote it: "team": "7" (InvalidInputType)',
      '[c/T] namespaceAnnotations["note"]="{\\"a\\":1}": the value of namespaceAnnotations["note"] must be a string, got an object ({"a":1}). Fix: quote it: "note": "{\\"a\\":1}" (InvalidInputType)',
    ]);
  });

  test("CatalogSourceReference.fromName('', '') and ('x/../y', 'Kube System')", () => {
    expect(synthErrorLinesOf((c) => {
      const t = new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a' });
      t.subscribe({ packageName: 'etcd', catalog: CatalogSourceReference.fromName('', '') });
      t.subscribe({ packageName: 'prometheus', catalog: CatalogSourceReference.fromName('x/../y', 'Kube System') });
    })).toEqual([
      '[c/T/Subscription-etcd] catalog.name="": CatalogSource name must not be empty. Fix: use a lower-case RFC 1123 subdomain (at most 253 characters) (InvalidName)',
      '[c/T/Subscription-etcd] catalog.namespace="": CatalogSource namespace name must not be empty. Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)',
      `[c/T/Subscription-prometheus] catalog.name="x/../y": CatalogSource name ${SUBDOMAIN}. Fix: use a lower-case RFC 1123 subdomain (at most 253 characters) (InvalidName)`,
      `[c/T/Subscription-prometheus] catalog.namespace="Kube System": CatalogSource namespace name ${LABEL}. Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)`,
    ]);
  });

  test("serveNamespace('Kube System') and an image with a newline", () => {
    let catalog: CuratedCatalog | undefined;
    expect(synthErrorLinesOf((c) => {
      catalog = new CuratedCatalog(c, 'C', { image: 'registry.example.com/x:v1\nevil: true', packages: [{ name: 'etcd' }] });
      catalog.serveNamespace('Kube System');
      catalog.serveNamespace('team-a');
    })).toEqual([
      "[c/C] image=\"registry.example.com/x:v1\\nevil: true\": image contains a newline or another control character. Fix: set image to e.g. 'registry.example.com/platform/curated-operators:v1' (InvalidInputValue)",
      `[c/C] serveNamespace(namespace)="Kube System": Namespace name ${LABEL}. Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)`,
    ]);
    // no CatalogSource for the bad namespace, and the image is never written
    expect(catalog!.servedNamespaces).toEqual(['team-a']);
    expect(catalog!.image).toBeUndefined();
  });

  test("upgradeStrategy: 'Evil' and installPlanApproval: 'Sometimes' (values outside the enum)", () => {
    expect(synthErrorLinesOf((c) => {
      const t = new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a', upgradeStrategy: 'Evil' } as any);
      t.subscribe({ packageName: 'etcd', catalog: CATALOG, installPlanApproval: 'Sometimes' } as any);
    })).toEqual([
      '[c/T] upgradeStrategy="Evil": upgradeStrategy must be one of "Default", "TechPreviewUnsafeFailForward", got the string "Evil". '
        + 'Fix: use UpgradeStrategy.DEFAULT or UpgradeStrategy.TECH_PREVIEW_UNSAFE_FAIL_FORWARD (InvalidEnumValue)',
      '[c/T/Subscription-etcd] installPlanApproval="Sometimes": installPlanApproval must be one of "Automatic", "Manual", got the string "Sometimes". '
        + 'Fix: use InstallPlanApproval.AUTOMATIC or InstallPlanApproval.MANUAL (InvalidEnumValue)',
    ]);
  });

  test('the same props, well-typed, synthesize', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', namespaceLabels: { team: '7' } });
    // (with the default Pod Security labels: enforce baseline, warn/audit restricted)
    const labels = { 'team': '7', 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' };
    expect(synthObjects(app).find((o) => o.kind === 'Namespace')).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels } });
  });
});

describe('messages stay on one line', () => {
  test('a value with a newline is escaped, not split across lines', () => {
    expect(synthErrorLinesOf((c) => new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a\nkind: Secret' }))).toEqual([
      "[c/T] namespaceName=\"team-a\\nkind: Secret\": namespaceName contains a newline or another control character. Fix: set namespaceName to the tenant namespace, e.g. 'team-a' (InvalidInputValue)",
    ]);
  });

  test('a huge value is cut', () => {
    const [line] = synthErrorLinesOf((c) => new ScopedOperatorTenant(c, 'T', { namespaceName: 'x'.repeat(100_000) }));
    expect(line).toEqual(`[c/T] namespaceName="${'x'.repeat(300)}"... (99700 more characters): Namespace name must be no more than 63 characters (has 100000). `
      + 'Fix: use a lower-case RFC 1123 label (at most 63 characters) (InvalidName)');
  });
});

describe('one mistake, one error (not 23 KB)', () => {
  test('a bundle needing cluster rules without the opt-in: ONE NeedsClusterScopedRules error whose fix names clusterScopedInstallerRulesReason', () => {
    const errors = synthErrorLinesOf((c) => {
      const t = new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
      t.subscribe({ packageName: 'rabbitmq-cluster-operator', catalog: CATALOG, bundle: RABBITMQ });
    });
    expect(errors.map((e) => /\((\w+)(?:, [\w-]+)?\)$/.exec(e)![1])).toEqual(['NeedsClusterScopedRules']);
    expect(errors[0]).toContain(' Fix: set clusterScopedInstallerRulesReason to why this operator may have rules outside the namespace');
    expect(errors[0]).not.toContain('InstallerPermissions.leastPrivilege');
    // every missing rule once, the step list capped
    expect(errors[0]).toContain("OLM's scoped client needs 16 rule(s) outside it: ");
    expect(errors[0].split('Namespace:"kube-system" APIGroups:[rbac.authorization.k8s.io] Resources:[rolebindings]').length).toEqual(2);
    expect(errors[0]).toMatch(/; and \d+ more step\(s\)\)\. Fix: /);
    expect(errors.join('\n').length).toBeLessThan(4_000);
  });
});

describe('preflight fixes name the tenant prop', () => {
  test('an install mode the CSV does not support: the fix names targetNamespaces', () => {
    const errors = synthErrorLinesOf((c) => {
      const t = new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a', targetNamespaces: TargetNamespaces.allNamespaces('watch every namespace') });
      t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
    });
    expect(errors.filter((e) => e.endsWith('(UnsupportedOperatorGroup)'))).toEqual([
      '[c/T] subscriptions[etcd].bundle="etcdoperator.v0.9.4": etcdoperator.v0.9.4: AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces '
        + '(OperatorGroup in team-a targeting all namespaces; the CSV supports OwnNamespace, SingleNamespace). '
        + 'Fix: set targetNamespaces to what the CSV supports (TargetNamespaces.ownNamespace(), TargetNamespaces.namespaces([...], reason) '
        + 'or TargetNamespaces.allNamespaces(reason)), or choose another operator (UnsupportedOperatorGroup)',
    ]);
  });
});

describe('checks that run at synth never abort it', () => {
  test('a package subscribed twice with its bundle: DuplicateSubscription, not an OlmGeneratedRbac error thrown by the audit', () => {
    const errors = synthErrorLinesOf((c) => {
      const t = new ScopedOperatorTenant(c, 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
      t.subscribe({ packageName: 'etcd', catalog: CATALOG, bundle: ETCD });
      t.subscribe({ packageName: 'etcd', name: 'etcd-again', catalog: CATALOG, bundle: ETCD });
    });
    expect(errors.map((e) => /\((\w+)(?:, [\w-]+)?\)$/.exec(e)![1])).toEqual(['DuplicateSubscription']);
  });
});
