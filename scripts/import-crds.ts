/**
 * Regenerates the typed L1 classes in src/imports/ from the CRD copies kept in crds/.
 *
 * `cdk8s import` only imports its first positional spec, and concatenating CRD files without a
 * `---` separator silently keeps only the last CRD (TOOLCHAIN.md), so the files are joined first. The JSON
 * conversions are then rewritten without object spreads (scripts/l1-json-rewrite.ts).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { rewriteL1Json, writeL1JsonHelpers } from './l1-json-rewrite';

const root = path.join(__dirname, '..');
const modules: Record<string, string[]> = {
  olm: [
    'crds/olm/operators.coreos.com_operatorgroups.yaml',
    'crds/olm/operators.coreos.com_subscriptions.yaml',
    'crds/olm/operators.coreos.com_catalogsources.yaml',
    'crds/olm/operators.coreos.com_clusterserviceversions.yaml',
    'crds/olm/operators.coreos.com_installplans.yaml',
  ],
  openshift: ['crds/openshift/0000_03_marketplace_01_operatorhubs.crd.yaml'],
  olmv1: [
    'crds/olm-v1/olm.operatorframework.io_clustercatalogs.yaml',
    'crds/olm-v1/olm.operatorframework.io_clusterextensions.yaml',
  ],
};

// cdk8s names the output after the API group; keep short, stable module names instead.
const outputNames: Record<string, string> = {
  olm: 'olm-operators.coreos.com.ts',
  openshift: 'openshift-config.openshift.io.ts',
  olmv1: 'olmv1-olm.operatorframework.io.ts',
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-import-'));
for (const [name, files] of Object.entries(modules)) {
  const joined = files
    .map((f) => fs.readFileSync(path.join(root, f), 'utf8').replace(/^---\s*\n/, ''))
    .join('\n---\n');
  const file = path.join(tmp, `${name}.yaml`);
  fs.writeFileSync(file, joined);
  execFileSync(
    path.join(root, 'node_modules', '.bin', 'cdk8s'),
    ['import', '--no-check-upgrade', '--no-save', '-l', 'typescript', '-o', 'src/imports', `${name}:=${file}`],
    { cwd: root, stdio: 'inherit' },
  );
  const generated = path.join(root, 'src/imports', outputNames[name]);
  // no object spread per object and key in the JSON conversions (a hidden class each on Node 20: see the rewrite)
  fs.writeFileSync(path.join(root, 'src/imports', `${name}.ts`), rewriteL1Json(fs.readFileSync(generated, 'utf8')).source);
  fs.rmSync(generated);
}
writeL1JsonHelpers(root);
fs.rmSync(tmp, { recursive: true, force: true });
