/**
 * Counts the expect() calls of every test (jest's own `assertionCalls`) and writes the total of this test file to
 * test-reports/assertions/, so that .ci/run can print the number of assertions beside the number of tests
 * (scripts/junit-summary.js). It never changes what a test checks.
 */
import * as fs from 'fs';
import * as path from 'path';

let assertions = 0;
afterEach(() => {
  assertions += expect.getState().assertionCalls;
});
afterAll(() => {
  const dir = path.join(__dirname, '..', '..', 'test-reports', 'assertions');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.relative(path.join(__dirname, '..', '..'), expect.getState().testPath ?? 'unknown').replace(/[\\/]/g, '__');
  fs.writeFileSync(path.join(dir, `${file}.txt`), `${assertions}\n`);
});
