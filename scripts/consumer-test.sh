#!/usr/bin/env bash
# A fresh cdk8s project installs the packed package (dist/js/*.tgz from `npx projen package:js`) from the npm
# registry's point of view: real install, real peer dependencies, its own TypeScript and ts-node. It synthesizes the
# README quick start and runs the package's CLI. Run by .ci/run after the jsii build.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tarball="$(ls "$repo"/dist/js/cdk8s-olm-tenancy@*.jsii.tgz 2>/dev/null || ls "$repo"/dist/js/*.tgz | head -1)"
[ -f "$tarball" ] || { echo "no packed tarball in dist/js: run 'npx projen package:js' first"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$repo/consumer-example/package.json" "$repo/consumer-example/tsconfig.json" "$repo/consumer-example/main.ts" "$work/"
cd "$work"
npm install --no-audit --no-fund --no-package-lock --loglevel=error
npm install --no-audit --no-fund --no-package-lock --loglevel=error "$tarball"
ETCD_BUNDLE_DIR="$repo/test/fixtures/bundles/etcd/0.9.4" npm run --silent synth
for kind in 'kind: Namespace' 'kind: OperatorGroup' 'kind: Subscription' 'kind: CatalogSource' 'kind: OperatorHub'; do
  grep -q "^$kind\$" dist/platform.k8s.yaml || { echo "consumer synth: '$kind' missing from dist/platform.k8s.yaml"; exit 1; }
done
# The CLI: the OKD docs' default Role cannot install etcd 0.9.4 (exit 1), the derived Role can (exit 0).
set +e
npx --no-install cdk8s-olm-tenancy preflight "$repo/test/fixtures/bundles/etcd/0.9.4" --namespace team-a > derived.yaml
code=$?
set -e
[ "$code" = 1 ] || { echo "CLI: expected exit 1 with the default Role, got $code"; exit 1; }
npx --no-install cdk8s-olm-tenancy preflight "$repo/test/fixtures/bundles/etcd/0.9.4" --namespace team-a --installer-rules derived.yaml > /dev/null
# --version reads the installed package.json from lib/cli (not the source tree's).
version="$(node -p "require('cdk8s-olm-tenancy/package.json').version")"
[ "$(npx --no-install cdk8s-olm-tenancy --version)" = "cdk8s-olm-tenancy $version" ] || { echo "CLI: --version is not 'cdk8s-olm-tenancy $version'"; exit 1; }
echo "consumer example: installed $(basename "$tarball"), synthesized the quick start, CLI exit codes as expected"
