import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { parse } from 'yaml';
import { crdValidator } from './crd-schema';
import { appAndChart, FakeTenant, validationErrors } from './helpers';
import { CatalogSourceReference, CuratedCatalog } from '../../src/catalog';
import { Diagnostics } from '../../src/core/diagnostics';
import { FbcValidator, FileBasedCatalog } from '../../src/fbc';
import * as olm from '../../src/imports/olm';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'catalogs');
const COMMUNITY = FileBasedCatalog.fromPath(path.join(FIXTURES, 'community-operators-prod'));
const validateCatalogSource = crdValidator('crds/olm/operators.coreos.com_catalogsources.yaml', 'v1alpha1');
const A = 'apicurio-registry-3';

describe('CuratedCatalog', () => {
  test('one CatalogSource per served tenant namespace, restricted pods by default, valid against the OLM CRD', () => {
    // GIVEN
    const { app, chart } = appAndChart();
    const t1 = new FakeTenant(chart, 'TeamA', 'team-a');
    const t2 = new FakeTenant(chart, 'TeamB', 'team-b');
    // WHEN
    const catalog = new CuratedCatalog(chart, 'Curated', {
      image: 'registry.example.com/curated/operators:v1',
      packages: [{ name: A }],
      publisher: 'Platform team',
      priority: 10,
      registryPollInterval: '30m',
      secrets: ['pull-b', 'pull-a'],
      tenants: [t1],
    });
    catalog.serve(t2);
    catalog.serve(t1); // idempotent
    // THEN
    const objs = Testing.synth(chart);
    const spec = {
      sourceType: 'grpc',
      image: 'registry.example.com/curated/operators:v1',
      displayName: 'Curated Operators',
      publisher: 'Platform team',
      priority: 10,
      secrets: ['pull-a', 'pull-b'],
      updateStrategy: { registryPoll: { interval: '30m' } },
      grpcPodConfig: { securityContextConfig: 'restricted' },
    };
    expect(objs).toEqual([
      { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name: 'curated-operators', namespace: 'team-a' }, spec },
      { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name: 'curated-operators', namespace: 'team-b' }, spec },
    ]);
    objs.forEach((o) => expect(validateCatalogSource(o)).toEqual([]));
    expect(catalog.servedNamespaces).toEqual(['team-a', 'team-b']);
    expect(validationErrors(app)).toEqual([]);
    expect(Diagnostics.warnings(app)).toEqual([]);
  });

  test('the CRD check is meaningful: it rejects unknown fields and bad enum values', () => {
    expect(validateCatalogSource({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: {}, spec: { sourceType: 'grpc', imagee: 'x' } })).toEqual([
      '/spec must NOT have additional properties (imagee)',
    ]);
    expect(validateCatalogSource({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: {}, spec: { sourceType: 'grpc', grpcPodConfig: { securityContextConfig: 'strict' } } })).toEqual([
      '/spec/grpcPodConfig/securityContextConfig must be equal to one of the allowed values',
    ]);
  });

  test('address-based catalog and full grpcPodConfig; the L1 props pass through and validate', () => {
    const { chart } = appAndChart();
    new CuratedCatalog(chart, 'Remote', {
      address: 'catalog.platform.svc:50051',
      catalogName: 'remote',
      packages: [{ name: 'x' }],
      tenants: [new FakeTenant(chart, 'T', 'team-a')],
    });
    const image = new CuratedCatalog(chart, 'Image', {
      image: 'reg/c:1',
      catalogName: 'image',
      packages: [{ name: 'x' }],
      grpcPodConfig: {
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        priorityClassName: 'system-cluster-critical',
        tolerations: [{ key: 'infra', operator: 'Exists', effect: 'NoSchedule' }],
        memoryTarget: olm.CatalogSourceSpecGrpcPodConfigMemoryTarget.fromString('30Mi'),
        extractContent: { cacheDir: '/tmp/cache', catalogDir: '/configs' },
        securityContextConfig: olm.CatalogSourceSpecGrpcPodConfigSecurityContextConfig.LEGACY,
      },
    });
    image.serveNamespace('team-a');
    const objs = Testing.synth(chart);
    expect(objs.map((o) => o.spec)).toEqual([
      { sourceType: 'grpc', address: 'catalog.platform.svc:50051', displayName: 'Curated Operators' },
      {
        sourceType: 'grpc',
        image: 'reg/c:1',
        displayName: 'Curated Operators',
        grpcPodConfig: {
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          priorityClassName: 'system-cluster-critical',
          tolerations: [{ key: 'infra', operator: 'Exists', effect: 'NoSchedule' }],
          memoryTarget: '30Mi',
          extractContent: { cacheDir: '/tmp/cache', catalogDir: '/configs' },
          securityContextConfig: 'legacy',
        },
      },
    ]);
    objs.forEach((o) => expect(validateCatalogSource(o)).toEqual([]));
  });

  test('bindSubscriber serves the namespace and returns the CatalogSource there (ICatalogSource)', () => {
    const { chart } = appAndChart();
    const catalog = new CuratedCatalog(chart, 'C', { image: 'reg/c:1', packages: [{ name: 'x' }] });
    const sub = new FakeTenant(chart, 'Sub', 'team-z');
    expect(catalog.bindSubscriber(sub, 'team-z')).toEqual({ name: 'curated-operators', namespace: 'team-z' });
    expect(catalog.servedNamespaces).toEqual(['team-z']);
    // a reference to an outside catalog is not checked
    expect(CatalogSourceReference.fromName('redhat-operators', 'openshift-marketplace').checkSubscription({ subscriberNamespace: 'a', packageName: 'x' })).toEqual([]);
  });

  describe('checkSubscription', () => {
    const { chart } = appAndChart();
    const listOnly = new CuratedCatalog(chart, 'ListOnly', {
      image: 'reg/c:1',
      packages: [{ name: 'etcd', channels: [{ name: 'stable' }, { name: 'alpha' }] }, { name: 'cert-manager' }],
    });
    const withFbc = new CuratedCatalog(chart, 'WithFbc', {
      image: 'reg/c:1',
      catalogName: 'fbc',
      sourceCatalog: COMMUNITY,
      packages: [{ name: A, channels: [{ name: '3.x' }], versionRange: '>=3.3.0' }],
    });

    test.each([
      [{ subscriberNamespace: 'team-a', packageName: 'etcd', channel: 'stable' }, []],
      [{ subscriberNamespace: 'team-a', packageName: 'cert-manager' }, []],
      [{ subscriberNamespace: 'team-a', packageName: 'cert-manager', channel: 'anything' }, []],
      [
        { subscriberNamespace: 'team-a', packageName: 'grafana-operator' },
        ['tenant namespace "team-a": package "grafana-operator" is not in curated catalog "curated-operators"; allowed packages: "cert-manager", "etcd"'],
      ],
      [
        { subscriberNamespace: 'team-a', packageName: 'etcd', channel: 'singlenamespace-alpha' },
        ['tenant namespace "team-a": channel "singlenamespace-alpha" of package "etcd" is not in curated catalog "curated-operators"; allowed channels: "alpha", "stable"'],
      ],
      [
        { subscriberNamespace: 'team-a', packageName: 'etcd' },
        ['tenant namespace "team-a": package "etcd" in curated catalog "curated-operators" only allows some channels, so the Subscription must name one; allowed channels: "alpha", "stable"'],
      ],
    ])('list only: %j', (request, want) => {
      expect(listOnly.checkSubscription(request)).toEqual(want);
    });

    test.each([
      [{ subscriberNamespace: 'b', packageName: A, channel: '3.x', startingCsv: `${A}.v3.3.0` }, []],
      [
        { subscriberNamespace: 'b', packageName: A, channel: '3.x', startingCsv: `${A}.v3.2.6` },
        [`tenant namespace "b": startingCSV "${A}.v3.2.6" is not in channel "3.x" of package "${A}" in curated catalog "fbc"; allowed: "${A}.v3.3.0", "${A}.v3.3.1"`],
      ],
      [{ subscriberNamespace: 'b', packageName: A, channel: '3.3.x' }, [`tenant namespace "b": channel "3.3.x" of package "${A}" is not in curated catalog "fbc"; allowed channels: "3.x"`]],
    ])('with the source catalog: %j', (request, want) => {
      expect(withFbc.checkSubscription(request)).toEqual(want);
    });
  });

  test('bad input: every error is collected in one synth', () => {
    // GIVEN
    const { app, chart } = appAndChart();
    const broken = FileBasedCatalog.merge([COMMUNITY, FileBasedCatalog.fromString('{"schema": "olm.package", "name": "z"}\n{"schema": \n', 'broken/catalog.json')]);
    new CuratedCatalog(chart, 'Bad', {
      image: 'reg/c:1',
      address: 'x:1',
      catalogName: 'Bad_Name',
      registryPollInterval: '1d',
      sourceCatalog: broken,
      packages: [{ name: 'etcd' }],
      tenants: [new FakeTenant(chart, 'T', 'team-a')],
    });
    new CuratedCatalog(chart, 'Empty', { image: 'reg/c:1', packages: [], catalogName: 'empty', tenants: [new FakeTenant(chart, 'T2', 'team-b')] });
    new CuratedCatalog(chart, 'Zero', { image: 'reg/c:1', packages: [{ name: 'x' }], catalogName: 'zero', registryPollInterval: '0s' });
    // WHEN
    const errors = validationErrors(app);
    // THEN
    expect(errors).toEqual([
      '[platform/Bad] image: both image and address are set. Fix: set exactly one: image (OLM runs the catalog pod) or address (a catalog server that runs elsewhere) (CatalogSourceTypeInvalid)',
      expect.stringMatching(/^\[platform\/Bad\] catalogName="Bad_Name": CatalogSource name .* \(InvalidName\)$/),
      '[platform/Bad] registryPollInterval="1d": time: unknown unit "d" in duration "1d"; OLM would silently poll every 15m instead. Fix: use a Go duration with units ns, us, ms, s, m or h, e.g. "30m" or "1h30m" (no "d") (RegistryPollIntervalInvalid)',
      expect.stringMatching(/^\[platform\/Bad\] sourceCatalog: broken\/catalog\.json:2: malformed JSON: .* \(FbcMalformed\)$/),
      expect.stringMatching(/^\[platform\/Bad\] packages: package "etcd" is not in the catalog; it has: "apicurio-registry-3", "kubevirt-wol", "libredb-studio-operator", "odf-node-recovery-operator", "z"\. Fix: .* \(CuratedPackageNotInCatalog\)$/),
      '[platform/Empty] packages: the curated list is empty: no package could be installed from this catalog. Fix: list at least one package, each once, with valid semver ranges (CuratedListInvalid)',
      '[platform/Zero] registryPollInterval="0s": the poll interval must be positive. Fix: use e.g. "30m" (RegistryPollIntervalInvalid)',
    ]);
  });

  test('app.synth() reports every bad input at once: unknown package, empty list, malformed FBC, duplicate names', () => {
    // GIVEN four independent mistakes in one App
    const { app, chart } = appAndChart();
    const t = new FakeTenant(chart, 'T', 'team-a');
    const malformed = FileBasedCatalog.fromString('schema: olm.package\nname: [unclosed\n', 'bad/catalog.yaml');
    new CuratedCatalog(chart, 'Unknown', { image: 'reg/u:1', catalogName: 'unknown', sourceCatalog: COMMUNITY, packages: [{ name: 'etcd' }], tenants: [t] });
    new CuratedCatalog(chart, 'Empty', { image: 'reg/e:1', catalogName: 'empty', packages: [], tenants: [t] });
    new CuratedCatalog(chart, 'Malformed', { image: 'reg/m:1', catalogName: 'malformed', sourceCatalog: malformed, packages: [{ name: 'x' }], tenants: [t] });
    new CuratedCatalog(chart, 'One', { image: 'reg/one:1', packages: [{ name: 'x' }], tenants: [t] });
    new CuratedCatalog(chart, 'Two', { image: 'reg/two:1', packages: [{ name: 'y' }], tenants: [t] });
    // WHEN
    let message = '';
    try {
      app.synth();
    } catch (e) {
      message = (e as Error).message;
    }
    // THEN one error, listing each problem once, prefixed by cdk8s with the construct path (not twice)
    const lines = message.split('\n');
    expect(lines[0]).toEqual('Validation failed with the following errors:');
    expect(lines.slice(1).map((l) => l.trim().replace(/\. Fix: .*(\(\w+\))$/, ' $1'))).toEqual([
      '[platform/Unknown] packages: package "etcd" is not in the catalog; it has: "apicurio-registry-3", "kubevirt-wol", "libredb-studio-operator", "odf-node-recovery-operator" (CuratedPackageNotInCatalog)',
      '[platform/Empty] packages: the curated list is empty: no package could be installed from this catalog (CuratedListInvalid)',
      expect.stringMatching(/^\[platform\/Malformed\] sourceCatalog: bad\/catalog\.yaml:\d+: malformed YAML: .* \(FbcMalformed\)$/),
      '[platform/Malformed] packages: package "x" is not in the catalog; it has: (none) (CuratedPackageNotInCatalog)',
      '[platform/One] catalogName="curated-operators": namespace "team-a" gets 2 CatalogSources named "curated-operators" (platform/One/CatalogSource-team-a, platform/Two/CatalogSource-team-a) (DuplicateCatalogSource)',
      '[platform/Two] catalogName="curated-operators": namespace "team-a" gets 2 CatalogSources named "curated-operators" (platform/One/CatalogSource-team-a, platform/Two/CatalogSource-team-a) (DuplicateCatalogSource)',
    ]);
    expect(message).not.toMatch(/\[platform\/\w+\] platform\//); // no second path prefix
  });

  test('a source catalog whose bundles reference object files cannot be written: synth error, artifacts() throws', () => {
    const { app, chart } = appAndChart();
    const refs = FileBasedCatalog.fromString(
      [
        '{"schema":"olm.package","name":"a","defaultChannel":"s"}',
        '{"schema":"olm.channel","package":"a","name":"s","entries":[{"name":"a.v1.0.0"}]}',
        '{"schema":"olm.bundle","package":"a","name":"a.v1.0.0","image":"i","properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}},{"type":"olm.bundle.object","value":{"ref":"objects/csv.yaml"}}]}',
      ].join('\n'),
      'index.json',
    );
    const c = new CuratedCatalog(chart, 'C', { image: 'i', sourceCatalog: refs, packages: [{ name: 'a' }], tenants: [new FakeTenant(chart, 'T', 'team-a')] });
    const message = 'index.json:3: bundle "a.v1.0.0" references the file "objects/csv.yaml" (olm.bundle.object ref), which is not copied; render the catalog with opm render so objects are inline';
    expect(validationErrors(app)).toEqual([
      `[platform/C] sourceCatalog="olm.bundle/a/a.v1.0.0": the filtered catalog cannot be written: ${message}. Fix: render the source catalog with opm render, with valid package names (FbcInvalid)`,
    ]);
    expect(() => c.artifacts()).toThrow(`platform/C: cannot write the curated catalog:\n  ${message}`);
  });

  test('a Subscription in a served namespace that uses another catalog source is a synth error naming the allowed ones', () => {
    // GIVEN a curated catalog in team-a, and Subscriptions there to it, to a global catalog and to another tenant's copy
    const { app, chart } = appAndChart();
    new CuratedCatalog(chart, 'Curated', { image: 'reg/c:1', packages: [{ name: 'etcd' }], tenants: [new FakeTenant(chart, 'T', 'team-a')] });
    const sub = (id: string, source: string, sourceNamespace: string) =>
      new olm.Subscription(chart, id, { metadata: { name: id.toLowerCase(), namespace: 'team-a' }, spec: { name: 'etcd', source, sourceNamespace } });
    sub('Curated1', 'curated-operators', 'team-a');
    sub('Global', 'community-operators', 'openshift-marketplace');
    sub('Elsewhere', 'curated-operators', 'team-b');
    new olm.Subscription(chart, 'OtherNs', { metadata: { name: 'x', namespace: 'team-c' }, spec: { name: 'etcd', source: 'community-operators', sourceNamespace: 'openshift-marketplace' } });
    // THEN
    const fix = 'Fix: subscribe through the curated catalog (add the package to its list if it should be allowed) (SubscriptionOutsideCuratedCatalog, OLMT-020)';
    expect(validationErrors(app)).toEqual([
      `[platform/Curated] tenants="team-a": tenant namespace "team-a": Subscription platform/Elsewhere (package "etcd") uses CatalogSource "curated-operators" in namespace "team-b", which goes around the curation; allowed: "curated-operators" in "team-a". ${fix}`,
      `[platform/Curated] tenants="team-a": tenant namespace "team-a": Subscription platform/Global (package "etcd") uses CatalogSource "community-operators" in namespace "openshift-marketplace", which goes around the curation; allowed: "curated-operators" in "team-a". ${fix}`,
    ]);
  });

  test('packages omitted by a JavaScript caller is the empty-list error, not a TypeError', () => {
    const { app, chart } = appAndChart();
    new CuratedCatalog(chart, 'C', { image: 'i' } as any);
    expect(validationErrors(app)).toEqual([
      '[platform/C] packages: the curated list is empty: no package could be installed from this catalog. Fix: list at least one package, each once, with valid semver ranges (CuratedListInvalid)',
    ]);
  });

  test('names OLM would reject, and a fractional priority', () => {
    const { app, chart } = appAndChart();
    new CuratedCatalog(chart, 'C', { image: 'i', catalogName: '1catalog', secrets: ['Bad_Secret'], priority: 1.5, packages: [{ name: 'x' }] });
    expect(validationErrors(app)).toEqual([
      '[platform/C] catalogName="1catalog": CatalogSource name must start with a letter (RFC 1035 label). Fix: OLM names a Service after the CatalogSource: use lower-case letters, digits and "-", starting with a letter (InvalidName)',
      expect.stringMatching(/^\[platform\/C\] secrets="Bad_Secret": pull secret name .* \(InvalidName\)$/),
      '[platform/C] priority="1.5": priority must be an integer. Fix: use e.g. 10 or -100 (InvalidPriority)',
    ]);
  });

  test('two catalogs with the same name in one namespace is a synth error on each', () => {
    const { app, chart } = appAndChart();
    const t = new FakeTenant(chart, 'T', 'team-a');
    new CuratedCatalog(chart, 'One', { image: 'reg/one:1', packages: [{ name: 'x' }], tenants: [t] });
    new CuratedCatalog(chart, 'Two', { image: 'reg/two:1', packages: [{ name: 'y' }], tenants: [t] });
    const msg = 'namespace "team-a" gets 2 CatalogSources named "curated-operators" (platform/One/CatalogSource-team-a, platform/Two/CatalogSource-team-a). Fix: give each catalog that serves the same namespace its own catalogName (DuplicateCatalogSource)';
    expect(validationErrors(app)).toEqual([`[platform/One] catalogName="curated-operators": ${msg}`, `[platform/Two] catalogName="curated-operators": ${msg}`]);
  });

  test('filter notes and ignored props are warnings', () => {
    const { app, chart } = appAndChart();
    new CuratedCatalog(chart, 'C', {
      address: 'x:1',
      registryPollInterval: '10m',
      grpcPodConfig: {},
      sourceCatalog: COMMUNITY,
      packages: [{ name: A, channels: [{ name: '3.3.x' }] }],
    });
    expect(Diagnostics.warnings(app).map((w) => `${w.code}: ${w.message}`)).toEqual([
      `CatalogFiltered: package "${A}": default channel "3.x" was filtered out; the filtered catalog uses "3.3.x" (set defaultChannel to choose)`,
      'CatalogNotServed: the curated catalog serves no namespace',
      'IgnoredWithAddress: OLM runs no catalog pod for an address-based CatalogSource, so grpcPodConfig has no effect',
      'IgnoredWithAddress: OLM only polls image-based CatalogSources',
    ]);
  });

  test('allow() adds packages after construction', () => {
    const { chart } = appAndChart();
    const c = new CuratedCatalog(chart, 'C', { image: 'reg/c:1', packages: [{ name: 'a' }] });
    c.allow({ name: 'b' });
    expect(c.packages.map((p) => p.name)).toEqual(['a', 'b']);
    expect(c.checkSubscription({ subscriberNamespace: 'n', packageName: 'b' })).toEqual([]);
  });

  describe('artifacts', () => {
    const { chart } = appAndChart();
    const catalog = new CuratedCatalog(chart, 'C', {
      image: 'reg/curated:v1',
      sourceCatalog: COMMUNITY,
      packages: [{ name: A, channels: [{ name: '3.x' }], versionRange: '>=3.3.0' }, { name: 'kubevirt-wol', channels: [{ name: 'stable-v0' }] }],
    });

    test('filtered FBC directory, FilterConfiguration and ImageSetConfiguration', () => {
      const files = catalog.artifacts({ imageSet: { sourceCatalogImage: 'registry.redhat.io/redhat/community-operator-index:v4.21' } });
      expect(Object.keys(files)).toEqual([
        `catalog/${A}/catalog.json`,
        'catalog/kubevirt-wol/catalog.json',
        'filter-configuration.yaml',
        'imageset-configuration.yaml',
      ]);
      const back = FileBasedCatalog.merge(Object.keys(files).filter((f) => f.startsWith('catalog/')).map((f) => FileBasedCatalog.fromString(files[f], f)));
      expect(FbcValidator.validate(back)).toEqual([]);
      expect(back.bundleNames(A)).toEqual([`${A}.v3.3.0`, `${A}.v3.3.1`]);
      expect(back.defaultChannel(A)).toEqual('3.x');
      expect(parse(files['filter-configuration.yaml'])).toEqual({
        apiVersion: 'olm.operatorframework.io/filter/mirror/v1alpha1',
        kind: 'FilterConfiguration',
        packages: [
          { name: A, defaultChannel: '3.x', channels: [{ name: '3.x', versionRange: '>=3.3.0 <=3.3.1' }] },
          { name: 'kubevirt-wol', defaultChannel: 'stable-v0', channels: [{ name: 'stable-v0', versionRange: '>=0.0.2 <=0.0.2' }] },
        ],
      });
      expect(parse(files['imageset-configuration.yaml']).mirror.operators[0].packages[1]).toEqual({
        name: 'kubevirt-wol',
        defaultChannel: 'stable-v0',
        channels: [{ name: 'stable-v0', minVersion: '0.0.2', maxVersion: '0.0.2' }],
      });
    });

    test('writeArtifacts writes them beside the manifests and replaces the catalog folder', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curated-'));
      fs.mkdirSync(path.join(dir, 'catalog', 'stale'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'catalog', 'stale', 'catalog.json'), '{}');
      const written = catalog.writeArtifacts(dir);
      expect(written.map((f) => path.relative(dir, f))).toEqual([`catalog/${A}/catalog.json`, 'catalog/kubevirt-wol/catalog.json', 'filter-configuration.yaml']);
      expect(fs.existsSync(path.join(dir, 'catalog', 'stale'))).toBe(false);
      fs.rmSync(dir, { recursive: true });
    });

    test('issue 30: a committed artifact that is a link (a file, the catalog folder) is replaced, never written through', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curated-links-'));
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'curated-outside-'));
      fs.writeFileSync(path.join(outside, 'ci.sh'), 'keep\n');
      fs.symlinkSync(path.join(outside, 'ci.sh'), path.join(dir, 'filter-configuration.yaml'));
      fs.symlinkSync(outside, path.join(dir, 'catalog'));
      catalog.writeArtifacts(dir);
      expect(fs.readdirSync(outside)).toEqual(['ci.sh']);
      expect(fs.readFileSync(path.join(outside, 'ci.sh'), 'utf8')).toEqual('keep\n');
      expect(fs.lstatSync(path.join(dir, 'filter-configuration.yaml')).isSymbolicLink()).toBe(false);
      expect(fs.lstatSync(path.join(dir, 'catalog')).isDirectory()).toBe(true);
      expect(fs.readFileSync(path.join(dir, 'filter-configuration.yaml'), 'utf8')).toEqual(catalog.artifacts()['filter-configuration.yaml']);
      fs.rmSync(dir, { recursive: true });
      fs.rmSync(outside, { recursive: true });
    });

    test('without a source catalog, or with problems, artifacts() throws clearly', () => {
      const { chart: c2 } = appAndChart();
      expect(() => new CuratedCatalog(c2, 'NoFbc', { image: 'i', packages: [{ name: 'x' }] }).artifacts()).toThrow(
        'platform/NoFbc: artifacts() needs the sourceCatalog prop (the file-based catalog to filter)',
      );
      expect(() => new CuratedCatalog(c2, 'Unknown', { image: 'i', sourceCatalog: COMMUNITY, packages: [{ name: 'x' }] }).artifacts()).toThrow(
        /^platform\/Unknown: cannot write the curated catalog:\n {2}package "x" is not in the catalog/,
      );
    });
  });
});
