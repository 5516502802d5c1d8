/**
 * Internal: the metadata the library gives the L1 objects it creates. Not re-exported from the package.
 *
 * cdk8s renders an object's metadata as `{ ...given, name, namespace, annotations, finalizers, ownerReferences,
 * labels }` (`ApiObjectMetadataDefinition.toJson`). On Node 20's V8 every key that spread adds to the given object
 * makes new hidden classes, allocated in the old generation, on every render: ~0.5 KB per object per synthesis,
 * ~20 MB at 5,000 tenants (docs/scale.md, Memory). Metadata that already has every key cdk8s sets renders without
 * them. Empty maps and lists render as nothing (cdk8s drops them), so the output is the same.
 */
export interface L1MetadataInput {
  readonly name?: string;
  readonly namespace?: string;
  readonly labels?: { [key: string]: string };
  readonly annotations?: { [key: string]: string };
}

/** The L1 metadata of `m`: its name, namespace, labels and annotations, and empty finalizers and ownerReferences. */
export function l1Metadata(m: L1MetadataInput): {
  name?: string;
  namespace?: string;
  labels: { [key: string]: string };
  annotations: { [key: string]: string };
  finalizers: string[];
  ownerReferences: never[];
} {
  // one literal, every key in one order: one hidden class for all of them
  return {
    name: m.name,
    namespace: m.namespace,
    labels: m.labels ?? {},
    annotations: m.annotations ?? {},
    finalizers: [],
    ownerReferences: [],
  };
}
