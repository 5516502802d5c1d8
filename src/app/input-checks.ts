// Runtime checks of TenancyApp's props (see src/core/input-check.ts); internal, not re-exported. JavaScript and jsii callers
// can pass anything: the construct records synth errors. The output options' checks live in src/output/input-checks.ts.
import { AppProps, YamlOutputType } from 'cdk8s';
import { OutputLayout, SynthErrorFormat, TenancyAppProps } from './tenancy-app-props';
import { ClusterTargets, DEFAULT_TARGETS, ResolvedTargets } from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { GitOpsIdentityNames } from '../core/gitops-identities';
import { GoDuration } from '../core/go-duration';
import { describeValue, InputCheck, INPUT_CODES, prop, valueText } from '../core/input-check';
import { PolicyChecks } from '../core/policy-checks';
import { checkArgoCdOptions, checkFluxOptions } from '../output/input-checks';

/** The props of `TenancyApp` (cdk8s `AppProps` included), checked: wrong values are errors and left out. */
export function checkTenancyAppProps(check: InputCheck, raw: unknown, outputLayout: { [key: string]: OutputLayout }): TenancyAppProps {
  const o = check.optionalObject('props', raw, 'pass { layout?, syncWaves?, report?, quiet?, outdir?, ... }');
  if (!o) return {};
  check.knownProps(o, 'TenancyAppProps', 'TenancyApp');
  const p = (k: string) => prop(o, k);
  const resolvers = p('resolvers');
  const checkedResolvers = check.optionalArray('resolvers', resolvers, (v, f) => check.optionalImplementation(f, v ?? 0, 'IResolver', ['resolve'],
    'pass objects with a resolve(context) method (cdk8s IResolver)'));
  const app: AppProps = {
    outdir: check.optionalString('outdir', p('outdir'), { fix: "pass outdir as a directory path, e.g. 'dist'" }),
    outputFileExtension: check.optionalString('outputFileExtension', p('outputFileExtension'), { fix: "pass outputFileExtension as e.g. '.k8s.yaml'" }),
    yamlOutputType: checkYamlOutputType(check, p('yamlOutputType')),
    recordConstructMetadata: check.optionalBoolean('recordConstructMetadata', p('recordConstructMetadata')),
    resolvers: checkedResolvers as any,
  };
  return {
    // props this check does not know pass through unchanged
    ...(o as object),
    ...app,
    layout: check.optionalEnum('layout', p('layout'), outputLayout, 'OutputLayout'),
    syncWaves: check.optionalBoolean('syncWaves', p('syncWaves')),
    report: check.optionalBoolean('report', p('report')),
    quiet: check.optionalBoolean('quiet', p('quiet')),
    argoCdHealthChecks: check.optionalBoolean('argoCdHealthChecks', p('argoCdHealthChecks')),
    flux: checkFluxOptions(check, 'flux', p('flux')),
    argoCd: checkArgoCdOptions(check, 'argoCd', p('argoCd')),
    errorFormat: check.optionalEnum('errorFormat', p('errorFormat'), SynthErrorFormat as any, 'SynthErrorFormat'),
    outputLockWait: checkLockWait(check, p('outputLockWait')),
    targets: p('targets') === undefined ? undefined : (check.optionalObject('targets', p('targets'), 'pass { kubernetesVersion?, olmVersion?, operatorControllerVersion?, openshiftVersion? }') as ClusterTargets | undefined),
    neverAcceptable: checkNeverAcceptable(check, p('neverAcceptable')),
  };
}

/** `neverAcceptable`: policy ids (`PolicyChecks`); an unknown id is an error and left out. */
function checkNeverAcceptable(check: InputCheck, raw: unknown): string[] | undefined {
  const ids = check.optionalStringArray('neverAcceptable', raw, "list policy ids, e.g. ['OLMT-026']");
  return ids?.filter((id, i) => {
    if (PolicyChecks.byId(id) !== undefined) return true;
    check.add({ code: CODE.UnknownPolicyCheck, field: `neverAcceptable[${i}]`, value: id, message: `'${id}' is not a policy check id`, fix: "use ids of PolicyChecks.all(), e.g. 'OLMT-026'" });
    return false;
  });
}

