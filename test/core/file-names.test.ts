/**
 * Files say what they hold (issue 39 item 5): a file of src/ that exports one class is named after it in kebab-case
 * (`InputCheck` in `input-check.ts`), and a file that exports several is named after one of them, unless it is
 * listed below with the reason (the same reason is written in its folder's index.ts). Word breaks inside a name are
 * free (`OpenShiftOperatorHubPolicy` in `openshift-operator-hub-policy.ts`, `OlmV1VersionRange` in
 * `olm-v1-version-range.ts`). Files without a class (modules of functions, data tables, props) are named after their
 * job (`input-checks.ts`, `private.ts`, `*-props.ts`) and are not checked here.
 */
import * as fs from 'fs';
import * as path from 'path';
import { sourceFiles, SRC } from '../util/import-graph';

/** Files whose name is not a class they export, with why (also stated in the folder's index.ts). */
export const NAME_EXCEPTIONS: Record<string, string> = {
  'core/content-cache.ts': 'memoization by content: the content keys and sealing it works with, BoundedCache the store',
  'output/gitops-layout-entries.ts': "the layout's entry types; LayoutEntryMismatch is the error about one entry",
  'rbac/policy-rule.ts': 'the PolicyRule struct; PolicyRules is its companion class (jsii structs cannot carry methods)',
  'olmv1/masterminds-semver.ts': 'a port of Masterminds/semver: its Version, Constraint and Constraints',
  'tenant/lazy-collections.ts': 'two lazily rendered collections, LazyMap and LazySet',
};

/** Exported classes of a source text, in order. */
function exportedClasses(text: string): string[] {
  return [...text.matchAll(/^export (?:abstract )?class (\w+)/gm)].map((m) => m[1]);
}

const squash = (s: string) => s.replace(/-/g, '').toLowerCase();

/** Files of src/ (relative) that export a class but are named after none of their classes, and are not excepted. */
function misnamed(files: Record<string, string>, exceptions: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const classes = exportedClasses(text);
    if (classes.length === 0 || file in exceptions) continue;
    const base = path.basename(file, '.ts');
    if (!classes.some((c) => squash(base) === squash(c))) out.push(`${file} holds ${classes.join(', ')}`);
  }
  return out.sort();
}

describe('files are named after the class they hold', () => {
  const files = Object.fromEntries(sourceFiles()
    .filter((f) => path.basename(f) !== 'index.ts')
    .map((f) => [path.relative(SRC, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8')]));

  test('every src file exporting a class is named after one of them, or is an explained exception', () => {
    expect(misnamed(files, NAME_EXCEPTIONS)).toEqual([]);
  });

  test('every exception is still needed and explained in its folder\'s index.ts', () => {
    for (const [file, why] of Object.entries(NAME_EXCEPTIONS)) {
      expect(why.length).toBeGreaterThan(20);
      expect(files[file]).toBeDefined();
      expect(misnamed({ [file]: files[file] }, {})).toEqual([`${file} holds ${exportedClasses(files[file]).join(', ')}`]);
      const index = fs.readFileSync(path.join(SRC, path.dirname(file), 'index.ts'), 'utf8');
      expect([file, index.includes(path.basename(file))]).toEqual([file, true]);
    }
  });

  test('the check sees a file named after something else, and accepts word breaks inside a name', () => {
    expect(misnamed({
      'core/input.ts': 'export class InputCheck {}\nexport class KubernetesText {}\n',
      'audit/registry.ts': 'export class AuditFingerprint {}\n',
      'catalog/openshift-operator-hub-policy.ts': 'export class OpenShiftOperatorHubPolicy {}\n',
      'olmv1/olm-v1-version-range.ts': 'export class OlmV1VersionRange {}\n',
      'core/markdown.ts': 'export function markdownText() {}\n',
    }, {})).toEqual(['audit/registry.ts holds AuditFingerprint', 'core/input.ts holds InputCheck, KubernetesText']);
  });
});
