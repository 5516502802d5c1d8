#!/usr/bin/env node
// Prints the plain closing line CI reads ("N passed, N failed") from jest-junit's report.
// Non-test CI steps that failed (argv[3]) count as failures. Exits non-zero on any failure.
const fs = require('fs');
const file = process.argv[2] || 'test-reports/junit.xml';
const failedSteps = Number(process.argv[3] || 0);
let tests = 0;
let failures = 0;
let errors = 0;
let skipped = 0;
if (fs.existsSync(file)) {
  const xml = fs.readFileSync(file, 'utf8');
  const m = /<testsuites[^>]*>/.exec(xml);
  const attr = (name) => Number((new RegExp(`${name}="(\\d+)"`).exec(m ? m[0] : '') || [0, 0])[1]);
  tests = attr('tests');
  failures = attr('failures');
  errors = attr('errors');
  skipped = (xml.match(/<skipped\s*\/>/g) || []).length;
} else {
  console.error(`no test report at ${file}`);
}
// Assertions: test/util/count-assertions.ts writes one count per test file.
const assertionsDir = require('path').join(require('path').dirname(file), 'assertions');
if (fs.existsSync(assertionsDir)) {
  const counts = fs.readdirSync(assertionsDir).map((f) => Number(fs.readFileSync(require('path').join(assertionsDir, f), 'utf8')));
  console.log(`${tests} tests, ${counts.reduce((a, b) => a + b, 0)} assertions in ${counts.length} test files`);
}
const failed = failures + errors + failedSteps;
const passed = tests - failures - errors - skipped;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || tests === 0 ? 1 : 0);
