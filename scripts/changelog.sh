#!/usr/bin/env bash
# Writes CHANGELOG.md from the commits (git log): one section per release tag (none yet: "Unreleased"), the
# commits of each day under it, newest first, each with its short hash. Releases add their own entry with
# `npx projen release` (dist/changelog.md, from conventional commits); this file keeps the history before them.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  echo "# Changelog"
  echo
  echo "Generated from the commits by \`bash scripts/changelog.sh\` (newest first). Versioning policy: README \"Versioning and releases\"."
  echo
  echo "## Unreleased (0.x)"
  # Breaking changes (README "Versioning and releases") from the commits' \`BREAKING CHANGE:\` footers, listed first.
  breaking="$(git log --no-merges --format='%B%x00' | tr '\0' '\n' | sed -n 's/^BREAKING CHANGE: //p')"
  if [ -n "$breaking" ]; then
    printf '\n### Breaking changes\n\n'
    printf '%s\n' "$breaking" | sed 's/^/- /'
  fi
  git log --no-merges --date=short --format='%ad%x09%h%x09%s' | awk -F '\t' '
    $1 != day { day = $1; printf "\n### %s\n\n", day }
    { gsub(/\|/, "\\|", $3); printf "- %s (%s)\n", $3, $2 }'
} > CHANGELOG.md
echo "CHANGELOG.md: $(grep -c '^- ' CHANGELOG.md) commits"
