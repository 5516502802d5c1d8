// What an admission webhook sees and may rewrite, by the kinds its rules select, and where (its namespaceSelector).
// Internal, not re-exported: OLM v0 tenants (OLMT-051) and the OLM v1 preview (OLMT-052) name webhooks that reach
// beyond the bundle's own API groups and the team's own namespaces.
//
// Matching follows the API server exactly (k8s `staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/
// rules/rules.go` `Matcher`): `operations` ('*' is every operation), `apiGroups` ('*' every group), `resources`
// (`*` every resource without subresource, `*/*` every resource and subresource, `pods/*` pods and all its
// subresources, `*/scale` the scale subresource of every resource), `scope` (`Namespaced` never matches a Namespace
// object, `Cluster` matches Namespace objects and cluster-scoped resources; `*` or unset: both). `apiVersions` are not
// narrowed: the default `matchPolicy: Equivalent` also sends requests of other versions (and of the equivalent
// `extensions` resources) that convert to a matched one.
//
// `namespaceSelector` (`predicates/namespace/matcher.go` `MatchNamespaceSelector`): a namespaced object is sent when
// its namespace's labels match; a Namespace object when its own labels match; any other cluster-scoped object always
// (the selector does not apply). A selector confines a webhook to known namespaces only through the label the API
// server sets and nobody can change, `kubernetes.io/metadata.name` (matchLabels, or `In`); any other selector (or
// none, or `{}`) selects every namespace that carries or is given the labels: unbounded. `objectSelector` never
// confines: the labels of an object are chosen by whoever writes it.

/** One kind of object a webhook reaches outside its own API groups or its team's namespaces. */
export interface WebhookReach {
  /** `<group>/<resource>` as the rule names it (`core` for the core group), e.g. `apps/deployments`. */
  readonly resource: string;
  /** True when the webhook may change the object (a mutating webhook on CREATE or UPDATE). */
  readonly rewrites: boolean;
  /** What that gives the webhook's owner. */
  readonly why: string;
  /** Where: `every namespace`, `namespaces a, b`, or the whole cluster (cluster-scoped kinds). */
  readonly where: string;
}

/** How one webhook is placed. */
export interface WebhookPlacement {
  /** True for a MutatingWebhookConfiguration's webhook. */
  readonly mutating: boolean;
  /** The API groups of the bundle's own CRDs: webhooks there see only the operator's own objects. */
  readonly ownGroups: string[];
  /** The namespaces of the team or tenant: a webhook confined to them reaches nobody else. */
  readonly ownNamespaces: string[];
  /**
   * The namespaces the webhook's namespaceSelector selects, when its creator sets it (OLM v0: the OperatorGroup's
   * target namespaces, `undefined` for AllNamespaces); `null` to read the webhook's own `namespaceSelector`.
   */
  readonly selectedNamespaces: string[] | undefined | null;
}

interface KnownResource {
  readonly group: string;
  readonly resource: string;
  readonly namespaced: boolean;
  /** What a mutating webhook on it can do (undefined: nothing sensitive beyond seeing it). */
  readonly rewrite?: string;
  /** What any webhook on it receives. */
  readonly data?: string;
}

const POD_TEMPLATE = 'the template of every pod it creates: images, commands, volumes and the ServiceAccount, i.e. code in its pods as any ServiceAccount of the namespace';
/** Sensitive kinds, by what a webhook on them gains (k8s `pkg/apis/...`; `extensions` via matchPolicy Equivalent). */
const KNOWN: KnownResource[] = [
  { group: '', resource: 'pods', namespaced: true, rewrite: 'every pod: images, commands, volumes and its ServiceAccount, i.e. code in every pod', data: 'every pod spec, environment values included' },
  { group: '', resource: 'pods/ephemeralcontainers', namespaced: true, rewrite: 'containers added to running pods, i.e. code in the pod' },
  { group: '', resource: 'replicationcontrollers', namespaced: true, rewrite: POD_TEMPLATE },
  ...['deployments', 'daemonsets', 'statefulsets', 'replicasets'].map((resource) => ({ group: 'apps', resource, namespaced: true, rewrite: POD_TEMPLATE })),
  ...['deployments', 'daemonsets', 'replicasets'].map((resource) => ({ group: 'extensions', resource, namespaced: true, rewrite: POD_TEMPLATE })),
  ...['jobs', 'cronjobs'].map((resource) => ({ group: 'batch', resource, namespaced: true, rewrite: POD_TEMPLATE })),
  { group: '', resource: 'serviceaccounts', namespaced: true, rewrite: 'every ServiceAccount: image pull secrets, token mounting' },
  { group: '', resource: 'namespaces', namespaced: false, rewrite: "every Namespace: its Pod Security labels (privileged pods) and the team's labels" },
  { group: '', resource: 'secrets', namespaced: true, data: "every Secret's data, ServiceAccount tokens included" },
  { group: '', resource: 'configmaps', namespaced: true, data: "every ConfigMap's data" },
];

