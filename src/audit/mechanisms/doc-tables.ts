/**
 * The mechanism tables as Markdown, for docs/escalation-paths.md: the section between `<!-- mechanisms:start -->` and
 * `<!-- mechanisms:end -->` is this text (test/audit/mechanism-tables.test.ts keeps the two equal; regenerate with
 * `npx ts-node --project scripts/tsconfig.json scripts/escalation-paths-tables.ts`). Internal.
 */
import { ADDITIVE_POLICY_KINDS } from './additive-policies';
import { BENIGN_BOOTSTRAP_BINDINGS, BUILTIN_NAMES, NODE_AUTHORIZER, NODE_USER_PREFIX, NODES_GROUP } from './builtin-names';
import { DEPUTIES } from './deputies';
import { VERB_RESPONSES } from './verb-responses';
import { PolicyRule } from '../../rbac/policy-rule';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string) => `\`${s}\``;

function rules(rs: PolicyRule[]): string {
  return rs.map((r) => ((r.nonResourceUrls ?? []).length > 0
    ? `${r.verbs.join(',')} on URLs ${r.nonResourceUrls!.join(',')}`
    : `${r.verbs.join(',')} on ${(r.resources ?? []).join(',')}${(r.apiGroups ?? []).some((g) => g !== '') ? ` (${(r.apiGroups ?? []).map((g) => g || 'core').join(',')})` : ''}${(r.resourceNames ?? []).length > 0 ? ` [${r.resourceNames!.join(',')}]` : ''}`)).join('; ');
}

/** The generated section. */
export function mechanismTablesMarkdown(): string {
  const out: string[] = [];
  out.push('### Verbs and what their response reveals (`src/audit/mechanisms/verb-responses.ts`)', '');
  out.push('| verb | a read of the stored object | by name | reveals | with `dryRun=All` | upstream |', '|---|---|---|---|---|---|');
  for (const v of VERB_RESPONSES) out.push(`| ${code(v.verb)} | ${v.readsStored ? 'yes' : 'no'} | ${v.byName ? 'yes' : 'no'} | ${cell(v.reveals)} | ${cell(v.dryRun)} | ${cell(v.upstream)} |`);
  out.push('', '### Controllers that act for a writer (`src/audit/mechanisms/deputies.ts`)', '');
  out.push('| id | group | resources | verbs | who acts | as whom | effect | when | sensitive grant | upstream |', '|---|---|---|---|---|---|---|---|---|---|');
  for (const d of DEPUTIES) {
    out.push(`| ${code(d.id)} | ${d.group === '' ? 'core' : code(d.group)} | ${cell(d.resources.join(', '))} | ${cell(d.verbs.join(', ') || '(created by OLM)')} | ${cell(d.controller)} | ${cell(d.actsAs)} `
      + `| ${code(d.effect)} | ${cell(d.condition)} | ${d.grant ? code(d.grant) : '-'} | ${cell(d.upstream)} |`);
  }
  out.push('', '### Identities empowered by name (`src/audit/mechanisms/builtin-names.ts`)', '');
  out.push('| identity | role | rules (escalation-relevant) | every identity because | upstream |', '|---|---|---|---|---|');
  for (const b of BUILTIN_NAMES) {
    const id = b.kind === 'ServiceAccount' ? `ServiceAccount ${b.namespace}/${b.name}` : `${b.kind} ${b.name}`;
    out.push(`| ${code(id)} | ${code(b.role)} | ${cell(rules(b.rules))} | ${cell(b.everything ?? '-')} | ${cell(b.upstream)} |`);
  }
  out.push(`| ${code(`User ${NODE_USER_PREFIX}<name>`)} in ${code(`Group ${NODES_GROUP}`)} | (node authorizer) | the Secrets and tokens of its pods | the model cannot tell which pods a node runs: OLM's cluster-admin operators among them | ${cell(NODE_AUTHORIZER)} |`);
  out.push('', 'Bootstrap bindings not followed (they grant nothing beyond public information):', '');
  out.push('| subjects | role | why | upstream |', '|---|---|---|---|');
  for (const b of BENIGN_BOOTSTRAP_BINDINGS) out.push(`| ${cell(b.subjects)} | ${code(b.role)} | ${cell(b.reason)} | ${cell(b.upstream)} |`);
  out.push('', '### Policy objects whose effect is a union (`src/audit/mechanisms/additive-policies.ts`)', '');
  out.push('| kind | group | adds up | one more object | upstream |', '|---|---|---|---|---|');
  for (const k of ADDITIVE_POLICY_KINDS) out.push(`| ${k.kind} | ${k.group === '' ? 'core' : code(k.group)} | ${k.union ? 'yes: OLMT-043 names who may create one' : 'no'} | ${cell(k.effect)} | ${cell(k.upstream)} |`);
  return out.join('\n');
}
