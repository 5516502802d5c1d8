// What the audit reads of a tenant (facts, accepted reaches) and of an App, shared by the audit, its registry and the
// tenant construct.
import { PowerObject, RbacSubject } from './effective-power';
import { ReachCode } from './reach-code';
import { OperatorBundle } from '../bundle/operator-bundle';
import { OlmGeneration } from '../olm/olm-naming';

/** An explicit opt-in for a reach the audit finds (written to the OperatorGroup annotation `TenancyAudit.ACCEPTED_REACH_ANNOTATION`). */
export interface AcceptedReach {
  /** The finding code accepted. */
  readonly code: ReachCode;
  /**
   * The subject whose reach is accepted, as the audit names it (e.g. `ServiceAccount team-a/etcd-operator`).
   * @default - every subject of the tenant
   */
  readonly subject?: string;
  /** Why it is acceptable (reviewed by whom, ticket). Must not be empty. */
  readonly reason: string;
}

/** One tenant, as plain data. */
export interface AuditedTenant {
  /** A name for the tenant in findings (the construct path). */
  readonly name: string;
  /** The tenant namespace. */
  readonly namespace: string;
  /** The OperatorGroup's target namespaces; empty means AllNamespaces. */
  readonly targetNamespaces: string[];
  /** The OperatorGroup's name. */
  readonly operatorGroupName: string;
  /** The installer ServiceAccount (in `namespace`). */
  readonly installerServiceAccountName: string;
  /**
   * The OLM release line (names of OLM's generated roles).
   * @default OlmGeneration.V0_26_AND_LATER
   */
  readonly olmGeneration?: OlmGeneration;
  /**
   * The bundles OLM installs in the namespace (their operators' ServiceAccounts, RBAC and objects).
   * @default - none
   */
  readonly bundles?: OperatorBundle[];
  /**
   * People and groups the tenant grants access to.
   * @default - none
   */
  readonly people?: RbacSubject[];
  /**
   * Reaches accepted explicitly.
   * @default - none
   */
  readonly acceptedReach?: AcceptedReach[];
  /**
   * ServiceAccounts in `namespace` that apply the tenant's GitOps folder or own repository (docs/gitops.md, "Who
   * applies what"): audited like the installer.
   * @default - none
   */
  readonly gitOpsServiceAccounts?: string[];
}

/** Input of `TenancyAudit.audit`. */
export interface TenancyAuditInput {
  /** Every object of the App that can grant or hold power (RBAC objects, token Secrets, ServiceAccounts, workloads). */
  readonly objects: PowerObject[];
  /** The tenants; OLM's generated RBAC and the bundles' objects are added from their bundles. */
  readonly tenants: AuditedTenant[];
}