const KNOWN_GROUPS: ReadonlySet<string> = new Set(KNOWN.map((k) => k.group));
const NAME_LABEL = 'kubernetes.io/metadata.name';

/** The namespaces a namespaceSelector confines to (`undefined`: every namespace, or namespaces nobody can bound). */
export function selectedNamespaces(selector: any): string[] | undefined {
  if (selector === undefined || selector === null || typeof selector !== 'object') return undefined;
  let names: string[] | undefined;
  const narrow = (values: string[]) => {
    names = names === undefined ? [...new Set(values)] : names.filter((n) => values.includes(n));
  };
  const labels = selector.matchLabels;
  if (labels && typeof labels === 'object' && typeof labels[NAME_LABEL] === 'string') narrow([labels[NAME_LABEL]]);
  for (const e of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    if (e?.key === NAME_LABEL && e.operator === 'In' && Array.isArray(e.values)) narrow(e.values.filter((v: unknown) => typeof v === 'string'));
  }
  return names?.sort();
}

/** rules.go `Matcher`: whether `rule` sends a request for `group`/`resource[/subresource]` (namespaced or not) with `operation`. */
function ruleMatches(rule: any, group: string, resource: string, namespaced: boolean, operations: string[]): boolean {
  const ops: unknown[] = Array.isArray(rule?.operations) ? rule.operations : [];
  if (!ops.some((o) => o === '*' || operations.includes(String(o)))) return false;
  const groups: unknown[] = Array.isArray(rule?.apiGroups) ? rule.apiGroups : [];
  if (!groups.some((g) => g === '*' || g === group)) return false;
  const [res, sub] = split(resource);
  const resources: unknown[] = Array.isArray(rule?.resources) ? rule.resources : [];
  if (!resources.some((r) => {
    const [rr, rs] = split(String(r));
    return (rr === '*' || rr === res) && (rs === '*' || rs === sub);
  })) return false;
  const isNamespaceObject = group === '' && res === 'namespaces';
  if (rule?.scope === 'Namespaced') return namespaced && !isNamespaceObject;
  if (rule?.scope === 'Cluster') return !namespaced || isNamespaceObject;
  return true;
}

function split(resource: string): [string, string] {
  const i = resource.indexOf('/');
  return i < 0 ? [resource, ''] : [resource.slice(0, i), resource.slice(i + 1)];
}

const REWRITE_OPS = ['CREATE', 'UPDATE'];
const DATA_OPS = ['CREATE', 'UPDATE', 'DELETE'];

/**
 * What one webhook (an `admissionregistration.k8s.io/v1` MutatingWebhook or ValidatingWebhook, or a CSV
 * `webhookdefinitions` entry) reaches beyond its own API groups and the team's namespaces: one entry per sensitive
 * kind (pods and pod templates, ServiceAccounts, Namespaces rewritten; Secrets, ConfigMaps received), then one per
 * other `<group>/<resource>` of a rule outside `ownGroups`. Empty when it only sees the bundle's own APIs, or only
 * the team's own namespaces.
 */
