/**
 * Issue 27 item 10: the OLM v1 CRDs' own rules (crds/olm-v1, operator-controller v1.11.0) evaluated with
 * @bufbuild/cel over generated values agree with the library's port (src/olmv1/crd-rules.ts), and the constructs
 * refuse at synth what the CRDs refuse at apply.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { appAndChart, crdRuleFailures, evalCelRule, validationErrors } from './helpers';
import { CuratedClusterCatalog, OlmV1Team } from '../../src/olmv1';
import {
  CLUSTER_CATALOG_IMAGE_REF_RULES, CLUSTER_EXTENSION_CHANNEL_RULES, CLUSTER_EXTENSION_MAX_CHANNELS, CLUSTER_EXTENSION_NAMESPACE_RULES,
  CLUSTER_EXTENSION_PACKAGE_NAME_RULES, CLUSTER_EXTENSION_VERSION_RULES, CrdRule,
} from '../../src/olmv1/crd-rules';

const CRDS = path.join(__dirname, '..', '..', 'crds', 'olm-v1');
function schema(file: string): any {
  const crd = parseAllDocuments(fs.readFileSync(path.join(CRDS, file), 'utf8'))[0].toJSON();
  return crd.spec.versions.find((v: any) => v.name === 'v1').schema.openAPIV3Schema;
}
/** The schema node of a dotted path (`[]` for list items). */
function at(root: any, p: string): any {
  let node = root;
  for (const part of p.split('.')) {
    const [name, items] = part.endsWith('[]') ? [part.slice(0, -2), true] : [part, false];
    node = node.properties[name];
    if (items) node = node.items;
  }
  return node;
}
const catalog = schema('olm.operatorframework.io_clustercatalogs.yaml');
const extension = schema('olm.operatorframework.io_clusterextensions.yaml');

/** The CRD's rules and limits at the path, in the port's shape (rule text, message). */
function crdRules(root: any, p: string): Array<{ rule: string; message: string }> {
  const node = at(root, p);
  return [
    ...(node.maxLength !== undefined ? [{ rule: `maxLength: ${node.maxLength}`, message: `may not be longer than ${node.maxLength} characters` }] : []),
    ...(node['x-kubernetes-validations'] ?? []).filter((v: any) => !/\boldSelf\b/.test(v.rule)).map((v: any) => ({ rule: v.rule, message: v.message })),
  ];
}

const cases: Array<[string, any, CrdRule[]]> = [
  ['ClusterCatalog spec.source.image.ref', catalog, CLUSTER_CATALOG_IMAGE_REF_RULES],
  ['ClusterExtension spec.source.catalog.packageName', extension, CLUSTER_EXTENSION_PACKAGE_NAME_RULES],
  ['ClusterExtension spec.source.catalog.channels[]', extension, CLUSTER_EXTENSION_CHANNEL_RULES],
  ['ClusterExtension spec.source.catalog.version', extension, CLUSTER_EXTENSION_VERSION_RULES],
  ['ClusterExtension spec.namespace', extension, CLUSTER_EXTENSION_NAMESPACE_RULES],
];

/** Generated strings around what the rules look at: registries, ports, names, tags, digests, versions, labels. */
const piece = fc.constantFrom('registry.example.com', 'quay.io', 'localhost:5000', 'Reg-1', '/', '/org', '/catalog', '/a__b', '/a--b', '/A', ':', ':v1.2', ':latest', ':_x', ':-x', ':v1+b',
  '@sha256:', '@sha256', '@SHA-256+x:', '@1a:', 'abcdef0123456789', '0123456789abcdef0123456789abcdef', 'xyz', 'g', '.', '-', '_', 'a', 'z9', '>=', '1.2.3', ' ', ',', '||', 'x', '*', '-rc.1', '+b', '~', '^', '\t');
const text = fc.oneof(fc.array(piece, { maxLength: 8 }).map((a) => a.join('')), fc.string({ maxLength: 12 }), fc.constantFrom('x'.repeat(1001), 'a'.repeat(254), 'a'.repeat(64)));

