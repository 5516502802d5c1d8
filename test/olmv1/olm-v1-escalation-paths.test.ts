// The OLM v1 permission preview follows the paths of issue 23 in a real bundle (deployment-validation-operator
// 0.7.12, AllNamespaces) with one more manifest pair: a ClusterRole and a ClusterRoleBinding to the operator's own
// ServiceAccount, applied by operator-controller as cluster-admin. Aggregation (pkg/controller/clusterroleaggregation),
// escalate on the operator's own named role (RoleEscalationAuthorized), and certificate signing requests
// (plugin/pkg/admission/certificates/approval): each reaches everything, so the preview says so (OLMT-026).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OperatorBundle } from '../../src/bundle';
import { OlmV1PermissionPreview, OlmV1PreviewFindingCode, RegistryV1Render } from '../../src/olmv1';

const DVO = path.join(__dirname, '..', 'fixtures', 'bundles', 'deployment-validation-operator', '0.7.12');
const SA = 'ServiceAccount team-x/deployment-validation-operator';

/** The bundle with a ClusterRole `extra` (`role`: its YAML body after metadata) bound to the operator's ServiceAccount. */
function preview(role: string): OlmV1PermissionPreview {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmv1-paths-'));
  try {
    fs.cpSync(DVO, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'manifests', 'extra_clusterrole.yaml'), `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: extra}\n${role}`);
    fs.writeFileSync(path.join(dir, 'manifests', 'extra_clusterrolebinding.yaml'), 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: extra}\n'
      + 'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: extra}\nsubjects: [{kind: ServiceAccount, name: deployment-validation-operator, namespace: team-x}]\n');
    return OlmV1PermissionPreview.of(RegistryV1Render.forExtension(OperatorBundle.fromDirectory(dir), { installNamespace: 'team-x' }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const unbounded = (p: OlmV1PermissionPreview) => p.findings.filter((f) => f.code === OlmV1PreviewFindingCode.UNBOUNDED).map((f) => f.subject);

describe('OLM v1 preview: paths to cluster-admin shipped in a bundle', () => {
  test('the bundle alone: not unbounded', () => {
    expect(unbounded(preview('rules: []\n'))).toEqual([]);
  });

  test.each([
    ['aggregationRule {} with no rules', 'aggregationRule: {clusterRoleSelectors: [{}]}\n'],
    ['aggregationRule matchLabels kubernetes.io/bootstrapping: rbac-defaults', 'aggregationRule: {clusterRoleSelectors: [{matchLabels: {kubernetes.io/bootstrapping: rbac-defaults}}]}\n'],
    ['aggregationRule matchExpressions Exists', 'aggregationRule: {clusterRoleSelectors: [{matchExpressions: [{key: kubernetes.io/bootstrapping, operator: Exists}]}]}\n'],
    ['escalate + update on its own ClusterRole by name', 'rules: [{apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], resourceNames: [extra], verbs: [escalate, update]}]\n'],
    ['escalate + patch on its own ClusterRole by name', 'rules: [{apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], resourceNames: [extra], verbs: [escalate, patch]}]\n'],
    ['a CSR for kubernetes.io/kube-apiserver-client, approved by itself', 'rules:\n'
      + '- {apiGroups: [certificates.k8s.io], resources: [certificatesigningrequests], verbs: [create]}\n'
      + '- {apiGroups: [certificates.k8s.io], resources: [certificatesigningrequests/approval], verbs: [update]}\n'
      + '- {apiGroups: [certificates.k8s.io], resources: [signers], resourceNames: [kubernetes.io/kube-apiserver-client], verbs: [approve]}\n'],
  ])('%s: the operator reaches everything (TenantIdentityUnbounded)', (_name, role) => {
    expect(unbounded(preview(role))).toEqual([SA]);
  });

  test('refused variants stay bounded: a selector of its own label, escalate on another name, a CSR without approve on the signer', () => {
    expect(unbounded(preview('aggregationRule: {clusterRoleSelectors: [{matchLabels: {example.com/dvo: "true"}}]}\n'))).toEqual([]);
    expect(unbounded(preview('rules: [{apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], resourceNames: [other], verbs: [escalate, update]}]\n'))).toEqual([]);
    expect(unbounded(preview('rules:\n- {apiGroups: [certificates.k8s.io], resources: [certificatesigningrequests], verbs: [create]}\n'
      + '- {apiGroups: [certificates.k8s.io], resources: [certificatesigningrequests/approval], verbs: [update]}\n'))).toEqual([]);
  });
});
