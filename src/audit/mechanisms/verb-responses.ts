/**
 * What the response of each RBAC verb carries of the stored object: the API server's handlers, read from
 * `staging/src/k8s.io/apiserver/pkg/endpoints/handlers` and `registry/generic/registry/store.go`. A verb whose response
 * carries the stored object is a read of it, whatever else it does; with `?dryRun=All` (`store.go` passes `dryRun` to
 * the storage, which then neither writes nor deletes) it is a read with no side effect at all. So "may patch Secrets"
 * reads every Secret: an empty merge patch, or any patch with `dryRun=All`, returns the Secret with its `data`.
 *
 * Data, read by the effective-power model (which Secrets an identity reads), the sensitive-grant registry
 * (`SECRETS_READ_CLUSTER_WIDE`) and docs/escalation-paths.md. Internal.
 */

/** One verb: what its response reveals. */
export interface VerbResponse {
  /** The RBAC verb. */
  readonly verb: string;
  /** True when the response carries the stored object's data (a read, for authorization's purposes). */
  readonly readsStored: boolean;
  /**
   * True when a rule's `resourceNames` can allow it: the request names the object (in its path, or for list and watch
   * the field selector `metadata.name=<name>`, which `endpoints/request/requestinfo.go` turns into the request's name).
   * A deletecollection request has no name (requestinfo.go takes the name from the field selector for list and watch
   * only), nor has create.
   */
  readonly byName: boolean;
  /** What the response carries, in one line. */
  readonly reveals: string;
  /** With `?dryRun=All`. */
  readonly dryRun: string;
  /** Upstream file and function. */
  readonly upstream: string;
}

const HANDLERS = 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers';
const STORE = 'staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go';

/** The verbs of resource requests and what their responses reveal. */
export const VERB_RESPONSES: readonly VerbResponse[] = [
  {
    verb: 'get',
    readsStored: true,
    byName: true,
    reveals: 'the object',
    dryRun: 'not a write',
    upstream: `${HANDLERS}/get.go GetResource`,
  },
  {
    verb: 'list',
    readsStored: true,
    byName: true,
    reveals: 'every object of the collection (one, with the field selector metadata.name=<name>)',
    dryRun: 'not a write',
    upstream: `${HANDLERS}/get.go ListResource; staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go`,
  },
  {
    verb: 'watch',
    readsStored: true,
    byName: true,
    reveals: 'every object of the collection, and each change (one, with the field selector metadata.name=<name>)',
    dryRun: 'not a write',
    upstream: `${HANDLERS}/watch.go serveWatch; ${HANDLERS}/get.go ListResource`,
  },
  {
    verb: 'patch',
    readsStored: true,
    byName: true,
    reveals: 'the whole object after the patch: an empty merge patch returns the stored object unchanged',
    dryRun: 'the patched object, nothing stored',
    upstream: `${HANDLERS}/patch.go PatchResource (patcher.patchResource returns the result); ${STORE} Update`,
  },
  {
    verb: 'delete',
    readsStored: true,
    byName: true,
    reveals: 'the deleted object (200, or 202 while finalizers or a grace period keep it)',
    dryRun: 'the object, not deleted',
    upstream: `${HANDLERS}/delete.go DeleteResource; ${STORE} Delete`,
  },
  {
    verb: 'deletecollection',
    readsStored: true,
    byName: false,
    reveals: 'the list of the deleted objects',
    dryRun: 'the list, nothing deleted',
    upstream: `${HANDLERS}/delete.go DeleteCollection; ${STORE} DeleteCollection`,
  },
  {
    verb: 'update',
    readsStored: false,
    byName: true,
    reveals: 'the object as stored after the update: the writer\'s object plus what the strategy keeps of the old one '
      + '(`status` on the main resource); a Secret\'s `data` is the writer\'s (pkg/registry/core/secret/strategy.go PrepareForUpdate keeps only `type`)',
    dryRun: 'the same, nothing stored',
    upstream: `${HANDLERS}/update.go UpdateResource; ${STORE} Update (rest.DefaultUpdatedObjectInfo returns the new object)`,
  },
  {
    verb: 'create',
    readsStored: false,
    byName: false,
    reveals: 'the writer\'s object, defaulted; a token Secret comes back empty (the tokens controller fills it later)',
    dryRun: 'the same, nothing stored',
    upstream: `${HANDLERS}/create.go createHandler`,
  },
];

/** The verbs whose response carries the stored object (get, list, watch, patch, delete, deletecollection). */
export const STORED_READ_VERBS: readonly string[] = VERB_RESPONSES.filter((v) => v.readsStored).map((v) => v.verb);

/** The stored-read verbs a rule's `resourceNames` can allow (the request names the object). */
export const NAMED_READ_VERBS: readonly string[] = VERB_RESPONSES.filter((v) => v.readsStored && v.byName).map((v) => v.verb);