describe('the CRD rules ported (src/olmv1/crd-rules.ts)', () => {
  test.each(cases)('%s: each rule text and message is the CRD\'s, in order', (p, root, rules) => {
    expect(rules.map((r) => ({ rule: r.rule, message: r.message }))).toEqual(crdRules(root, p.split(' ')[1]));
  });

  test.each(cases)('%s: the port agrees with the CRD\'s own CEL rules on generated values (property, fixed seed)', (_p, _root, rules) => {
    fc.assert(fc.property(text, (s) => rules.every((r) => r.rule.startsWith('maxLength: ') || evalCelRule(r.rule, s) === r.holds(s))), { seed: 1027, numRuns: 600 });
  });

  test('channels: the CRD\'s maxItems is the port\'s', () => {
    expect(at(extension, 'spec.source.catalog.channels').maxItems).toBe(CLUSTER_EXTENSION_MAX_CHANNELS);
  });
});

describe('issue 27 item 10: refused at synth, as the CRDs refuse at apply', () => {
  const DIGEST = `@sha256:${'0123456789abcdef'.repeat(4)}`;
  const imageErrors = (image: string, pollIntervalMinutes?: number) => {
    const { app, chart } = appAndChart();
    const cat = new CuratedClusterCatalog(chart, 'Cat', { catalogName: 'c', image, team: 'c', pollIntervalMinutes });
    return { synth: validationErrors(app), crd: crdRuleFailures(cat.apiObject.toJson()) };
  };

  test('catalog images: no tag or digest, a short or non-hex digest, a tag over 127 characters or with `+`: each named with the CRD\'s message', () => {
    const cases2: Array<[string, string[]]> = [
      ['registry.example.com/catalog', ['must end with a digest or a tag']],
      ['registry.example.com/catalog@sha256:0123abcd', ['digest is not valid. the encoded string must be at least 32 characters']],
      [`registry.example.com/catalog@sha256:${'g'.repeat(64)}`, ['digest is not valid. the encoded string must only contain hex characters (A-F, a-f, 0-9)']],
      [`registry.example.com/catalog:${'v'.repeat(128)}`, ['tag is invalid. the tag must not be more than 127 characters']],
      ['registry.example.com/catalog:v1+build', ['tag is invalid. valid tags must begin with a word character (alphanumeric + "_") followed by word characters or ".", and "-" characters']],
      ['catalog', ['a valid name is required. valid names must contain lowercase alphanumeric characters separated only by the ".", "_", "__", "-" characters.', 'must end with a digest or a tag']],
    ];
    for (const [image, messages] of cases2) {
      const { synth, crd } = imageErrors(image);
      expect([image, crd]).toEqual([image, messages.map((m) => `.spec.source.image.ref: ${m}`)]);
      expect([image, synth]).toEqual([image, [`[platform/Cat] image=${JSON.stringify(image)}: image '${image}' is refused by the ClusterCatalog CRD (spec.source.image.ref): ${messages.join('; ')}. Fix: use e.g. registry.example.com/catalogs/team-a@sha256:<64 hex digits> or registry.example.com/catalogs/team-a:v1 (InvalidValue)`]]);
    }
    expect(imageErrors(`registry.example.com/catalog${DIGEST}`)).toEqual({ synth: [], crd: [] });
    expect(imageErrors('registry.example.com:5000/org/catalog:v4.18', 10)).toEqual({ synth: [], crd: [] });
  });

  test('catalog images: synth refuses exactly what the CRD refuses (property over generated references, fixed seed)', () => {
    const ref = fc.array(piece, { minLength: 1, maxLength: 7 }).map((a) => a.join(''));
    fc.assert(fc.property(ref, (image) => {
      const { synth, crd } = imageErrors(image);
      return (synth.length === 0) === (crd.length === 0);
    }), { seed: 1028, numRuns: 300 });
  });

  function ext(options: any, allowed: any = { name: options.packageName }) {
    const { app, chart } = appAndChart();
    const cat = new CuratedClusterCatalog(chart, 'Cat', { catalogName: 'c', image: `registry.example.com/c${DIGEST}`, team: 'c' });
    const team = new OlmV1Team(chart, 'T', { team: 'team-a', groups: ['g'], namespaces: ['team-a'], catalog: cat, allowedPackages: [allowed] });
    team.addExtension({ namespace: 'team-a', name: 'team-a-x', ...options });
    const ce = Object.values(team.extensions)[0].toJson();
    return { synth: validationErrors(app).filter((e) => !e.includes('OlmV1ExtensionNotPreviewed')).map((e) => e.replace(/^\[platform\/T\] /, '')), crd: crdRuleFailures(ce) };
  }

  test('ClusterExtension: a package or channel that is not a DNS-1123 subdomain, more than 256 channels, a version over 64 characters: named', () => {
    expect(ext({ packageName: 'My_Package' })).toEqual({
      crd: ['.spec.source.catalog.packageName: packageName must be a valid DNS1123 subdomain. It must contain only lowercase alphanumeric characters, hyphens (-) or periods (.), start and end with an alphanumeric character, and be no longer than 253 characters'],
      synth: ['extensions[team-a-x].packageName="My_Package": the ClusterExtension CRD refuses spec.source.catalog.packageName \'My_Package\': packageName must be a valid DNS1123 subdomain. It must contain only lowercase alphanumeric characters, hyphens (-) or periods (.), start and end with an alphanumeric character, and be no longer than 253 characters. Fix: use the package name as the catalog spells it (a lower-case DNS-1123 subdomain) (InvalidCrdValue)'],
    });
    expect(ext({ packageName: 'op', channels: ['stable', 'Fast_Lane'] })).toEqual({
      crd: ['.spec.source.catalog.channels[1]: channels entries must be valid DNS1123 subdomains'],
      synth: ['extensions[team-a-x].channels[1]="Fast_Lane": the ClusterExtension CRD refuses spec.source.catalog.channels[1] \'Fast_Lane\': channels entries must be valid DNS1123 subdomains. Fix: use the channel name as the catalog spells it (a lower-case DNS-1123 subdomain) (InvalidCrdValue)'],
    });
    const many = Array.from({ length: 257 }, (_, i) => `c${i}`);
    expect(ext({ packageName: 'op', channels: many }).synth).toEqual([
      'extensions[team-a-x].channels="257": the ClusterExtension CRD allows at most 256 channels (spec.source.catalog.channels maxItems), got 257. Fix: name fewer channels (InvalidCrdValue)',
    ]);
    const long = `>=1.0.0 <2.0.0${' '.repeat(60)}`;
    expect(ext({ packageName: 'op', version: long }).synth).toEqual([
      `extensions[team-a-x].version=${JSON.stringify(long)}: the ClusterExtension CRD refuses spec.source.catalog.version '${long}': may not be longer than 64 characters. Fix: write a version expression the CRD accepts, at most 64 characters, e.g. '>=1.2.0 <2.0.0' (InvalidCrdValue)`,
    ]);
    expect(ext({ packageName: 'op', channels: ['stable'], version: '>=1.0.0 <2.0.0' })).toEqual({ synth: [], crd: [] });
  });

  test('ClusterExtension version: synth refuses what the CRD rule or Masterminds refuses (property, fixed seed)', () => {
    const version = fc.array(fc.constantFrom('>=', '<', '1', '1.2', '1.2.3', 'x', '*', ' ', ',', '||', '-rc.1', '+b', '~', '^', 'v', ']'), { minLength: 1, maxLength: 6 }).map((a) => a.join(''));
    fc.assert(fc.property(version, (v) => {
      const { synth, crd } = ext({ packageName: 'op', version: v });
      // the CRD's refusal is always a synth error; synth may refuse more (Masterminds)
      return crd.length === 0 || synth.some((e) => e.includes('(InvalidCrdValue)'));
    }), { seed: 1029, numRuns: 150 });
  });
});
