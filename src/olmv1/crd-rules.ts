/**
 * What the OLM v1 CRDs (operator-controller v1.11.0, standard, `crds/olm-v1`) refuse in the fields this library
 * writes: their `x-kubernetes-validations` CEL rules, ported to JavaScript one by one with the rule text kept
 * (test/olmv1/crd-rules.test.ts checks each text equals the CRD's and evaluates the CRD's own rules with @bufbuild/cel
 * over generated values, against `holds`), and their OpenAPI limits (maxLength, maxItems). CEL's `matches` and the
 * Kubernetes regex library's `find` are RE2 searches (unanchored); these patterns read the same in JavaScript.
 * Not exported from the package.
 */

/** One CRD rule on a field. */
export interface CrdRule {
  /** The field, as the CRD nests it, e.g. `spec.source.image.ref`. */
  readonly path: string;
  /** The CEL rule exactly as the CRD writes it (`x-kubernetes-validations[].rule`), or the OpenAPI limit. */
  readonly rule: string;
  /** The CRD's message. */
  readonly message: string;
  /** Whether the value passes. */
  readonly holds: (self: any) => boolean;
}

/** CEL `s.find(re)` (k8s.io/apiserver/pkg/cel/library/regex.go): the first match, or ''. */
function find(s: string, re: string): string {
  return new RegExp(re).exec(s)?.[0] ?? '';
}
/** CEL `s.matches(re)`: an RE2 search. */
function matches(s: string, re: string): boolean {
  return new RegExp(re).test(s);
}
/** CEL `substring(1).size()`: code points. */
function size(s: string): number {
  return [...s].length;
}

const DNS1123_SUBDOMAIN_RULE = 'self.matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")';
const DNS1123_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const maxLength = (path: string, n: number): CrdRule => ({
  path, rule: `maxLength: ${n}`, message: `may not be longer than ${n} characters`, holds: (s: string) => size(s) <= n,
});

/** `ClusterCatalog.spec.source.image.ref` (catalogd `api/v1/clustercatalog_types.go` ImageSource.Ref). */
export const CLUSTER_CATALOG_IMAGE_REF_RULES: CrdRule[] = [
  maxLength('spec.source.image.ref', 1000),
  {
    path: 'spec.source.image.ref',
    rule: "self.matches('^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])((\\\\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+)?(:[0-9]+)?\\\\b')",
    message: 'must start with a valid domain. valid domains must be alphanumeric characters (lowercase and uppercase) separated by the "." character.',
    holds: (s) => matches(s, '^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])((\\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+)?(:[0-9]+)?\\b'),
  },
  {
    path: 'spec.source.image.ref',
    rule: "self.find('(\\\\/[a-z0-9]+((([._]|__|[-]*)[a-z0-9]+)+)?((\\\\/[a-z0-9]+((([._]|__|[-]*)[a-z0-9]+)+)?)+)?)') != \"\"",
    message: 'a valid name is required. valid names must contain lowercase alphanumeric characters separated only by the ".", "_", "__", "-" characters.',
    holds: (s) => find(s, '(\\/[a-z0-9]+((([._]|__|[-]*)[a-z0-9]+)+)?((\\/[a-z0-9]+((([._]|__|[-]*)[a-z0-9]+)+)?)+)?)') !== '',
  },
  {
    path: 'spec.source.image.ref',
    rule: "self.find('(@.*:)') != \"\" || self.find(':.*$') != \"\"",
    message: 'must end with a digest or a tag',
    holds: (s) => find(s, '(@.*:)') !== '' || find(s, ':.*$') !== '',
  },
  {
    path: 'spec.source.image.ref',
    rule: "self.find('(@.*:)') == \"\" ? (self.find(':.*$') != \"\" ? self.find(':.*$').substring(1).size() <= 127 : true) : true",
    message: 'tag is invalid. the tag must not be more than 127 characters',
    holds: (s) => find(s, '(@.*:)') !== '' || find(s, ':.*$') === '' || size(find(s, ':.*$')) - 1 <= 127,
  },
  {
    path: 'spec.source.image.ref',
    rule: "self.find('(@.*:)') == \"\" ? (self.find(':.*$') != \"\" ? self.find(':.*$').matches(':[\\\\w][\\\\w.-]*$') : true) : true",
    message: 'tag is invalid. valid tags must begin with a word character (alphanumeric + "_") followed by word characters or ".", and "-" characters',
    holds: (s) => find(s, '(@.*:)') !== '' || find(s, ':.*$') === '' || matches(find(s, ':.*$'), ':[\\w][\\w.-]*$'),
  },
  {
    path: 'spec.source.image.ref',
    rule: "self.find('(@.*:)') != \"\" ? self.find('(@.*:)').matches('(@[A-Za-z][A-Za-z0-9]*([-_+.][A-Za-z][A-Za-z0-9]*)*[:])') : true",
    message: 'digest algorithm is not valid. valid algorithms must start with an uppercase or lowercase alpha character followed by alphanumeric characters and may contain the "-", "_", "+", and "." characters.',
    holds: (s) => find(s, '(@.*:)') === '' || matches(find(s, '(@.*:)'), '(@[A-Za-z][A-Za-z0-9]*([-_+.][A-Za-z][A-Za-z0-9]*)*[:])'),
  },
  {
    path: 'spec.source.image.ref',
    rule: "self.find('(@.*:)') != \"\" ? self.find(':.*$').substring(1).size() >= 32 : true",
    message: 'digest is not valid. the encoded string must be at least 32 characters',
    holds: (s) => find(s, '(@.*:)') === '' || size(find(s, ':.*$')) - 1 >= 32,
  },
  {
    path: 'spec.source.image.ref',
    rule: "self.find('(@.*:)') != \"\" ? self.find(':.*$').matches(':[0-9A-Fa-f]*$') : true",
    message: 'digest is not valid. the encoded string must only contain hex characters (A-F, a-f, 0-9)',
    holds: (s) => find(s, '(@.*:)') === '' || matches(find(s, ':.*$'), ':[0-9A-Fa-f]*$'),
  },
];