export function webhookReach(hook: any, placement: WebhookPlacement): WebhookReach[] {
  const rules: any[] = Array.isArray(hook?.rules) ? hook.rules : [];
  const selected = placement.selectedNamespaces === null ? selectedNamespaces(hook?.namespaceSelector) : placement.selectedNamespaces;
  const confined = selected !== undefined && selected.every((n) => placement.ownNamespaces.includes(n));
  const nsWhere = selected === undefined ? 'every namespace' : `namespaces ${selected.join(', ')}`;
  const own = new Set(placement.ownGroups);
  const out: WebhookReach[] = [];
  const seen = new Set<string>();
  const add = (r: WebhookReach) => {
    if (seen.has(r.resource)) return;
    seen.add(r.resource);
    out.push(r);
  };
  // the namespaceSelector applies to namespaced objects and to Namespace objects themselves
  const where = (namespaced: boolean, isNamespace: boolean): string | undefined => {
    if (namespaced || isNamespace) return confined ? undefined : nsWhere;
    return 'the whole cluster: cluster-scoped, the namespaceSelector does not apply';
  };
  for (const k of KNOWN) {
    if (own.has(k.group)) continue;
    const isNamespace = k.group === '' && k.resource === 'namespaces';
    const w = where(k.namespaced, isNamespace);
    if (w === undefined) continue;
    const matches = (ops: string[]) => rules.some((r) => ruleMatches(r, k.group, k.resource, k.namespaced, ops));
    const rewrites = placement.mutating && k.rewrite !== undefined && matches(REWRITE_OPS);
    const receives = k.data !== undefined && matches(DATA_OPS);
    if (!rewrites && !receives) continue;
    add({ resource: `${k.group || 'core'}/${k.resource}`, rewrites, why: rewrites ? k.rewrite! : k.data!, where: w });
  }
  // any other kind outside the bundle's own groups: the webhook receives every such object (and may deny it)
  for (const rule of rules) {
    const ops: unknown[] = Array.isArray(rule?.operations) ? rule.operations : [];
    if (!ops.some((o) => o === '*' || DATA_OPS.includes(String(o)))) continue;
    const rewrites = placement.mutating && ops.some((o) => o === '*' || REWRITE_OPS.includes(String(o)));
    for (const g of (Array.isArray(rule.apiGroups) ? rule.apiGroups : []).map(String)) {
      if (g !== '*' && own.has(g)) continue;
      for (const r of (Array.isArray(rule.resources) ? rule.resources : []).map(String)) {
        const key = `${g || 'core'}/${r}`;
        if (seen.has(key) || (r.includes('/') && seen.has(`${g || 'core'}/${split(r)[0]}`))) continue;
        // a rule matches every group with every resource: built-in kinds exist in their own group only
        if (g !== '*' && KNOWN_GROUPS.has(g) && KNOWN.some((k) => k.resource === split(r)[0] && k.group !== g) && !KNOWN.some((k) => k.group === g && k.resource === split(r)[0])) continue;
        // only namespaced kinds are confined by the namespaceSelector: known ones, or rules scoped to Namespaced
        const known = KNOWN.find((k) => (g === k.group) && r === k.resource);
        const namespaced = rule.scope === 'Namespaced' || (known !== undefined && known.namespaced);
        const isNamespace = g === '' && r === 'namespaces';
        const w = where(namespaced, isNamespace);
        if (w === undefined) continue;
        add({
          resource: key,
          rewrites,
          why: `every ${r === '*' || r === '*/*' ? `object of ${g === '*' ? 'every API group' : `API group ${g || 'core'}`}` : `${r} object${g === '*' ? ' of every API group' : ''}`} `
            + `outside the bundle's own APIs: ${rewrites ? 'may rewrite it, ' : ''}receives its data, may deny it`,
          where: w,
        });
      }
    }
  }
  return out;
}

/** One line for a finding: `rewrites apps/deployments (every pod it creates: ...) in every namespace; receives core/secrets (...) ...`. */
export function describeReach(reach: WebhookReach[]): string {
  return reach.map((r) => `${r.rewrites ? 'rewrites' : 'receives'} ${r.resource} (${r.why}) in ${r.where}`).join('; ');
}
