/**
 * What an installer ServiceAccount must never be able to do, checked on plain rule lists (no constructs), so the
 * tenant construct, the preflight and tests all use the same answer.
 */
import { DiagnosticDetails } from '../core/diagnostics';
import { PolicyRule } from '../rbac/policy-rule';
import { RbacRules, ResourceRequest } from '../rbac/rbac-rules';

/**
 * Grants that let the installer (and so every operator it installs) gain rights it was not given.
 * Each is a synth error unless listed in `ScopedOperatorTenantProps.allowedSensitiveGrants`.
 */
export enum SensitiveGrant {
  /** `escalate` on roles or clusterroles: create or update roles with rights the installer does not hold. */
  ESCALATE = 'ESCALATE',
  /** `bind` on roles or clusterroles: bind roles with rights the installer does not hold. */
  BIND = 'BIND',
  /** `impersonate` on users, groups, serviceaccounts, uids or userextras: act as someone else. */
  IMPERSONATE = 'IMPERSONATE',
  /**
   * Writes to `operatorgroups`: change the OperatorGroup's targets or ServiceAccount, i.e. its own scope.
   * The OKD docs: "RBAC does not exist on OperatorGroup objects; this absence is what prevents regular users
   * from installing Operators."
   */
  OPERATOR_GROUP_WRITES = 'OPERATOR_GROUP_WRITES',
}

/** Options of `InstallerRuleChecks.errors` and `InstallerRuleChecks.warnings`. */
export interface InstallerRuleCheckOptions {
  /** True for ClusterRole rules (cluster-wide grant), false for the tenant's namespaced Role. */
  readonly clusterScoped: boolean;
  /**
   * Sensitive grants the caller explicitly accepts.
   * @default - none
   */
  readonly allowedSensitiveGrants?: SensitiveGrant[];
  /**
   * Name of the prop or method holding the rules, used in messages (e.g. `installerRules`).
   * @default 'installerRules'
   */
  readonly field?: string;
}

/** The verbs that change objects. */
const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'];

interface Probe {
  readonly what: string;
  readonly requests: ResourceRequest[];
}