/** `ClusterExtension.spec.source.catalog.packageName` (operator-controller `api/v1/clusterextension_types.go`). */
export const CLUSTER_EXTENSION_PACKAGE_NAME_RULES: CrdRule[] = [
  maxLength('spec.source.catalog.packageName', 253),
  {
    path: 'spec.source.catalog.packageName',
    rule: DNS1123_SUBDOMAIN_RULE,
    message: 'packageName must be a valid DNS1123 subdomain. It must contain only lowercase alphanumeric characters, hyphens (-) or periods (.), start and end with an alphanumeric character, and be no longer than 253 characters',
    holds: (s) => matches(s, DNS1123_SUBDOMAIN),
  },
];

/** Each `ClusterExtension.spec.source.catalog.channels[]` entry; the list has `maxItems: 256`. */
export const CLUSTER_EXTENSION_CHANNEL_RULES: CrdRule[] = [
  maxLength('spec.source.catalog.channels[]', 253),
  {
    path: 'spec.source.catalog.channels[]',
    rule: DNS1123_SUBDOMAIN_RULE,
    message: 'channels entries must be valid DNS1123 subdomains',
    holds: (s) => matches(s, DNS1123_SUBDOMAIN),
  },
];
/** `maxItems` of `spec.source.catalog.channels`. */
export const CLUSTER_EXTENSION_MAX_CHANNELS = 256;

const VERSION_PATTERN = '^(\\s*(=||!=|>|<|>=|=>|<=|=<|~|~>|\\^)\\s*(v?(0|[1-9]\\d*|[x|X|\\*])(\\.(0|[1-9]\\d*|x|X|\\*]))?(\\.(0|[1-9]\\d*|x|X|\\*))?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?)\\s*)((?:\\s+|,\\s*|\\s*\\|\\|\\s*)(=||!=|>|<|>=|=>|<=|=<|~|~>|\\^)\\s*(v?(0|[1-9]\\d*|x|X|\\*])(\\.(0|[1-9]\\d*|x|X|\\*))?(\\.(0|[1-9]\\d*|x|X|\\*]))?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?)\\s*)*$';

/**
 * `ClusterExtension.spec.source.catalog.version`: `maxLength: 64` and the CRD's own version-expression rule (which
 * differs from Masterminds: e.g. `]` typos in upstream's pattern; both must accept a version for it to install).
 * RE2's `\s` and `\d` are ASCII; so are JavaScript's `\d`, and `\s` is written as RE2's class.
 */
export const CLUSTER_EXTENSION_VERSION_RULES: CrdRule[] = [
  maxLength('spec.source.catalog.version', 64),
  {
    path: 'spec.source.catalog.version',
    rule: `self.matches("${VERSION_PATTERN.replace(/\\/g, '\\\\')}")`,
    message: 'invalid version expression',
    holds: (s) => matches(s, VERSION_PATTERN.replace(/\\s/g, '[\\t\\n\\f\\r ]')),
  },
];

/** `ClusterExtension.spec.namespace`. */
export const CLUSTER_EXTENSION_NAMESPACE_RULES: CrdRule[] = [
  maxLength('spec.namespace', 63),
  {
    path: 'spec.namespace',
    rule: 'self.matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")',
    message: 'namespace must be a valid DNS1123 label',
    holds: (s) => matches(s, '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'),
  },
];

/** The messages of the rules `value` fails, in the CRD's order. */
export function crdFailures(rules: CrdRule[], value: string): string[] {
  return rules.filter((r) => !r.holds(value)).map((r) => r.message);
}
