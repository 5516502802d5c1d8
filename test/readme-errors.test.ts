/**
 * The README's error examples are the code's real output: the install preflight of examples/preflight-demo.ts and
 * the input errors of examples/errors-demo.ts (regenerate with scripts/update-readme-examples.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { buildMistakes, synthFailure } from '../examples/errors-demo';
import { readmeExamples, withReadmeExamples } from '../examples/readme-examples';

const README = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

describe('README.md error examples (generated from the code)', () => {
  test('the blocks between the markers are exactly the generated output', () => {
    // the README's blocks <!-- preflight-errors:start --> and <!-- input-errors:start -->
    expect(Object.keys(readmeExamples())).toEqual(['preflight-errors', 'input-errors']);
    expect(withReadmeExamples(README)).toEqual(README);
    for (const [name, text] of Object.entries(readmeExamples())) {
      expect(README).toContain(`<!-- ${name}:start -->\n${text}<!-- ${name}:end -->`);
    }
  });

  test('the preflight example is ONE error for the Subscription, listing the 9 missing rules once each', () => {
    const text = readmeExamples()['preflight-errors'];
    const lines = text.split('\n').filter((l) => l.startsWith('  ['));
    expect(lines.length).toEqual(1);
    expect(lines[0]).toMatch(/ lacks 9 rule\(s\): .*\. Fix: set deriveInstallerRules: true to derive exactly these rules from the bundle, or grant them with addInstallerRule \(MissingInstallerPermission\)$/);
    expect(lines[0]).not.toContain('InstallerPermissions.leastPrivilege');
  });

  test('every mistake of errors-demo is reported, together, one line each', () => {
    const app = Testing.app();
    buildMistakes(app);
    const codes = synthFailure(app).split('\n').slice(1).map((l) => /\((\w+)\)$/.exec(l)![1]);
    expect(codes).toEqual(['InvalidInputType', 'InvalidEnumValue', 'EmptyChannel', 'MissingInput', 'InvalidEnumValue']);
  });
});
