/**
 * The ObjectMeta rules the Kubernetes API server applies to every object, ported for offline checks of synthesized
 * manifests. Sources (kubernetes/kubernetes, staging/src/k8s.io/apimachinery):
 * - pkg/api/validate/content/kube.go: IsLabelKey (= IsQualifiedName) and IsLabelValue;
 * - pkg/util/validation/validation.go: IsDNS1035Label (Service names);
 * - pkg/api/validation/objectmeta.go: ValidateAnnotations (keys lower-cased, total size 256 KiB), finalizer names.
 * - pkg/util/validation/validation.go IsDNS1123Label, IsDNS1123Subdomain and pkg/api/validation/path
 *   IsValidPathSegmentName: the name rules, written here again rather than taken from the library's
 *   `KubernetesNames` (issue 41: a check that asks the code under test judges nothing).
 * Lengths are in bytes, as Go's len() counts them.
 */

const LABEL_KEY_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1035_LABEL_PATTERN = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_LABEL_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_KEY_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** Name rules a kind can have: RFC 1123 labels and subdomains, path segments, and RFC 1035 labels (Services). */
export enum TestNameRule {
  DNS1123_LABEL = 'DNS1123_LABEL',
  DNS1123_SUBDOMAIN = 'DNS1123_SUBDOMAIN',
  PATH_SEGMENT = 'PATH_SEGMENT',
  /** `IsDNS1035Label`: like an RFC 1123 label but must start with a letter (`ValidateServiceName`). */
  DNS1035_LABEL = 'DNS1035_LABEL',
}

/** Size limit of all annotations of one object: `TotalAnnotationSizeLimitB` in objectmeta.go. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Kubernetes value-syntax checks; each returns the problems found (empty when valid), like the Go functions. */
export class KubernetesValidation {
  /** `IsQualifiedName` / `IsLabelKey`: optional DNS-1123 subdomain prefix and '/', then a name of at most 63 bytes. */
  public static qualifiedNameProblems(value: string): string[] {
    const errs: string[] = [];
    const parts = value.split('/');
    let name: string;
    if (parts.length === 1) {
      name = parts[0];
    } else if (parts.length === 2) {
      const prefix = parts[0];
      name = parts[1];
      if (prefix.length === 0) {
        errs.push('prefix part must be non-empty');
      } else {
        const p = KubernetesValidation.nameProblem(prefix, TestNameRule.DNS1123_SUBDOMAIN);
        if (p) errs.push(`prefix part ${p}`);
      }
    } else {
      return [`a qualified name ${LABEL_KEY_ERR}, with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
    }
    if (name.length === 0) {
      errs.push('name part must be non-empty');
    } else if (byteLength(name) > 63) {
      errs.push('name part must be no more than 63 bytes');
    }
    if (!LABEL_KEY_NAME.test(name)) {
      errs.push(`name part ${LABEL_KEY_ERR}`);
    }
    return errs;
  }

  /** `IsValidLabelValue` / `IsLabelValue`: empty, or at most 63 bytes of the label-name characters. */
  public static labelValueProblems(value: string): string[] {
    const errs: string[] = [];
    if (byteLength(value) > 63) errs.push('must be no more than 63 bytes');
    if (!LABEL_VALUE.test(value)) {
      errs.push(`a valid label must be an empty string or ${LABEL_KEY_ERR}`);
    }
    return errs;
  }

  /** Why `name` breaks `rule`, or undefined (the messages of the Go functions). */
  public static nameProblem(name: string, rule: TestNameRule): string | undefined {
    if (typeof name !== 'string') return `must be a string, got ${name === null ? 'null' : typeof name}`;
    switch (rule) {
      case TestNameRule.DNS1035_LABEL:
        if (name.length === 0) return 'must not be empty';
        if (name.length > 63) return `must be no more than 63 characters (has ${name.length})`;
        if (!DNS1035_LABEL_PATTERN.test(name)) {
          return "must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (RFC 1035 label)";
        }
        return undefined;
      case TestNameRule.DNS1123_LABEL:
        if (name.length === 0) return 'must not be empty';
        if (name.length > 63) return `must be no more than 63 characters (has ${name.length})`;
        if (!DNS1123_LABEL_PATTERN.test(name)) {
          return "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (RFC 1123 label)";
        }
        return undefined;
      case TestNameRule.DNS1123_SUBDOMAIN:
        if (name.length === 0) return 'must not be empty';
        if (name.length > 253) return `must be no more than 253 characters (has ${name.length})`;
        if (!DNS1123_SUBDOMAIN_PATTERN.test(name)) {
          return "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (RFC 1123 subdomain)";
        }
        return undefined;
      case TestNameRule.PATH_SEGMENT:
        if (name.length === 0) return 'must not be empty';
        if (name === '.' || name === '..') return `may not be '${name}'`;
        if (name.includes('/') || name.includes('%')) return "may not contain '/' or '%'";
        return undefined;
    }
  }

  /** Total annotation size as `ValidateAnnotationsSize` counts it: the sum of key and value lengths in bytes. */
  public static annotationsSize(annotations: Record<string, unknown>): number {
    let total = 0;
    for (const [k, v] of Object.entries(annotations)) {
      total += byteLength(k) + (typeof v === 'string' ? byteLength(v) : 0);
    }
    return total;
  }

  private constructor() {}
}
