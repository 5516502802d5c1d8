import { Construct } from 'constructs';
import { defaultCatalogPolicyConflict, registerDefaultCatalogOwner } from './private';
import { clusterTargetsOf, openshiftVersionOf } from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer, addWarningProducer } from '../core/diagnostics';
import { InputCheck } from '../core/input-check';
import * as openshift from '../imports/openshift';

/** The default catalog sources the OpenShift Marketplace operator manages in `openshift-marketplace`. */
export enum OpenShiftDefaultSource {
  /** Red Hat products. */
  REDHAT_OPERATORS = 'redhat-operators',
  /** Certified partner operators. */
  CERTIFIED_OPERATORS = 'certified-operators',
  /** Community operators (not supported by Red Hat). */
  COMMUNITY_OPERATORS = 'community-operators',
  /** Red Hat Marketplace. */
  REDHAT_MARKETPLACE = 'redhat-marketplace',
}

const DEFAULT_SOURCES: string[] = Object.values(OpenShiftDefaultSource);

/** Properties of an `OpenShiftOperatorHubPolicy`. */
export interface OpenShiftOperatorHubPolicyProps {
  /**
   * Disable every default source (`spec.disableAllDefaultSources: true`); `keepEnabled` names exceptions.
   * When false, only the sources in `disable` are disabled.
   * @default true
   */
  readonly disableAllDefaultSources?: boolean;
  /**
   * Default sources that stay enabled (`spec.sources[]` with `disabled: false`), for example the source the
   * platform's own operators were installed from, so they keep getting updates. See `OpenShiftDefaultSource`.
   * @default - none
   */
  readonly keepEnabled?: string[];
  /**
   * With `disableAllDefaultSources: false`: the default sources to disable (`spec.sources[]` with
   * `disabled: true`). See `OpenShiftDefaultSource`.
   * @default - none
   */
  readonly disable?: string[];
  /**
   * The default sources the platform's own operators update from: those installed from OperatorHub outside this
   * App's tenants (OpenShift GitOps, which applies this output, OpenShift Logging, ...). With
   * `TenancyAppProps.targets.openshiftVersion`, each one the policy turns off without `keepEnabled` is the warning
   * `PlatformOperatorSourceDisabled`: those operators stop getting updates, cluster-wide. `[]` says that none does
   * (they update from a mirrored catalog of another name). See `OpenShiftDefaultSource`.
   * @default ['redhat-operators']
   */
  readonly platformOperatorSources?: string[];
}

/**
 * OpenShift/OKD: the cluster-scoped `config.openshift.io/v1` `OperatorHub` named `cluster`, which tells the
 * Marketplace operator which default global catalogs to run in `openshift-marketplace`.
 *
 * Disabling default sources is cluster-wide: operators that the platform itself installed from them stop getting
 * updates too. Keep their source enabled with `keepEnabled`. Only one policy construct may exist in an App (the
 * object is a singleton): a second one, or another `OperatorHub` object, is a synth error.
 */
export class OpenShiftOperatorHubPolicy extends Construct {
  /** The name of the singleton OperatorHub object. */
  public static readonly OPERATOR_HUB_NAME = 'cluster';

  /** The synthesized OperatorHub. */
  public readonly operatorHub: openshift.OperatorHub;

