/**
 * Comments in src/ state the rule they enforce, never a ticket of this project (issue 39 item 6): "issue 15 item 12"
 * says nothing to a reader without the tracker. Ticket numbers belong in test names and commit messages. An upstream
 * issue or pull request is cited with its project (`OLM issue #3376`, `OLM PR #3377`,
 * `openshift/operator-framework-olm#898`), which this test allows.
 */
import * as fs from 'fs';
import * as path from 'path';
import { sourceFiles, SRC } from '../util/import-graph';

/** `issue 8`, `Issues 12`, `ticket 3`, and `issue #8` unless an upstream project names it (`OLM issue #3376`). */
export function ticketReferences(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(\S+)?(\s+)?\b(issues?|tickets?)\s+(#?)(\d+)/gi)) {
    const [, before, , word, hash, number] = m;
    const project = before?.replace(/^[^A-Za-z0-9]+/, '');
    const upstream = hash === '#' && project !== undefined && (/^[A-Z][A-Za-z0-9-]*$/.test(project) || project.includes('/'));
    if (!upstream) out.push(`${word} ${hash}${number}`);
  }
  return out;
}

describe('no ticket numbers in src/ (issue 39)', () => {
  test('the matcher tells a ticket of this project from an upstream citation', () => {
    expect(ticketReferences('(issue 8, case 7) and Issue 15 item 4; issues 3; ticket #12; see issue #7')).toEqual([
      'issue 8', 'Issue 15', 'issues 3', 'ticket #12', 'issue #7',
    ]);
    expect(ticketReferences('OLM issue #3376; OLM PR #3377; openshift/operator-framework-olm#898; the issue is')).toEqual([]);
  });

  test('no src/ file names a ticket', () => {
    const found: string[] = [];
    for (const file of sourceFiles()) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const ref of ticketReferences(line)) found.push(`${path.relative(SRC, file)}:${i + 1}: ${ref}`);
      });
    }
    expect(found).toEqual([]);
  });
});
