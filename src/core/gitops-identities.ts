/**
 * Internal: who applies the GitOps layout's folders in a `TenancyApp` that writes Flux or Argo CD objects with tenant
 * identities (docs/gitops.md, "Who applies what"). The App registers the names in its constructor; the tenant
 * constructs created under it read them and create the identities (their ServiceAccount and RBAC), as they read
 * the App's version targets. Not re-exported.
 */
import { IConstruct } from 'constructs';
import { AppContext, AppSlot } from './app-context';

/** The GitOps identities of an App. */
export interface GitOpsIdentityNames {
  /** The ServiceAccount, in a tenant's (home) namespace, that applies the tenant's folder. */
  readonly applier: string;
  /** The ServiceAccount, in a tenant's home namespace, that applies a tenant's own repository (self-service). */
  readonly selfService: string;
  /** The platform's identity, which applies `cluster/` (the one identity beyond every tenant), as the audit names it. */
  readonly platform: string;
}

/** The App's GitOps identities, when its folders are applied with tenant identities. */
const GITOPS_IDENTITIES = new AppSlot<GitOpsIdentityNames | undefined>('gitOpsIdentities', () => undefined);

/** Registers the GitOps identities of the tree whose root is `root` (TenancyApp's constructor). */
export function setGitOpsIdentities(root: IConstruct, names: GitOpsIdentityNames): void {
  AppContext.of(root).set(GITOPS_IDENTITIES, names);
}

/** The GitOps identities of `scope`'s App; undefined when its folders are applied without tenant identities. */
export function gitOpsIdentitiesOf(scope: IConstruct): GitOpsIdentityNames | undefined {
  return AppContext.find(scope, GITOPS_IDENTITIES);
}

/** The Kubernetes user name of a ServiceAccount (`system:serviceaccount:<namespace>:<name>`). */
export function serviceAccountUserName(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}