  public constructor(scope: Construct, id: string, props: OpenShiftOperatorHubPolicyProps = {}) {
    super(scope, id);
    registerDefaultCatalogOwner(this);
    // runtime input checks (JavaScript and jsii callers): problems are synth errors
    const input = new InputCheck();
    const raw = input.optionalObject('props', props, 'pass { keepEnabled: [...] } or nothing') ?? {};
    input.knownProps(raw, 'OpenShiftOperatorHubPolicyProps', 'OpenShiftOperatorHubPolicy');
    const checkedProps: OpenShiftOperatorHubPolicyProps = {
      disableAllDefaultSources: input.optionalBoolean('disableAllDefaultSources', raw.disableAllDefaultSources),
      keepEnabled: input.optionalStringArray('keepEnabled', raw.keepEnabled),
      disable: input.optionalStringArray('disable', raw.disable),
      platformOperatorSources: input.optionalStringArray('platformOperatorSources', raw.platformOperatorSources),
    };
    const disableAll = checkedProps.disableAllDefaultSources ?? true;
    const keep = [...new Set(checkedProps.keepEnabled ?? [])].sort();
    const disable = [...new Set(checkedProps.disable ?? [])].sort();
    const platformSources = [...new Set(checkedProps.platformOperatorSources ?? [OpenShiftDefaultSource.REDHAT_OPERATORS])].sort();
    const sources = [
      ...keep.map((name) => ({ name, disabled: false })),
      ...(disableAll ? [] : disable.filter((n) => !keep.includes(n)).map((name) => ({ name, disabled: true }))),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    this.operatorHub = new openshift.OperatorHub(this, 'OperatorHub', {
      metadata: { name: OpenShiftOperatorHubPolicy.OPERATOR_HUB_NAME },
      spec: {
        ...(disableAll ? { disableAllDefaultSources: true } : {}),
        ...(sources.length > 0 ? { sources } : {}),
      },
    });

    addErrorProducer(this, () => {
      const out: DiagnosticDetails[] = [...input.errors, ...defaultCatalogPolicyConflict(this, ' (the OperatorHub "cluster" singleton)',
        'keep a single OpenShiftOperatorHubPolicy per App and express every exception in it')];
      for (const n of keep.filter((x) => disable.includes(x))) {
        out.push({ code: CODE.DefaultSourceConflict, field: 'disable', value: n, message: `source ${JSON.stringify(n)} is both kept enabled and disabled`, fix: 'remove it from one of keepEnabled and disable' });
      }
      if (disableAll && disable.length > 0) {
        out.push({ code: CODE.DefaultSourceConflict, field: 'disable', message: 'disable lists sources although disableAllDefaultSources already disables all of them', fix: 'remove disable, or set disableAllDefaultSources: false for a selective policy' });
      }
      return out;
    });
    addWarningProducer(this, () => {
      const out: DiagnosticDetails[] = [];
      for (const n of [...new Set([...keep, ...disable, ...platformSources])].filter((x) => !DEFAULT_SOURCES.includes(x))) {
        out.push({ code: CODE.UnknownDefaultSource, field: 'sources', value: n, message: `${JSON.stringify(n)} is not one of the default sources (${DEFAULT_SOURCES.join(', ')}); the Marketplace operator only manages those` });
      }
      if (!disableAll && disable.length === 0) {
        out.push({ code: CODE.DefaultSourcesEnabled, message: 'the policy disables no default source: tenants could still subscribe to the global catalogs', fix: 'set disableAllDefaultSources or list sources in disable' });
      }
      const off = platformSources.filter((n) => !keep.includes(n) && (disableAll || disable.includes(n)));
      out.push(...platformSourcesTurnedOff(openshiftVersionOf(clusterTargetsOf(this)), off));
      return out;
    });
  }
}

/**
 * On OpenShift (the declared version), the default sources the platform's own operators update from that the policy
 * turns off: OLM resolves their Subscriptions' upgrades from those CatalogSources in `openshift-marketplace`, which
 * the Marketplace operator removes when the OperatorHub disables them.
 */
function platformSourcesTurnedOff(openshiftVersion: string | undefined, off: string[]): DiagnosticDetails[] {
  if (openshiftVersion === undefined) return [];
  return off.map((name) => {
    const member = Object.entries(OpenShiftDefaultSource).find(([, v]) => v === name)?.[0];
    return {
      code: CODE.PlatformOperatorSourceDisabled,
      field: 'keepEnabled',
      value: name,
      message: `the policy turns off ${name}, which the platform's own operators update from on OpenShift ${openshiftVersion} (OpenShift GitOps, `
        + 'which applies this output, OpenShift Logging, ...): they stop getting updates, cluster-wide',
      fix: `keep it enabled: keepEnabled: [${member !== undefined ? `OpenShiftDefaultSource.${member}` : JSON.stringify(name)}] (tenants are still held to `
        + 'their curated catalogs by CuratedCatalogAdmissionPolicy); if those operators update from a mirror instead, say so with platformOperatorSources: []',
    };
  });
}