/** Cluster-scoped kinds that only OLM itself (as cluster-admin) creates: never the installer. */
const OLM_ONLY: { code: string; what: string; apiGroup: string; resource: string }[] = [
  { code: 'InstallerCanWriteCrds', what: 'customresourcedefinitions', apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
  { code: 'InstallerCanWriteApiServices', what: 'apiservices', apiGroup: 'apiregistration.k8s.io', resource: 'apiservices' },
];

const SENSITIVE: Record<SensitiveGrant, Probe> = {
  [SensitiveGrant.ESCALATE]: {
    what: "'escalate' on roles/clusterroles",
    requests: ['roles', 'clusterroles'].map((resource) => ({ verb: 'escalate', apiGroup: 'rbac.authorization.k8s.io', resource })),
  },
  [SensitiveGrant.BIND]: {
    what: "'bind' on roles/clusterroles",
    requests: ['roles', 'clusterroles'].map((resource) => ({ verb: 'bind', apiGroup: 'rbac.authorization.k8s.io', resource })),
  },
  [SensitiveGrant.IMPERSONATE]: {
    what: "'impersonate' on users/groups/serviceaccounts/uids/userextras",
    requests: [
      ...['users', 'groups', 'serviceaccounts'].map((resource) => ({ verb: 'impersonate', apiGroup: '', resource })),
      ...['uids', 'userextras'].map((resource) => ({ verb: 'impersonate', apiGroup: 'authentication.k8s.io', resource })),
    ],
  },
  [SensitiveGrant.OPERATOR_GROUP_WRITES]: {
    what: 'writes to operators.coreos.com operatorgroups',
    requests: WRITE_VERBS.map((verb) => ({ verb, apiGroup: 'operators.coreos.com', resource: 'operatorgroups' })),
  },
};

/** Checks of installer rule lists. */
export class InstallerRuleChecks {
  /**
   * True for the docs' "do anything in the namespace" rule: `*` verbs on `*` resources in `*` groups, any name.
   */
  public static isFullWildcard(rule: PolicyRule): boolean {
    return (
      (rule.verbs ?? []).includes('*') &&
      (rule.apiGroups ?? []).includes('*') &&
      (rule.resources ?? []).includes('*') &&
      (rule.resourceNames ?? []).length === 0
    );
  }

  /**
   * The problems that make `rules` unacceptable for an installer, one per problem:
   * invalid rules (`RbacRules.validate`), cluster-scoped writes to CRDs or APIServices (always), and sensitive
   * grants not in `allowedSensitiveGrants`. In a namespaced Role, full-wildcard rules are left to `warnings`
   * (a Role cannot reach cluster-scoped kinds; the OKD docs' example uses one).
   */
  public static errors(rules: PolicyRule[], options: InstallerRuleCheckOptions): DiagnosticDetails[] {
    const field = options.field ?? 'installerRules';
    const out: DiagnosticDetails[] = [];
    const valid: { rule: PolicyRule; index: number }[] = [];
    rules.forEach((rule, index) => {
      const problems = RbacRules.validate(rule, !options.clusterScoped);
      for (const problem of problems) {
        out.push({
          code: 'InvalidInstallerRule',
          field: `${field}[${index}]`,
          message: problem,
          fix: 'correct or remove the rule',
        });
      }
      if (problems.length === 0) valid.push({ rule, index });
    });

    // A rule with resourceNames grants only requests for those names: probe them too. Upstream RBAC never
    // matches create/deletecollection against resourceNames (the request has no name), so those stay unnamed.
    const names = [...new Set(valid.flatMap((v) => v.rule.resourceNames ?? []))].sort();
    const withNames = (requests: ResourceRequest[]) => [
      ...requests,
      ...requests.filter((r) => r.verb !== 'create' && r.verb !== 'deletecollection').flatMap((r) => names.map((name) => ({ ...r, name }))),
    ];
    const grantingRules = (candidates: { rule: PolicyRule; index: number }[], requests: ResourceRequest[]) =>
      candidates.filter((c) => withNames(requests).some((r) => RbacRules.allows([c.rule], r)));
    const describe = (found: { rule: PolicyRule; index: number }[]) =>
      found.map((f) => `${field}[${f.index}] ${JSON.stringify(rulesJson(f.rule))}`).join(', ');

    if (options.clusterScoped) {
      for (const kind of OLM_ONLY) {
        const validRules = valid.map((v) => v.rule);
        const verbs = WRITE_VERBS.filter((verb) =>
          withNames([{ verb, apiGroup: kind.apiGroup, resource: kind.resource }]).some((r) => RbacRules.allows(validRules, r)),
        );
        if (verbs.length === 0) continue;
        const found = grantingRules(valid, verbs.map((verb) => ({ verb, apiGroup: kind.apiGroup, resource: kind.resource })));
        out.push({
          code: kind.code,
          field,
          value: describe(found),
          message: `the cluster-scoped installer rules allow ${verbs.join('/')} on ${kind.apiGroup} ${kind.what}; OLM creates these itself as cluster-admin and the installer must never write them (OKD docs: "should never be granted privileges to write these resources")`,
          fix: `narrow the rule's apiGroups/resources/verbs so that it does not match ${kind.apiGroup} ${kind.what}`,
        });
      }
    }

    const allowed = new Set(options.allowedSensitiveGrants ?? []);
    const candidates = options.clusterScoped ? valid : valid.filter((v) => !InstallerRuleChecks.isFullWildcard(v.rule));
    for (const grant of Object.values(SensitiveGrant)) {
      if (allowed.has(grant)) continue;
      const probe = SENSITIVE[grant];
      const found = grantingRules(candidates, probe.requests);
      if (found.length === 0) continue;
      out.push({
        code: 'InstallerSensitiveGrant',
        field,
        value: describe(found),
        message: `the ${options.clusterScoped ? 'cluster-scoped' : 'namespaced'} installer rules grant ${probe.what} (SensitiveGrant.${grant}); an operator installed with them could gain rights nobody reviewed`,
        fix: `remove the grant, or accept it explicitly with allowedSensitiveGrants: [SensitiveGrant.${grant}]`,
      });
    }
    return out;
  }

  /** Findings that do not stop synthesis: full-wildcard rules in the namespaced Role. */
  public static warnings(rules: PolicyRule[], options: InstallerRuleCheckOptions): DiagnosticDetails[] {
    if (options.clusterScoped) return [];
    const field = options.field ?? 'installerRules';
    const out: DiagnosticDetails[] = [];
    rules.forEach((rule, index) => {
      if (!InstallerRuleChecks.isFullWildcard(rule)) return;
      out.push({
        code: 'WildcardInstallerRole',
        field: `${field}[${index}]`,
        value: JSON.stringify(rulesJson(rule)),
        message:
          "the installer Role allows every verb on every resource in the namespace (the OKD docs' demonstration Role); operators installed with it can do anything there, including escalate, bind and OperatorGroup writes",
        fix: 'use the default fine-grained rules (DefaultInstallerRules.okdScopedInstall) plus what your operators need',
      });
    });
    return out;
  }

  private constructor() {}
}

function rulesJson(rule: PolicyRule): any {
  const out: any = {};
  if (rule.apiGroups !== undefined) out.apiGroups = rule.apiGroups;
  if (rule.resources !== undefined) out.resources = rule.resources;
  if (rule.resourceNames !== undefined && rule.resourceNames.length > 0) out.resourceNames = rule.resourceNames;
  if (rule.nonResourceUrls !== undefined && rule.nonResourceUrls.length > 0) out.nonResourceURLs = rule.nonResourceUrls;
  out.verbs = rule.verbs;
  return out;
}
