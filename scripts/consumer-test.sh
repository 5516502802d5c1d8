#!/usr/bin/env bash
# The consumer path the README gives, walked as a new user walks it (issues 16 and 41): a project made by cdk8s-cli's
# own `cdk8s init typescript-app` (its tsconfig.json, package.json, jest config and test kept), the README's Install
# lines (with the packed tarball: the package is not on the registry), the README walkthrough's main.ts and
# main.test.ts pasted verbatim, the etcd bundles under bundles/, then the template's own `npm run build` (tsc, jest,
# `cdk8s synth`) and the package's CLI. Run by .ci/run after `npx projen package:js` (the README's build lines).
#
# `cdk8s init typescript-app` runs for real (the cdk8s-cli of this repository's devDependencies): it fills in the
# template (sscaff), then its post hook runs `npm install`, `cdk8s import` (downloads the Kubernetes schema into
# imports/ from GitHub), compile, test -u and synth. Offline the import fails and init exits 1: the README says what it
# prints then (the init-offline block, its lines checked here in order) and to go on; the walkthrough does not use
# imports/, and the skipped steps are the template's `npm run build` below.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
version="$(node -p "require('$repo/package.json').version")"
tarball="$repo/dist/js/cdk8s-olm-tenancy@$version.jsii.tgz"
[ -f "$tarball" ] || { echo "no packed tarball $tarball: run 'npx projen compile && npx projen package:js' first (README: Install)"; exit 1; }
cli="$(cd "$repo/node_modules/cdk8s-cli" && pwd -P)"
work="$(mktemp -d)"
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT  # KEEP_WORK=1 keeps the project to look into
readme="$repo/README.md"
block() { awk -v start="<!-- $1:start -->" -v end="<!-- $1:end -->" '$0 == start {on=1; next} $0 == end {on=0} on' "$readme" | sed '1d;$d'; }

# 0. the README names the tarball the build writes
grep -qF "dist/js/cdk8s-olm-tenancy@$version.jsii.tgz" <(block build) || { echo "README build lines: not the tarball dist/js/cdk8s-olm-tenancy@$version.jsii.tgz"; exit 1; }
grep -qF "dist/js/cdk8s-olm-tenancy@$version.jsii.tgz" <(block install) || { echo "README install lines: not the tarball dist/js/cdk8s-olm-tenancy@$version.jsii.tgz"; exit 1; }

# 1. the README's Install lines: `mkdir platform && cd platform` and `cdk8s init`, run for real
block install > "$work/install.sh"
sed -n 1p "$work/install.sh" | grep -q '^mkdir platform && cd platform$' || { echo "README install lines: the first is not 'mkdir platform && cd platform'"; exit 1; }
sed -n 2p "$work/install.sh" | grep -q '^npx cdk8s-cli@2 init typescript-app ' || { echo "README install lines: the second is not 'npx cdk8s-cli@2 init typescript-app'"; exit 1; }
app="$work/platform"
mkdir -p "$app"
cd "$app"
set +e
node "$cli/bin/cdk8s" init typescript-app > "$work/init.log" 2>&1
init_status=$?
set -e
if [ "$init_status" != 0 ]; then
  # offline: each line the README shows appears in this order ('...' stands for lines left out)
  STATUS=$init_status node -e '
    const fs = require("fs");
    const [logFile, shownFile] = process.argv.slice(1);
    const log = fs.readFileSync(logFile, "utf8").split("\n").map((l) => l.trimEnd());
    let i = 0;
    for (const line of fs.readFileSync(shownFile, "utf8").split("\n").filter((l) => l !== "" && l !== "...")) {
      while (i < log.length && log[i] !== line) i++;
      if (i === log.length) { console.error(`cdk8s init (exit ${process.env.STATUS}) did not print, in this order, the README line: ${line}`); process.exit(1); }
      i++;
    }' "$work/init.log" <(block init-offline | grep -v '^```') || { cat "$work/init.log"; exit 1; }
  echo "cdk8s init exited $init_status offline, with the lines README.md shows"
fi
[ -f .gitignore ] && [ -f tsconfig.json ] && [ -f main.test.ts ] && [ -d node_modules/cdk8s ] || { echo "cdk8s init: template files or its npm install missing"; exit 1; }

# 2. the rest of the Install lines, verbatim but for the tarball's path (and quieter npm output)
sed '1,2d' "$work/install.sh" | grep -v '^#' | sed "s#^TARBALL=[^ ]*#TARBALL='$tarball'#; s#npm install #npm install --no-audit --no-fund --loglevel=error #" > install.sh
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
