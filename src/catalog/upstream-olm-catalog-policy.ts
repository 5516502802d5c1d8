import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { CatalogSourceLocation } from './catalog-source-reference';
import { celStringList, checkDirectory, defaultCatalogPolicyConflict, registerDefaultCatalogOwner } from './private';
import { admissionPolicyApiVersion } from '../core/cluster-targets';
import { CODE } from '../core/diagnostic-codes';
import { DiagnosticDetails } from '../core/diagnostic-details';
import { addErrorProducer } from '../core/diagnostics';
import { InputCheck } from '../core/input-check';
import { KubernetesNames, NameRule } from '../core/kubernetes-names';
import { OutputWriter } from '../output/output-writer';
import { YamlWriter } from '../output/yaml-writer';

/** Properties of an `UpstreamOlmCatalogPolicy`. */
export interface UpstreamOlmCatalogPolicyProps {
  /**
   * The global CatalogSources to remove.
   * @default - [{ name: 'operatorhubio-catalog', namespace: 'olm' }] (what OLM's quickstart `olm.yaml` installs)
   */
  readonly disabledSources?: CatalogSourceLocation[];
  /**
   * Also synthesize a ValidatingAdmissionPolicy (`admissionregistration.k8s.io/v1`, Kubernetes 1.30+) that
   * rejects creating or updating those CatalogSources, so re-applying OLM's install manifests cannot bring them
   * back. It does not delete an existing one.
   * @default false
   */
  readonly denyRecreation?: boolean;
}

/**
 * Upstream OLM has no API to disable its default global catalog (`operatorhubio-catalog` in namespace `olm`,
 * created by OLM's install manifests). This construct records that policy and emits what a GitOps user can act on:
 *
 * - `artifacts()`: a kustomize patch with `$patch: delete` for each default CatalogSource (add it to the
 *   kustomization that installs OLM) and a shell script with the equivalent `kubectl delete` commands;
 * - optionally (`denyRecreation`), a ValidatingAdmissionPolicy that keeps them from coming back.
 *
 * Nothing here deletes the existing CatalogSource by itself, and nothing stops an administrator from adding
 * another global catalog in `olm` under a different name. Tenants are kept on curated content by their
 * OperatorGroup's namespace and, in-cluster, by `CuratedCatalogAdmissionPolicy`.
 */
export class UpstreamOlmCatalogPolicy extends Construct {
  /** The default CatalogSource of upstream OLM. */
  public static readonly DEFAULT_SOURCE: CatalogSourceLocation = { name: 'operatorhubio-catalog', namespace: 'olm' };

  /** The CatalogSources this policy disables, sorted. */
  public readonly disabledSources: CatalogSourceLocation[];

