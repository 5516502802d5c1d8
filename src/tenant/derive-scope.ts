// Which versions the tenant derives its installer rules from.

/** Which versions `deriveInstallerRules` derives the installer's rules from. */
export enum DeriveScope {
  /**
   * The pinned version and every upgrade the catalog allows from it (a Subscription's `upgradeBundles`, and its
   * `upgradeGraph` within `versionRange`): the union, compacted. Approving any allowed upgrade cannot fail on RBAC.
   */
  ALLOWED_UPGRADES = 'AllowedUpgrades',
  /**
   * Only the version OLM installs first (`bundle`, or the graph's bundle of `startingCsv`). Least privilege today;
   * every allowed upgrade that would need more is reported (`UpgradeWouldFail`), so the rules are widened in code,
   * reviewed, before the upgrade is approved.
   */
  PINNED_VERSION = 'PinnedVersion',
}