/** One field of `ClusterTargets`: its pattern (after an optional leading `v`), an example and the version it reads. */
const TARGET_FIELDS: Array<{ key: keyof ClusterTargets; pattern: RegExp; example: string; what: string }> = [
  { key: 'kubernetesVersion', pattern: /^1\.(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,3}))?$/, example: "'1.30'", what: 'the Kubernetes minor version' },
  { key: 'olmVersion', pattern: /^0\.(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/, example: "'0.28.0'", what: 'the OLM v0 release (0.<minor>.<patch>)' },
  {
    key: 'operatorControllerVersion',
    pattern: /^([1-9]\d{0,2}\.(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})|main)$/,
    example: "'1.10.0' (or 'main')",
    what: "the operator-controller release (1.<minor>.<patch>) or 'main'",
  },
  { key: 'openshiftVersion', pattern: /^[45]\.(0|[1-9]\d{0,2})$/, example: "'4.16'", what: 'the OpenShift minor version (4.<minor> or 5.<minor>)' },
];

/**
 * `TenancyAppProps.targets`, checked and resolved: wrong values are errors (field, value, fix) and fall back to the
 * defaults; OpenShift 4.x implies Kubernetes 1.(x+13) when `kubernetesVersion` is not set, and a different one is
 * an error.
 */
export function resolveClusterTargets(check: InputCheck, raw: ClusterTargets | undefined): ResolvedTargets {
  if (raw === undefined) return DEFAULT_TARGETS;
  check.knownProps(raw, 'ClusterTargets', 'TenancyApp', 'targets.');
  const parsed: { [k: string]: string | undefined } = {};
  for (const f of TARGET_FIELDS) {
    const field = `targets.${f.key}`;
    const value = check.optionalString(field, prop(raw, f.key), { fix: `pass ${f.key} as a string, e.g. ${f.example}` });
    if (value === undefined) continue;
    const bare = value.startsWith('v') ? value.slice(1) : value;
    if (!f.pattern.test(bare)) {
      check.add({
        code: INPUT_CODES.value,
        field,
        value,
        message: `${f.key} must be ${f.what}, got '${value}'`,
        fix: `write it as e.g. ${f.example}`,
      });
      continue;
    }
    parsed[f.key] = bare;
  }
  const openshiftMinor = parsed.openshiftVersion !== undefined ? Number(parsed.openshiftVersion.split('.')[1]) : undefined;
  const openshiftMajor = parsed.openshiftVersion !== undefined ? Number(parsed.openshiftVersion.split('.')[0]) : undefined;
  let kubernetesMinor = parsed.kubernetesVersion !== undefined ? Number(parsed.kubernetesVersion.split('.')[1]) : undefined;
  if (openshiftMajor !== undefined && openshiftMajor > 4) {
    // the Kubernetes release of OpenShift 5.x is not modelled: it must be declared
    if (kubernetesMinor === undefined) {
      check.add({
        code: INPUT_CODES.value,
        field: 'targets.openshiftVersion',
        value: parsed.openshiftVersion,
        message: `the Kubernetes release OpenShift ${parsed.openshiftVersion} runs is not modelled (4.x runs 1.(x+13)), so the admission policies' API version cannot be chosen`,
        fix: 'declare it beside openshiftVersion: kubernetesVersion: \'1.<minor>\' (as \'oc version\' prints it)',
      });
    }
  } else if (openshiftMinor !== undefined) {
    // OpenShift 4.x is built on Kubernetes 1.(x+13): 4.16 on 1.29, 4.17 on 1.30 (OpenShift release notes)
    const shipped = openshiftMinor + 13;
    if (kubernetesMinor !== undefined && kubernetesMinor !== shipped) {
      check.add({
        code: INPUT_CODES.value,
        field: 'targets.kubernetesVersion',
        value: parsed.kubernetesVersion,
        message: `OpenShift 4.${openshiftMinor} runs Kubernetes 1.${shipped}, not ${parsed.kubernetesVersion}`,
        fix: `set kubernetesVersion to '1.${shipped}', or leave it out (it follows openshiftVersion)`,
      });
    }
    kubernetesMinor = shipped;
  }
  const declared = TARGET_FIELDS.map((f) => f.key).filter((k) => parsed[k] !== undefined);
  return {
    kubernetesMinor: kubernetesMinor ?? DEFAULT_TARGETS.kubernetesMinor,
    olmVersion: parsed.olmVersion ?? DEFAULT_TARGETS.olmVersion,
    ...(parsed.operatorControllerVersion !== undefined ? { operatorControllerVersion: parsed.operatorControllerVersion } : {}),
    ...(openshiftMinor !== undefined ? { openshiftMinor, openshiftMajor } : {}),
    declared,
  };
}

