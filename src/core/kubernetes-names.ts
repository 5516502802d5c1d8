/**
 * Kubernetes name rules, as enforced by the API server (k8s.io/apimachinery/pkg/util/validation).
 * Checked at synth time so a bad name fails here, not on the cluster.
 */

const DNS1123_LABEL_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Which name rule a kind's `metadata.name` follows. */
export enum NameRule {
  /** RFC 1123 label: at most 63 lower-case alphanumerics or '-', alphanumeric at both ends (Namespace, Service). */
  DNS1123_LABEL = 'DNS1123_LABEL',
  /** RFC 1123 subdomain: at most 253 characters, dot-separated labels (most kinds). */
  DNS1123_SUBDOMAIN = 'DNS1123_SUBDOMAIN',
  /**
   * Path segment name: anything but '.', '..', or names containing '/' or '%'
   * (Roles, ClusterRoles and their bindings: `path.ValidatePathSegmentName`).
   */
  PATH_SEGMENT = 'PATH_SEGMENT',
}

/** Validation of user-supplied Kubernetes names. */
export class KubernetesNames {
  /**
   * Returns why `name` is not valid under `rule`, or undefined when it is valid.
   * The text is a sentence fragment meant to follow "name 'x' is invalid: ".
   */
  public static problem(name: string, rule: NameRule): string | undefined {
    // JavaScript and jsii callers can pass anything: a non-string is a problem, not a TypeError
    if (typeof name !== 'string') return `must be a string, got ${name === null ? 'null' : typeof name}`;
    switch (rule) {
      case NameRule.DNS1123_LABEL:
        if (name.length === 0) return 'must not be empty';
        if (name.length > 63) return `must be no more than 63 characters (has ${name.length})`;
        if (!DNS1123_LABEL_PATTERN.test(name)) {
          return "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (RFC 1123 label)";
        }
        return undefined;
      case NameRule.DNS1123_SUBDOMAIN:
        if (name.length === 0) return 'must not be empty';
        if (name.length > 253) return `must be no more than 253 characters (has ${name.length})`;
        if (!DNS1123_SUBDOMAIN_PATTERN.test(name)) {
          return "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (RFC 1123 subdomain)";
        }
        return undefined;
      case NameRule.PATH_SEGMENT:
        if (name.length === 0) return 'must not be empty';
        if (name === '.' || name === '..') return `may not be '${name}'`;
        if (name.includes('/') || name.includes('%')) return "may not contain '/' or '%'";
        return undefined;
    }
  }

  /** True when `name` is a valid RFC 1123 label. */
  public static isDns1123Label(name: string): boolean {
    return KubernetesNames.problem(name, NameRule.DNS1123_LABEL) === undefined;
  }

  /** True when `name` is a valid RFC 1123 subdomain. */
  public static isDns1123Subdomain(name: string): boolean {
    return KubernetesNames.problem(name, NameRule.DNS1123_SUBDOMAIN) === undefined;
  }

  private constructor() {}
}
