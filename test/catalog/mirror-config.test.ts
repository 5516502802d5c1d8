import * as path from 'path';
import { FbcFilter, FileBasedCatalog, MirrorConfig } from '../../src/catalog';

const APICURIO = FileBasedCatalog.fromPath(path.join(__dirname, '..', 'fixtures', 'catalogs', 'community-operators-prod/catalogs/v4.21/apicurio-registry-3/catalog.yaml'));
const A = 'apicurio-registry-3';

describe('MirrorConfig', () => {
  // GIVEN channels 3.2.x and 3.x cut to >=3.2.0 <3.2.3: both keep 3.2.0, 3.2.1, 3.2.2
  const filtered = FbcFilter.filter(APICURIO, [{ name: A, channels: [{ name: '3.x' }, { name: '3.2.x' }], versionRange: '>=3.2.0 <3.2.3' }]).catalog;

  test('ImageSetConfiguration (oc-mirror v2alpha1 type_config.go / type_config_include.go fields)', () => {
    expect(MirrorConfig.imageSetConfiguration(filtered, { sourceCatalogImage: 'registry.redhat.io/redhat/community-operator-index:v4.21', targetCatalog: 'curated/operators', targetTag: 'v1' })).toEqual({
      kind: 'ImageSetConfiguration',
      apiVersion: 'mirror.openshift.io/v2alpha1',
      mirror: {
        operators: [
          {
            catalog: 'registry.redhat.io/redhat/community-operator-index:v4.21',
            targetCatalog: 'curated/operators',
            targetTag: 'v1',
            packages: [
              {
                name: A,
                defaultChannel: '3.x',
                channels: [
                  { name: '3.2.x', minVersion: '3.2.0', maxVersion: '3.2.2' },
                  { name: '3.x', minVersion: '3.2.0', maxVersion: '3.2.2' },
                ],
              },
            ],
          },
        ],
      },
    });
  });

  test('FilterConfiguration (catalog-filter mirror-config v1alpha1 fields, ranges as oc-mirror writes them)', () => {
    expect(MirrorConfig.filterConfiguration(filtered)).toEqual({
      apiVersion: 'olm.operatorframework.io/filter/mirror/v1alpha1',
      kind: 'FilterConfiguration',
      packages: [
        {
          name: A,
          defaultChannel: '3.x',
          channels: [
            { name: '3.2.x', versionRange: '>=3.2.0 <=3.2.2' },
            { name: '3.x', versionRange: '>=3.2.0 <=3.2.2' },
          ],
        },
      ],
    });
  });

  test('the source image is required', () => {
    expect(() => MirrorConfig.imageSetConfiguration(filtered, { sourceCatalogImage: '' })).toThrow('ImageSetConfiguration: sourceCatalogImage must be set');
  });
});