/** cdk8s's `YamlOutputType` is a numeric enum (`optionalEnum` takes string enums). */
function checkYamlOutputType(check: InputCheck, value: unknown): YamlOutputType | undefined {
  if (value === undefined || value === null) return undefined;
  const entries = Object.entries(YamlOutputType).filter(([, v]) => typeof v === 'number') as Array<[string, number]>;
  if (typeof value === 'number' && entries.some(([, v]) => v === value)) return value as YamlOutputType;
  check.add({
    code: INPUT_CODES.enumValue,
    field: 'yamlOutputType',
    value: valueText(value),
    message: `yamlOutputType must be one of ${entries.map(([, v]) => v).join(', ')}, got ${describeValue(value)}`,
    fix: `use ${entries.map(([k]) => `YamlOutputType.${k}`).join(' or ')}`,
  });
  return undefined;
}

/** `outputLockWait`: a Go duration, not negative. */
function checkLockWait(check: InputCheck, value: unknown): string | undefined {
  const text = check.optionalString('outputLockWait', value, { fix: "pass outputLockWait as a Go duration, e.g. '5m' (or '0s' to refuse at once)" });
  if (text === undefined) return undefined;
  const problem = GoDuration.problem(text);
  if (problem === undefined && !text.trim().startsWith('-')) return text;
  check.add({
    code: INPUT_CODES.value,
    field: 'outputLockWait',
    value: text,
    message: `outputLockWait must be a Go duration of at least 0s: ${problem ?? 'it is negative'}`,
    fix: "write it as e.g. '5m', '90s' or '0s' (refuse at once)",
  });
  return undefined;
}

/**
 * The GitOps identities of the App's props: on with `argoCd`, and with `flux` unless `flux.tenantIdentities` is false
 * (then `flux.url` is required: each tenant's Kustomization reads a source in its own namespace); errors for what is
 * missing or contradicts.
 */
export function gitOpsIdentityNames(check: InputCheck, props: TenancyAppProps): GitOpsIdentityNames | undefined {
  if (props.layout !== OutputLayout.GITOPS) return undefined;
  const flux = props.flux !== undefined && props.flux.tenantIdentities !== false ? props.flux : undefined;
  const argo = props.argoCd;
  if (flux === undefined && argo === undefined) return undefined;
  if (flux !== undefined && flux.url === undefined) {
    check.add({
      code: INPUT_CODES.missing,
      field: 'flux.url',
      message: 'flux.url is required: each tenant\'s folder applies as the tenant\'s ServiceAccount, from a source in the tenant\'s namespace '
        + '(Flux\'s --no-cross-namespace-refs), which needs the URL of the repository that holds the output',
      fix: "set flux.url to the repository URL, e.g. 'https://git.example.com/platform/tenancy.git' (or flux.tenantIdentities: false to apply every folder as Flux's own identity)",
    });
  }
  if (flux?.serviceAccountName !== undefined && argo?.serviceAccountName !== undefined && flux.serviceAccountName !== argo.serviceAccountName) {
    check.add({
      code: INPUT_CODES.value,
      field: 'argoCd.serviceAccountName',
      value: argo.serviceAccountName,
      message: `argoCd.serviceAccountName must be the tenant applier flux.serviceAccountName names (${flux.serviceAccountName}): one identity applies a tenant's folder`,
      fix: 'give both the same name, or set only one',
    });
  }
  const applier = flux?.serviceAccountName ?? argo?.serviceAccountName ?? 'tenancy-applier';
  const platform = [
    ...(flux ? [`ServiceAccount ${flux.namespace ?? 'flux-system'}/${flux.platformServiceAccountName ?? 'kustomize-controller'}`] : []),
    ...(argo ? [`ServiceAccount ${argo.namespace ?? 'argocd'}/${argo.platformServiceAccountName ?? 'argocd-application-controller'}`] : []),
  ].join(' (Flux), ').replace(/$/, flux && argo ? ' (Argo CD)' : '');
  return { applier, selfService: `${applier}-self-service`, platform };
}
