/**
 * The approval rule of the GitOps InstallPlan approver (`PinnedInstallPlanApprover`): approve a pending Manual
 * InstallPlan only when every CSV it would install is pinned in code. The pattern is redhat-cop/gitops-catalog's
 * `installplan-approver` (a Job that patches `spec.approved: true`), restricted to the pinned CSVs: OLM merges the
 * pending InstallPlans of one namespace (one resolution per namespace, `pkg/controller/operators/catalog/operator.go`),
 * so a plan that also carries an unpinned CSV is left for a person.
 *
 * The approver's script (`PinnedApproval.SCRIPT`) implements the same rule in plain JavaScript; the tests run both
 * on the same InstallPlans.
 */
import { checkDecide } from './input-checks';
import { prop, valueText } from '../core/input-check';

/** What the approver does with one InstallPlan. */
export interface ApprovalDecision {
  /** The InstallPlan's `metadata.name`. */
  readonly name: string;
  /** True when the approver sets `spec.approved: true`. */
  readonly approve: boolean;
  /** Why, in words. */
  readonly reason: string;
}

/** The pinned-CSV approval rule. */
export class PinnedApproval {
  /**
   * The decision for one InstallPlan object (as the API returns it): approve only a Manual plan that is not yet
   * approved and whose `spec.clusterServiceVersionNames` are all in `pinnedCsvs` (and not empty).
   */
  public static decide(installPlan: any, pinnedCsvs: string[]): ApprovalDecision {
    checkDecide('decide', undefined, pinnedCsvs);
    const pinned = new Set(pinnedCsvs);
    // the InstallPlan is data from the API server: read without letting odd values (or getters) throw
    const text = (v: unknown): string => (typeof v === 'string' ? v : valueText(v));
    const name = text(prop(prop(installPlan, 'metadata'), 'name') ?? '');
    const spec = prop(installPlan, 'spec') ?? {};
    const approval = prop(spec, 'approval');
    if (prop(spec, 'approved') === true) return { name, approve: false, reason: 'already approved' };
    if (approval !== 'Manual') return { name, approve: false, reason: `approval is ${typeof approval === 'string' ? JSON.stringify(approval) : valueText(approval ?? null)}, not Manual` };
    const names = prop(spec, 'clusterServiceVersionNames');
    const csvs = Array.isArray(names) ? names.map(text) : [];
    if (csvs.length === 0) return { name, approve: false, reason: 'no clusterServiceVersionNames' };
    const unpinned = csvs.filter((c: string) => !pinned.has(c));
    if (unpinned.length > 0) return { name, approve: false, reason: `not pinned: ${unpinned.join(', ')}` };
    return { name, approve: true, reason: `every CSV is pinned: ${csvs.join(', ')}` };
  }

  /** `decide` for every InstallPlan of a list, in list order. */
  public static decideAll(installPlans: any[], pinnedCsvs: string[]): ApprovalDecision[] {
    checkDecide('decideAll', installPlans, pinnedCsvs);
    return installPlans.map((p) => PinnedApproval.decide(p, pinnedCsvs));
  }

  /**
   * The approver's script (Node.js, no dependencies): lists the InstallPlans of `$NAMESPACE` with the pod's
   * ServiceAccount token, applies the rule above with the CSVs of `$PINNED_CSVS` (a JSON list), and patches the
   * approved ones (`spec.approved: true`, a merge patch). With the argument `--decide` it reads a JSON list of
   * InstallPlans on stdin and prints the decisions; with `--simulate` it reads an InstallPlanList on stdin and prints
   * the requests it would send (what the tests run).
   */
  public static get script(): string {
    return SCRIPT;
  }

  private constructor() {}
}

const SCRIPT = `'use strict';
// cdk8s-olm-tenancy pinned InstallPlan approver: approves a Manual InstallPlan only when every CSV in
// spec.clusterServiceVersionNames is pinned (same rule as PinnedApproval.decide).
const fs = require('fs');
const https = require('https');

function decide(plan, pinnedCsvs) {
  const pinned = new Set(pinnedCsvs);
  const name = String((plan && plan.metadata && plan.metadata.name) || '');
  const spec = (plan && plan.spec) || {};
  if (spec.approved === true) return { name, approve: false, reason: 'already approved' };
  if (spec.approval !== 'Manual') return { name, approve: false, reason: 'approval is ' + JSON.stringify(spec.approval === undefined ? null : spec.approval) + ', not Manual' };
  const csvs = Array.isArray(spec.clusterServiceVersionNames) ? spec.clusterServiceVersionNames.map((c) => String(c)) : [];
  if (csvs.length === 0) return { name, approve: false, reason: 'no clusterServiceVersionNames' };
  const unpinned = csvs.filter((c) => !pinned.has(c));
  if (unpinned.length > 0) return { name, approve: false, reason: 'not pinned: ' + unpinned.join(', ') };
  return { name, approve: true, reason: 'every CSV is pinned: ' + csvs.join(', ') };
}

const SA = '/var/run/secrets/kubernetes.io/serviceaccount';
function request(method, path, body) {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: process.env.KUBERNETES_SERVICE_HOST,
      port: process.env.KUBERNETES_SERVICE_PORT || 443,
      method,
      path,
      ca: fs.readFileSync(SA + '/ca.crt'),
      headers: {
        Authorization: 'Bearer ' + fs.readFileSync(SA + '/token', 'utf8').trim(),
        Accept: 'application/json',
        'Content-Type': 'application/merge-patch+json',
      },
    }, (res) => {
      let data = '';
      res.on('data', (c) => { data += c; });
      res.on('end', () => (res.statusCode >= 300 ? reject(new Error(method + ' ' + path + ': HTTP ' + res.statusCode + ' ' + data)) : resolve(JSON.parse(data))));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(JSON.stringify(body));
    req.end();
  });
}

async function main(call, log) {
  const ns = process.env.NAMESPACE;
  const pinned = JSON.parse(process.env.PINNED_CSVS || '[]');
  const base = '/apis/operators.coreos.com/v1alpha1/namespaces/' + encodeURIComponent(ns) + '/installplans';
  const list = await call('GET', base);
  for (const d of (list.items || []).map((p) => decide(p, pinned))) {
    log((d.approve ? 'approve ' : 'skip ') + ns + '/' + d.name + ': ' + d.reason);
    if (d.approve) await call('PATCH', base + '/' + encodeURIComponent(d.name), { spec: { approved: true } });
  }
}

if (process.argv[2] === '--decide') {
  const plans = JSON.parse(fs.readFileSync(0, 'utf8'));
  process.stdout.write(JSON.stringify(plans.map((p) => decide(p, JSON.parse(process.env.PINNED_CSVS || '[]')))));
} else if (process.argv[2] === '--simulate') {
  // the InstallPlan list on stdin answers the GET; prints the log and the requests main() would send
  const list = JSON.parse(fs.readFileSync(0, 'utf8'));
  const calls = [];
  const lines = [];
  main(async (method, path, body) => { calls.push({ method, path, body }); return method === 'GET' ? list : {}; }, (l) => lines.push(l))
    .then(() => process.stdout.write(JSON.stringify({ calls, lines })));
} else {
  main(request, console.log).catch((e) => { console.error(e.message); process.exit(1); });
}
`;
