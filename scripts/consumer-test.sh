#!/usr/bin/env bash
# The consumer path the README gives, walked as a new user walks it (issue 16): a project made from cdk8s-cli's own
# `typescript-app` template (its tsconfig.json, package.json, jest config and test kept), the README's Install lines
# (with the packed tarball: the package is not on the registry), the README walkthrough's main.ts and main.test.ts
# pasted verbatim, the etcd bundles under bundles/, then the template's own `npm run build` (tsc, jest,
# `cdk8s synth`) and the package's CLI. Run by .ci/run after `npx projen package:js`.
#
# `cdk8s init typescript-app` offline: cdk8s-cli fills the template with sscaff (src/cli/cmds/init.ts: the folder
# name and the cdk8s, cdk8s-plus-33, constructs and cdk8s-cli versions it resolves), then its post hook runs
# `npm install`, `cdk8s import` (downloads the Kubernetes schema into imports/: the network), compile, test -u and
# synth. Here the template is filled the same way without the hook; the walkthrough does not use imports/, and the
# other hook steps are the template's `npm run build` below.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tarball="$(ls "$repo"/dist/js/cdk8s-olm-tenancy@*.jsii.tgz 2>/dev/null || ls "$repo"/dist/js/*.tgz | head -1)"
[ -f "$tarball" ] || { echo "no packed tarball in dist/js: run 'npx projen package:js' first"; exit 1; }
cli="$(cd "$repo/node_modules/cdk8s-cli" && pwd -P)"
work="$(mktemp -d)"
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT  # KEEP_WORK=1 keeps the project to look into
app="$work/platform"
mkdir -p "$app" "$work/template"

# 1. the template, filled in as `cdk8s init typescript-app` does (without the post hook)
cp -r "$cli/templates/typescript-app/." "$work/template/"
rm "$work/template/.hooks.sscaff.js"
node -e '
  const [cli, template, app] = process.argv.slice(1);
  const path = require("path");
  const req = (m) => require(require.resolve(`${m}/package.json`, { paths: [cli] }));
  const pkg = req("cdk8s-cli");
  require(require.resolve("sscaff", { paths: [cli] })).sscaff(template, app, {
    cdk8s_core_version: req("cdk8s").version,
    cdk8s_plus_version: req("cdk8s-plus-33").version,
    constructs_version: pkg.dependencies.constructs.replace("^", ""),
    cdk8s_cli_spec: `^${pkg.version}`,
  }).catch((e) => { console.error(e); process.exit(1); });
' "$cli" "$work/template" "$app"
cd "$app"
[ -f .gitignore ] && [ -f tsconfig.json ] && [ -f main.test.ts ] || { echo "template: files missing"; exit 1; }
npm install --no-audit --no-fund --loglevel=error

# 2. the README's Install lines, verbatim but for `cdk8s init` (done above) and the package name (the tarball)
readme="$repo/README.md"
block() { awk -v start="<!-- $1:start -->" -v end="<!-- $1:end -->" '$0 == start {on=1; next} $0 == end {on=0} on' "$readme" | sed '1d;$d'; }
block install | grep -v '^npx cdk8s-cli@2 init ' | grep -v '^#' | sed "s#npm install cdk8s-olm-tenancy #npm install --no-audit --no-fund --loglevel=error $tarball #; s#npm install -D #npm install --no-audit --no-fund --loglevel=error -D #" > install.sh
cat install.sh
bash -euo pipefail install.sh
rm install.sh
grep -q '^dist/$' .gitignore && { echo ".gitignore still ignores dist/ (the GitOps tree to commit)"; exit 1; }
grep -qxF '.cdk8s-olm-tenancy-*' .gitignore || { echo ".gitignore does not ignore an unfinished GitOps tree"; exit 1; }

# 3. the walkthrough's main.ts and main.test.ts, pasted from the README; the bundles it reads
block walkthrough > main.ts
block walkthrough-test > main.test.ts
rm -rf __snapshots__
mkdir -p bundles/etcd
cp -r "$repo/test/fixtures/bundle-history/etcd/0.9.2" "$repo/test/fixtures/bundle-history/etcd/0.9.4" bundles/etcd/

# 4. the template's own build: tsc, jest, cdk8s synth (which runs `npx ts-node main.ts`)
npm run build
for f in kustomization.yaml TENANCY.md WARNINGS.txt tenants/team-payments/subscription-etcd.yaml tenants/team-search/subscription-etcd.yaml; do
  [ -f "dist/$f" ] || { echo "consumer build: dist/$f missing"; exit 1; }
