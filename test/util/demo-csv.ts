/** A minimal valid CSV (version 1.0.0, one Deployment, one ServiceAccount reading configmaps) for tests that add manifests to it. */
export const DEMO_CSV = `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: demo.v1.0.0
spec:
  version: 1.0.0
  installModes:
  - type: OwnNamespace
    supported: true
  install:
    strategy: deployment
    spec:
      deployments:
      - name: demo
        spec:
          template:
            spec:
              serviceAccountName: demo
      permissions:
      - serviceAccountName: demo
        rules:
        - apiGroups: [""]
          resources: [configmaps]
          verbs: [get]
`;
