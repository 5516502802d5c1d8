import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';

/**
 * Parts of Subscription `spec.config` that are refused unless opted into. OLM applies `spec.config` to the
 * operator's Deployments (`pkg/controller/operators/olm/overrides`), so whoever may write a Subscription chooses
 * where the operator's pods run and what they mount.
 */
export enum SubscriptionConfigOptIn {
  /** `tolerations`: lets the operator's pods onto tainted nodes (control plane, infra, dedicated nodes). */
  TOLERATIONS = 'tolerations',
  /** `nodeSelector`: pins the operator's pods to chosen nodes (e.g. control-plane nodes). */
  NODE_SELECTOR = 'nodeSelector',
  /** `affinity`: node and pod (anti-)affinity of the operator's pods, e.g. next to another tenant's pods. */
  AFFINITY = 'affinity',
  /**
   * Volume types other than configMap, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and
   * secret (the Pod Security `restricted` set without csi, whose drivers can mount external secrets): hostPath,
   * nfs, csi, image, iscsi and the other in-tree drivers. A Namespace enforcing `baseline` still rejects hostPath.
   */
  OTHER_VOLUME_TYPES = 'otherVolumeTypes',
}

/** What `SubscriptionConfigChecks.problems` accepts. */
export interface SubscriptionConfigAllowance {
  /**
   * Parts of `spec.config` that are accepted.
   * @default - none: tolerations, nodeSelector, affinity and volume types outside the safe set are refused
   */
  readonly allowed?: SubscriptionConfigOptIn[];
  /**
   * Secrets that `spec.config` may reference (secret volumes, projected secret sources, `envFrom.secretRef`,
   * `env.valueFrom.secretKeyRef`). A Subscription writer could otherwise hand the operator's pods any Secret of the
   * namespace, such as the installer's token Secret.
   * @default - none
   */
  readonly allowedSecretNames?: string[];
}

/**
 * Checks of Subscription `spec.config` (the JSON form, as written to the Subscription), as pure logic. The same
 * rules are enforced in-cluster by `CuratedCatalogAdmissionPolicy` (its CEL is built from the same lists).
 */
export class SubscriptionConfigChecks {
  /** Volume sources accepted without opt-in (Pod Security `restricted` allows these and csi; a volume with no source is an emptyDir). */
  public static readonly SAFE_VOLUME_TYPES: string[] = ['configMap', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

  /**
   * Volume sources of the Subscription CRD's `spec.config.volumes` schema that need `OTHER_VOLUME_TYPES` (every
   * source in `crds/olm/operators.coreos.com_subscriptions.yaml` but the safe ones).
   */
  public static readonly OTHER_VOLUME_TYPES: string[] = [
    'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'csi', 'fc', 'flexVolume', 'flocker',
    'gcePersistentDisk', 'gitRepo', 'glusterfs', 'hostPath', 'image', 'iscsi', 'nfs', 'photonPersistentDisk',
    'portworxVolume', 'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
  ];

  /**
   * The problems of `config` (Subscription `spec.config` as JSON), each with `field` relative to `spec.config`.
   * Codes: `SubscriptionConfigVolume`, `SubscriptionConfigSecret`, `SubscriptionConfigScheduling`.
   */
  public static problems(config: any, allowance: SubscriptionConfigAllowance = {}): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [];
    if (config === undefined || config === null) return out;
    const allowed = new Set(allowance.allowed ?? []);
    const secrets = new Set(allowance.allowedSecretNames ?? []);
    const secretsText = secrets.size > 0 ? `allowedSecretNames (${[...secrets].sort().join(', ')})` : 'allowedSecretNames (none)';
    const secretProblem = (field: string, name: string | undefined, what: string): void => {
      if (name !== undefined && secrets.has(name)) return;
      out.push({
        code: CODE.SubscriptionConfigSecret,
        field,
        value: name ?? '',
        message: `${what} hands Secret '${name ?? ''}' to the operator's pods, and it is not in ${secretsText}; a Subscription writer could hand them any Secret of the namespace, such as the installer's token`,
        fix: 'remove it, or add the Secret name to allowedConfigSecrets (subscribe) / allowedSubscriptionConfigSecrets (admission policy)',
      });
    };
    list(config.volumes).forEach((v: any, i: number) => {
      const at = `volumes[${i}]`;
      if (!allowed.has(SubscriptionConfigOptIn.OTHER_VOLUME_TYPES)) {
        for (const type of SubscriptionConfigChecks.OTHER_VOLUME_TYPES.filter((t) => v?.[t] !== undefined)) {
          out.push({
            code: CODE.SubscriptionConfigVolume,
            field: `${at}.${type}`,
            value: String(v.name ?? ''),
            message: `volume type ${type} is outside the Pod Security restricted set (${SubscriptionConfigChecks.SAFE_VOLUME_TYPES.join(', ')})${type === 'hostPath' ? '; a hostPath volume reads and writes the node' : ''}`,
            fix: 'use a safe volume type, or opt in with SubscriptionConfigOptIn.OTHER_VOLUME_TYPES',
          });
        }
      }
      if (v?.secret !== undefined) secretProblem(`${at}.secret.secretName`, v.secret?.secretName, `volume '${v.name ?? ''}'`);
      list(v?.projected?.sources).forEach((s: any, j: number) => {
        if (s?.secret !== undefined) secretProblem(`${at}.projected.sources[${j}].secret.name`, s.secret?.name, `projected volume '${v.name ?? ''}'`);
      });
    });
    list(config.envFrom).forEach((e: any, i: number) => {
      if (e?.secretRef !== undefined) secretProblem(`envFrom[${i}].secretRef.name`, e.secretRef?.name, 'envFrom');
    });
    list(config.env).forEach((e: any, i: number) => {
      if (e?.valueFrom?.secretKeyRef !== undefined) secretProblem(`env[${i}].valueFrom.secretKeyRef.name`, e.valueFrom.secretKeyRef?.name, `env ${e.name ?? ''}`);
    });
    const scheduling: Array<[SubscriptionConfigOptIn, boolean, string]> = [
      [SubscriptionConfigOptIn.TOLERATIONS, list(config.tolerations).length > 0, 'tolerations let the operator\'s pods onto tainted nodes (control plane, infra, dedicated)'],
      [SubscriptionConfigOptIn.NODE_SELECTOR, Object.keys(config.nodeSelector ?? {}).length > 0, 'nodeSelector pins the operator\'s pods to chosen nodes'],
      [SubscriptionConfigOptIn.AFFINITY, config.affinity !== undefined && config.affinity !== null, 'affinity places the operator\'s pods next to, or away from, chosen nodes and pods'],
    ];
    for (const [field, present, why] of scheduling) {
      if (!present || allowed.has(field)) continue;
      out.push({
        code: CODE.SubscriptionConfigScheduling,
        field,
        value: JSON.stringify(config[field]),
        message: `${why}, which is the platform's choice, not the tenant's`,
        fix: `remove it, or opt in with SubscriptionConfigOptIn.${optInName(field)}`,
      });
    }
    return out;
  }

  private constructor() {}
}

function list(x: unknown): any[] {
  return Array.isArray(x) ? x : [];
}

function optInName(o: SubscriptionConfigOptIn): string {
  return Object.entries(SubscriptionConfigOptIn).find(([, v]) => v === o)![0];
}
