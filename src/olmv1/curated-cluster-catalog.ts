import { Construct } from 'constructs';
import { CLUSTER_CATALOG_IMAGE_REF_RULES, crdFailures } from './crd-rules';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer } from '../core/diagnostics';
import { InputCheck } from '../core/input-check';
import { NameRule } from '../core/kubernetes-names';
import * as l1 from '../imports/olmv1';

/** Labels the OLM v1 constructs write and select on. */
export class OlmV1Labels {
  /**
   * On a ClusterCatalog: the team (or curation) it serves; ClusterExtensions select catalogs with it
   * (`spec.source.catalog.selector.matchLabels`), as upstream's how-to-protect-olmv1-api-access.md does with `team`.
   * On a ClusterExtension: the team that owns it (the admission policy binds writes and deletes to it).
   */
  public static readonly TEAM = 'olm-tenancy.io/team';
}

/** Properties of a `CuratedClusterCatalog`. */
export interface CuratedClusterCatalogProps {
  /** `metadata.name` of the ClusterCatalog (cluster-scoped, a DNS-1123 subdomain). */
  readonly catalogName: string;
  /**
   * The catalog image (File-Based Catalog), by digest (`registry/repo@sha256:...`) or by tag. Digest references
   * are immutable and cannot be polled.
   */
  readonly image: string;
  /**
   * The team or curation the catalog serves: written as the label `OlmV1Labels.TEAM`, which the teams'
   * ClusterExtensions select on. Several teams share a curation by naming the same value in `OlmV1TeamProps.catalog`.
   */
  readonly team: string;
  /**
   * Minutes between polls of a tag reference for a new digest. The ClusterCatalog CRD refuses it for digest
   * references (x-kubernetes-validations on `spec.source.image`), and so does this construct, at synth.
   * @default - no polling
   */
  readonly pollIntervalMinutes?: number;
  /**
   * Priority among catalogs that offer the same package (higher wins; `spec.priority`, int32).
   * @default 0
   */
  readonly priority?: number;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * A curated OLM v1 `ClusterCatalog` (`olm.operatorframework.io/v1`, operator-controller v1.11.0 standard CRDs):
 * an image source labelled with the team it serves, so that team's ClusterExtensions (and only theirs, by the
 * admission policy of `OlmV1Team`) resolve from it.
 */
export class CuratedClusterCatalog extends Construct {
  /** The ClusterCatalog name. */
  public readonly catalogName: string;
  /** The value of the `OlmV1Labels.TEAM` label. */
  public readonly team: string;
  /** The L1 object. */
  public readonly apiObject: l1.ClusterCatalog;

  public constructor(scope: Construct, id: string, props: CuratedClusterCatalogProps) {
    super(scope, id);
    const check = new InputCheck();
    const raw = (props ?? {}) as any;
    this.catalogName = check.name('catalogName', check.requiredString('catalogName', raw.catalogName, 'name the ClusterCatalog'), NameRule.DNS1123_SUBDOMAIN, 'ClusterCatalog') ?? 'invalid';
    this.team = check.requiredString('team', raw.team, 'name the team or curation the catalog serves') ?? 'invalid';
    const image = check.requiredString('image', raw.image, 'pass the catalog image, e.g. registry.example.com/catalog@sha256:<digest>') ?? '';
    const poll = check.optionalNumber('pollIntervalMinutes', raw.pollIntervalMinutes);
    const priority = check.optionalNumber('priority', raw.priority);
    const errors: DiagnosticDetails[] = [...check.errors, ...catalogProblems(image, poll, priority, this.team)];
    addErrorProducer(this, () => errors);

    this.apiObject = new l1.ClusterCatalog(this, 'Resource', {
      metadata: { name: this.catalogName, labels: { [OlmV1Labels.TEAM]: this.team } },
      spec: {
        source: {
          type: l1.ClusterCatalogSpecSourceType.IMAGE,
          image: { ref: image, ...(poll !== undefined ? { pollIntervalMinutes: poll } : {}) },
        },
        ...(priority !== undefined ? { priority } : {}),
      },
    });
  }
}

/** The CRD's rules on the catalog fields, checked at synth. */
function catalogProblems(image: string, poll: number | undefined, priority: number | undefined, team: string): DiagnosticDetails[] {
  const out: DiagnosticDetails[] = [];
  // The CRD's rule on spec.source.image: self.ref.find('(@.*:)') != "" ? !has(self.pollIntervalMinutes) : true
  if (poll !== undefined && /@.*:/.test(image)) {
    out.push({
      code: CODE.CatalogPollsDigest,
      field: 'pollIntervalMinutes',
      value: String(poll),
      message: `image '${image}' is a digest reference, which never changes: the ClusterCatalog CRD refuses pollIntervalMinutes with it ("cannot specify pollIntervalMinutes while using digest-based image")`,
      fix: 'remove pollIntervalMinutes, or reference the image by tag to have it polled',
    });
  }
  if (poll !== undefined && (!Number.isInteger(poll) || poll < 1 || poll > INT32_MAX)) {
    out.push({ code: CODE.InvalidValue, field: 'pollIntervalMinutes', value: String(poll), message: `pollIntervalMinutes must be a whole number of minutes, at least 1 (CRD minimum), got ${poll}`, fix: 'use e.g. 10' });
  }
  if (priority !== undefined && (!Number.isInteger(priority) || priority < INT32_MIN || priority > INT32_MAX)) {
    out.push({ code: CODE.InvalidValue, field: 'priority', value: String(priority), message: `priority must be an int32, got ${priority}`, fix: `use a whole number between ${INT32_MIN} and ${INT32_MAX}` });
  }
  // every rule of the CRD on spec.source.image.ref (x-kubernetes-validations and maxLength), ported in crd-rules.ts
  const refused = image === '' ? [] : crdFailures(CLUSTER_CATALOG_IMAGE_REF_RULES, image);
  if (refused.length > 0) {
    out.push({
      code: CODE.InvalidValue,
      field: 'image',
      value: image,
      message: `image '${image}' is refused by the ClusterCatalog CRD (spec.source.image.ref): ${refused.join('; ')}`,
      fix: 'use e.g. registry.example.com/catalogs/team-a@sha256:<64 hex digits> or registry.example.com/catalogs/team-a:v1',
    });
  }
  if (team !== 'invalid' && (team === '' || team.length > 63 || !/^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(team))) {
    out.push({ code: CODE.InvalidValue, field: 'team', value: team, message: `team '${team}' is not a valid label value`, fix: 'use at most 63 letters, digits, - _ . starting and ending with a letter or digit' });
  }
  return out;
}