done
grep -q '^  startingCSV: etcdoperator.v0.9.2$' dist/tenants/team-payments/subscription-etcd.yaml \
  || { echo "consumer build: the Subscription does not pin etcdoperator.v0.9.2"; exit 1; }

# 5. the README's Quick start, pasted beside main.ts (cdk8s's CDK8S_OUTDIR keeps its output out of dist/)
awk '/^## Quick start$/ {on=1; next} on && /^```ts$/ {code=1; next} code && /^```$/ {exit} code' "$readme" > quickstart.ts
CDK8S_OUTDIR=quickstart-dist npx --no-install ts-node quickstart.ts
for kind in 'kind: Namespace' 'kind: OperatorGroup' 'kind: Subscription' 'kind: CatalogSource' 'kind: OperatorHub'; do
  grep -q "^$kind\$" quickstart-dist/platform.k8s.yaml || { echo "quick start: '$kind' missing from quickstart-dist/platform.k8s.yaml"; exit 1; }
done

# 5b. the project's own cdk8s-plus (the template's cdk8s-plus-33) beside the library's cdk8s-plus-28: its Group, User
# and ServiceAccount where the library takes an ISubject, its Deployment in the tenant's chart; type-checked by ts-node
# (the project's dependencies hold both: the template's and the cdk8s-plus-28 the Install lines add; the newest is the template's)
plus="$(node -p 'Object.keys(require("./package.json").dependencies).filter((d) => /^cdk8s-plus-\d+$/.test(d)).sort((a, b) => Number(a.slice(11)) - Number(b.slice(11))).pop()')"
[ "$plus" != cdk8s-plus-28 ] || { echo "the template's cdk8s-plus is cdk8s-plus-28: nothing to check beside it"; exit 1; }
cat > plus.ts <<TS
import { App, Chart } from 'cdk8s';
import * as plus from '$plus';
import { AccessLevel, ScopedOperatorTenant } from 'cdk8s-olm-tenancy';

const app = new App({ outdir: 'plus-dist' });
const chart = new Chart(app, 'team-a');
const tenant = new ScopedOperatorTenant(chart, 'Tenant', { namespaceName: 'team-a' });
tenant.grantOperatorAccess(plus.Group.fromName(chart, 'Admins', 'team-a-admins'), AccessLevel.ADMIN);
tenant.grantSubscriptionManagement(plus.ServiceAccount.fromServiceAccountName(chart, 'Ci', 'ci', { namespaceName: 'team-a' }));
new plus.Deployment(chart, 'App', { metadata: { namespace: 'team-a' }, containers: [{ image: 'registry.example.com/app:1', securityContext: { user: 1000 } }] });
app.synth();
TS
npx --no-install ts-node plus.ts
for line in ' +name: team-a-admins' ' +(- )?kind: ServiceAccount' 'kind: Deployment'; do
  grep -qE -- "^$line\$" plus-dist/team-a.k8s.yaml || { echo "$plus beside the library: '$line' missing from plus-dist/team-a.k8s.yaml"; exit 1; }
done
echo "$plus (the template's) beside cdk8s-plus-28: subjects and a Deployment synthesized"

# 6. the CLI: the OKD docs' default Role cannot install etcd 0.9.4 (exit 1), the derived Role can (exit 0)
set +e
npx --no-install cdk8s-olm-tenancy preflight bundles/etcd/0.9.4 --namespace team-a > derived.yaml
code=$?
set -e
[ "$code" = 1 ] || { echo "CLI: expected exit 1 with the default Role, got $code"; exit 1; }
npx --no-install cdk8s-olm-tenancy preflight bundles/etcd/0.9.4 --namespace team-a --installer-rules derived.yaml > /dev/null
# --version reads the installed package.json from lib/cli (not the source tree's).
version="$(node -p "require('cdk8s-olm-tenancy/package.json').version")"
[ "$(npx --no-install cdk8s-olm-tenancy --version)" = "cdk8s-olm-tenancy $version" ] || { echo "CLI: --version is not 'cdk8s-olm-tenancy $version'"; exit 1; }
echo "consumer test (Node $(node --version)): cdk8s-cli typescript-app template with $plus + $(basename "$tarball"), README walkthrough built (tsc, jest, cdk8s synth), quick start synthesized, CLI exit codes as expected"
