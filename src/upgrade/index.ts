// Upgrades: the channel's upgrade graph as OLM walks it (replaces, skips, blang/semver skipRange), and for every
// allowed upgrade the install preflight and the permission diff. The blang/semver port (blang-semver.ts) is internal.
export * from './upgrade-graph';
export * from './permission-diffs';
export * from './upgrade-analysis';
export * from './pinned-approval';
