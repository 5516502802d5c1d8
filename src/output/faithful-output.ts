/**
 * Internal: on a plain cdk8s `App` the manifests are written by cdk8s's `Yaml.stringify`, which this library cannot
 * change, and which writes some strings so that Kubernetes' reader (go-yaml v2) reads another value or refuses the
 * whole file (see go-yaml.ts). The library's constructs refuse such strings in their own objects at synth, with a fix
 * that names `TenancyApp` (whose writer, `YamlWriter`, writes them faithfully). In a `TenancyApp` nothing is checked
 * here (the writer refuses only lone surrogates, naming the construct).
 */
import { ApiObject, App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { cdk8sWritesUnfaithfully, fieldPath, writesFaithfully } from './yaml-writer';
import { AppContext, AppSlot } from '../core/app-context';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer } from '../core/diagnostics';
import { L1Json } from '../core/l1-json';

interface PlainAppOutput {
  /** The constructs that check their ApiObjects (`refuseUnfaithfulOutputOnPlainApps`). */
  readonly guarded: Set<IConstruct>;
  /** The App's `synth` and `synthYaml` set `running` (`wrapSynth`). */
  wrapped: boolean;
  /**
   * A token per running `synth()` / `synthYaml()` of a plain App: cdk8s validates the whole App once, then again for
   * every chart (`App._synthChart`), and nothing changes the constructs in between, so each construct's finding
   * list is computed once per call (the check serializes every object: once per chart would be quadratic).
   */
  running?: object;
}

/** What the check of a plain App's output registered in the App. */
const PLAIN_APP_OUTPUT = new AppSlot('plainAppOutput', (): PlainAppOutput => ({ guarded: new Set(), wrapped: false }));

/** Each guarded construct's findings in the running synth (`token`): nothing changes the constructs during one. */
const FINDINGS_CACHE = new WeakMap<IConstruct, { token: object; found: DiagnosticDetails[] }>();

function wrapSynth(app: App, state: PlainAppOutput): void {
  if (state.wrapped) return;
  state.wrapped = true;
  for (const method of ['synth', 'synthYaml'] as const) {
    const original = (app as any)[method];
    if (typeof original !== 'function') continue;
    (app as any)[method] = function (this: App, ...args: unknown[]) {
      if (state.running !== undefined) return original.apply(this, args);
      state.running = {};
      try {
        return original.apply(this, args);
      } finally {
        state.running = undefined;
      }
    };
  }
}

/** Most findings listed per construct (the rest is counted). */
const MAX_FINDINGS = 20;

/** Registers the check on `scope`: the ApiObjects below it (not below another guarded construct). */
export function refuseUnfaithfulOutputOnPlainApps(scope: IConstruct): void {
  const state = AppContext.of(scope).get(PLAIN_APP_OUTPUT);
  if (state.guarded.has(scope)) return;
  state.guarded.add(scope);
  const root = scope.node.root;
  if (root instanceof App && !writesFaithfully(root)) wrapSynth(root, state);
  addErrorProducer(scope, () => {
    if (writesFaithfully(root)) return [];
    const token = state.running;
    const known = FINDINGS_CACHE.get(scope);
    if (token !== undefined && known?.token === token) return known.found;
    const found = findings(scope, state.guarded);
    if (token !== undefined) FINDINGS_CACHE.set(scope, { token, found });
    return found;
  });
}

function findings(scope: IConstruct, guarded: ReadonlySet<IConstruct>): DiagnosticDetails[] {
  const out: DiagnosticDetails[] = [];
  let more = 0;
  for (const obj of ownObjects(scope, guarded)) {
    const json = L1Json.of(obj);
    walk(json, '', (field, value) => {
      if (out.length >= MAX_FINDINGS) {
        more++;
        return;
      }
      out.push({
        code: CODE.UnfaithfulYamlOutput,
        field: `${obj.kind} ${json?.metadata?.namespace ? `${json.metadata.namespace}/` : ''}${json?.metadata?.name ?? ''} ${field}`,
        value,
        message: 'cdk8s\'s YAML writer (Yaml.stringify: the yaml package, YAML 1.2 characters) writes this string so that Kubernetes\' reader (kubectl, Argo CD, Flux: '
          + 'go-yaml v2, YAML 1.1) reads another value (a YAML 1.1 number, boolean, null, timestamp or merge key; a line break '
          + 'U+0085/U+2028/U+2029) or refuses the whole file (DEL, C1 controls, U+FFFE, lone surrogates)',
        fix: 'synthesize with TenancyApp (a drop-in for App whose writer quotes and escapes such strings), or change the value',
      });
    });
  }
  if (more > 0) {
    out.push({ code: CODE.UnfaithfulYamlOutput, message: `${more} more string(s) cdk8s would write unfaithfully are not listed`, fix: 'synthesize with TenancyApp' });
  }
  return out;
}

function ownObjects(scope: IConstruct, guarded: ReadonlySet<IConstruct>): ApiObject[] {
  const out: ApiObject[] = [];
  const visit = (c: IConstruct) => {
    if (c !== scope && guarded.has(c)) return;
    if (c instanceof ApiObject) out.push(c);
    for (const child of c.node.children) visit(child);
  };
  visit(scope);
  return out;
}

function walk(v: unknown, at: string, found: (field: string, value: string) => void): void {
  if (typeof v === 'string') {
    if (cdk8sWritesUnfaithfully(v)) found(at, v);
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    v.forEach((x, i) => walk(x, `${at}[${i}]`, found));
    return;
  }
  for (const k of Object.keys(v)) {
    const field = fieldPath(at, k);
    if (cdk8sWritesUnfaithfully(k)) found(`${field} (key)`, k);
    walk((v as any)[k], field, found);
  }
}
