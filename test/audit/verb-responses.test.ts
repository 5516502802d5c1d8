/**
 * Issue 37, class 1: verbs whose response carries the object (src/audit/mechanisms/verb-responses.ts). A PATCH returns
 * the whole object after the patch (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go), a DELETE the deleted
 * object and a DELETECOLLECTION the deleted list (handlers/delete.go, registry/generic/registry/store.go), and
 * `dryRun=All` makes each a read with no side effect; an UPDATE returns the writer's object (secret/strategy.go keeps
 * only `type`). So "may patch Secrets" reads every Secret: the closure becomes a token Secret's ServiceAccount, the
 * sensitive-grant registry names SECRETS_READ_CLUSTER_WIDE, the OLM v1 preview names it (OLMT-044), and a token
 * Secret created for any ServiceAccount may be read back by any of these verbs.
 */
import { bundleWith, holding, Holding, previewOf, reached, ruleVariants, serviceAccount, tokenSecret } from './mechanism-worlds';
import { SensitiveGrant, InstallerRuleChecks } from '../../src/audit/installer-rule-checks';
import { NAMED_READ_VERBS, STORED_READ_VERBS, VERB_RESPONSES } from '../../src/audit/mechanisms/verb-responses';
import { OlmV1PreviewFindingCode } from '../../src/olmv1/olm-v1-permission-preview';

const VICTIM = 'ServiceAccount team-b/victim';
const world = (rules: any[], how: Holding) => [serviceAccount('team-b', 'victim'), tokenSecret('team-b', 'victim-token', 'victim'), ...holding(rules, how)];

describe('the table', () => {
  test('the verbs whose response carries the stored object, each citing the handler', () => {
    expect([STORED_READ_VERBS, NAMED_READ_VERBS]).toEqual([
      ['get', 'list', 'watch', 'patch', 'delete', 'deletecollection'],
      ['get', 'list', 'watch', 'patch', 'delete'],
    ]);
    expect(VERB_RESPONSES.map((v) => [v.verb, /staging\/src\/k8s\.io\/apiserver\/pkg\/endpoints\/handlers\/\w+\.go \w+/.test(v.upstream)]))
      .toEqual(['get', 'list', 'watch', 'patch', 'delete', 'deletecollection', 'update', 'create'].map((v) => [v, true]));
  });
});

describe.each(VERB_RESPONSES.map((v) => [v.verb, v] as const))('%s on Secrets', (verb, row) => {
  // by the token Secret's name where the request names it; deletecollection never does
  const named = { apiGroups: [''], resources: ['secrets'], verbs: [verb], ...(row.byName ? { resourceNames: ['victim-token'] } : {}) };
  const any = { apiGroups: [''], resources: ['secrets'], verbs: [verb] };

  test.each(ruleVariants(any).map(([why, rule]) => [why, rule] as const))('any name, %s: %s', (why, rule) => {
    // `*` verbs read whatever the verb is; `*` resources with create include serviceaccounts/token (a TokenRequest)
    const reads = row.readsStored || why === '* verbs' || (verb === 'create' && why.startsWith('* resources'));
    expect([reached(world([rule], 'crb')).includes(VICTIM), reached(world([rule], 'aggregated')).includes(VICTIM)]).toEqual([reads, reads]);
  });

  test('by the Secret\'s name (when the request names it), through a Role, a ClusterRole bound in the victim\'s namespace; never from another namespace', () => {
    const rows = (['role', 'rb-cluster-role', 'rb-other-ns'] as Holding[]).map((how) => reached(world([named], how)).includes(VICTIM));
    expect(rows).toEqual(row.readsStored ? [true, true, false] : [false, false, false]);
  });

  test('the sensitive grant, in cluster-scoped rules only', () => {
    const held = (clusterScoped: boolean) => InstallerRuleChecks.sensitiveGrantsHeld([any], { clusterScoped }).map((g) => g.grant)
      .includes(SensitiveGrant.SECRETS_READ_CLUSTER_WIDE);
    expect([held(true), held(false)]).toEqual([row.readsStored, false]);
  });

  test('create a token Secret for any ServiceAccount of the namespace, and read it back by this verb', () => {
    const rules = [{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }, { apiGroups: [''], resources: ['secrets'], verbs: [verb], ...(row.byName ? { resourceNames: ['mine'] } : {}) }];
    // no token Secret exists: the tokens controller fills the one the writer creates
    const found = reached([serviceAccount('team-b', 'victim'), ...holding(rules, 'role')]);
    expect(found.includes(VICTIM)).toBe(row.readsStored);
  });
});

describe('the OLM v1 preview names a bundle that patches or deletes Secrets cluster-wide (OLMT-044)', () => {
  test.each(['patch', 'delete', 'deletecollection', 'update'])('%s', (verb) => {
    const p = previewOf(bundleWith('op', [{ apiGroups: [''], resources: ['secrets'], verbs: [verb] }]));
    const grants = p.findings.filter((f) => f.code === OlmV1PreviewFindingCode.SENSITIVE_GRANT).map((f) => f.grant);
    expect(grants).toEqual(verb === 'update' ? [] : [SensitiveGrant.SECRETS_READ_CLUSTER_WIDE]);
  });
});
