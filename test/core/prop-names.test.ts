/**
 * src/core/prop-names.ts (the prop names the runtime checks accept) is generated from the interfaces of src/: a prop
 * added to an interface without regenerating it would be refused as unknown. Regenerate with
 * `npx ts-node --project scripts/tsconfig.json scripts/update-prop-names.ts`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { propNamesModule } from '../../scripts/prop-names';
import { editDistance, nearestName } from '../../src/core/input-check';
import { diskMemo, JSON_CODEC, sourceKey } from '../util/disk-memo';

describe('prop names', () => {
  test('src/core/prop-names.ts equals the interfaces of src/', () => {
    // the TypeScript program over src/ is built once per content of src/ (test/util/disk-memo.ts)
    const script = fs.readFileSync(path.join(__dirname, '..', '..', 'scripts', 'prop-names.ts'), 'utf8');
    const generated = diskMemo<string>('prop-names', sourceKey([script]), JSON_CODEC, () => propNamesModule());
    expect(fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'core', 'prop-names.ts'), 'utf8')).toEqual(generated);
  }, 60_000);

  test('edit distance and the nearest name', () => {
    expect(editDistance('podsecurty', 'podsecurity')).toEqual(1);
    expect(editDistance('kitten', 'sitting')).toEqual(3);
    expect(editDistance('', 'abc')).toEqual(3);
    expect(nearestName('podSecurty', ['podSecurity', 'podSecurityWarn'])).toEqual('podSecurity');
    expect(nearestName('createTokenSecrets', ['createTokenSecret', 'tokenSecretName'])).toEqual('createTokenSecret');
    expect(nearestName('NAMESPACENAME', ['namespaceName'])).toEqual('namespaceName');
    expect(nearestName('colour', ['namespaceName', 'layout'])).toBeUndefined();
  });
});