  public constructor(scope: Construct, id: string, props: UpstreamOlmCatalogPolicyProps = {}) {
    super(scope, id);
    registerDefaultCatalogOwner(this);
    // runtime input checks (JavaScript and jsii callers): problems are synth errors
    const input = new InputCheck();
    const raw = input.optionalObject('props', props, 'pass { disabledSources: [...] } or nothing') ?? {};
    input.knownProps(raw, 'UpstreamOlmCatalogPolicyProps', 'UpstreamOlmCatalogPolicy');
    const checkedProps: UpstreamOlmCatalogPolicyProps = {
      disabledSources: input.optionalArray('disabledSources', raw.disabledSources, (v, f) => {
        const o = input.optionalObject(f, v ?? 0, "pass { name: 'operatorhubio-catalog', namespace: 'olm' }");
        if (!o) return undefined;
        input.knownProps(o, 'CatalogSourceLocation', f, `${f}.`);
        const name = input.requiredString(`${f}.name`, o.name, 'name the CatalogSource');
        const namespace = input.requiredString(`${f}.namespace`, o.namespace, "name the CatalogSource's namespace");
        return name !== undefined && namespace !== undefined ? { name, namespace } : undefined;
      }),
      denyRecreation: input.optionalBoolean('denyRecreation', raw.denyRecreation),
    };
    this.disabledSources = [...(checkedProps.disabledSources ?? [UpstreamOlmCatalogPolicy.DEFAULT_SOURCE])].sort((a, b) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0,
    );
    if (checkedProps.denyRecreation) {
      const name = 'deny-default-catalog-sources';
      new ApiObject(this, 'Policy', {
        apiVersion: admissionPolicyApiVersion(this),
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name },
        spec: {
          failurePolicy: 'Fail',
          matchConstraints: {
            resourceRules: [{ apiGroups: ['operators.coreos.com'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['catalogsources'] }],
          },
          validations: [
            {
              expression: `!((object.metadata.namespace + '/' + object.metadata.name) in ${celStringList(this.disabledSources.map(key))})`,
              message: 'this default global catalog is disabled by the platform; use the curated catalog in your namespace',
              reason: 'Forbidden',
            },
          ],
        },
      });
      new ApiObject(this, 'Binding', {
        apiVersion: admissionPolicyApiVersion(this),
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name },
        spec: { policyName: name, validationActions: ['Deny'] },
      });
    }
    addErrorProducer(this, () => {
      const out: DiagnosticDetails[] = [...input.errors, ...defaultCatalogPolicyConflict(this, '', 'keep a single default-catalog policy per App')];
      out.push(...this.nameProblems());
      if (this.disabledSources.length === 0) {
        out.push({ code: CODE.DefaultCatalogPolicyEmpty, field: 'disabledSources', message: 'no CatalogSource to disable', fix: 'omit disabledSources for the OLM default' });
      }
      return out;
    });
  }

  /**
   * Files for the GitOps repository, beside the manifests: `disable-default-catalogs.patch.yaml` (kustomize
   * `$patch: delete` documents) and `disable-default-catalogs.sh` (`kubectl delete` commands).
   */
  public artifacts(): { [file: string]: string } {
    // The names go into a shell script: never write one from names Kubernetes would not accept.
    const bad = this.nameProblems();
    if (bad.length > 0) {
      throw new Error(`${this.node.path}: cannot write the artifacts: ${bad.map((d) => `${d.field}=${JSON.stringify(d.value)}: ${d.message}`).join('; ')}`);
    }
    const patch = this.disabledSources
      .map((s) => `---\n${YamlWriter.document({ $patch: 'delete', apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name: s.name, namespace: s.namespace } })}`)
      .join('');
    const script = [
      '#!/bin/sh',
      '# Removes the default global catalogs of upstream OLM (no OLM API can disable them).',
      'set -eu',
      ...this.disabledSources.map((s) => `kubectl delete catalogsource.operators.coreos.com ${s.name} --namespace ${s.namespace} --ignore-not-found`),
      '',
    ].join('\n');
    return {
      'disable-default-catalogs.patch.yaml': '# Add to the patches of the kustomization that installs OLM.\n' + patch,
      'disable-default-catalogs.sh': script,
    };
  }

  private nameProblems(): DiagnosticDetails[] {
    const out: DiagnosticDetails[] = [];
    for (const source of this.disabledSources) {
      const name = KubernetesNames.problem(source.name, NameRule.DNS1123_SUBDOMAIN);
      if (name) out.push({ code: CODE.InvalidName, field: 'disabledSources.name', value: source.name, message: `CatalogSource name ${name}`, fix: 'use the metadata.name of the CatalogSource' });
      const ns = KubernetesNames.problem(source.namespace, NameRule.DNS1123_LABEL);
      if (ns) out.push({ code: CODE.InvalidName, field: 'disabledSources.namespace', value: source.namespace, message: `namespace ${ns}`, fix: 'use the metadata.namespace of the CatalogSource' });
    }
    return out;
  }

  /** Writes `artifacts()` into `directory` (created if needed); returns the written paths, sorted. */
  public writeArtifacts(directory: string): string[] {
    checkDirectory(`[${this.node.path}] writeArtifacts`, directory);
    const files = this.artifacts();
    // through a temporary file and a rename each, never through a link (`OutputWriter`)
    const out = new OutputWriter(directory);
    return Object.keys(files)
      .sort()
      .map((f) => out.write(f, files[f]));
  }
}

function key(s: CatalogSourceLocation): string {
  return `${s.namespace}/${s.name}`;
}
