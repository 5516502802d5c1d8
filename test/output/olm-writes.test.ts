import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { OlmWrites } from '../../src';

/** The rows of the olm-writes table in docs/gitops.md: [group, kind, field, path, writer]. */
function docRows(): string[][] {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'gitops.md'), 'utf8');
  const start = doc.indexOf('<!-- olm-writes:start -->');
  const end = doc.indexOf('<!-- olm-writes:end -->');
  expect(start).toBeGreaterThan(0);
  const lines = doc.slice(start, end).split('\n').filter((l) => l.startsWith('|')).slice(2); // header, separator
  return lines.map((line) => line
    .slice(1, -1)
    .split(/(?<!\\)\|/) // cells: split on unescaped pipes
    .map((c) => c.trim().replace(/\\\|/g, '|').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/^`(.*)`$/, '$1'))
    .slice(0, 5));
}

/** [group, kind, path] of every ignoreDifferences entry of the generated Argo CD file. */
function snippetPaths(): string[][] {
  const doc = parse(OlmWrites.argoCdSnippet());
  return doc.ignoreDifferences.flatMap((e: any) => [
    ...(e.jsonPointers ?? []).map((p: string) => [e.group, e.kind, p]),
    ...(e.jqPathExpressions ?? []).map((p: string) => [e.group, e.kind, p]),
  ]);
}

describe('OlmWrites and docs/gitops.md', () => {
  test('the docs table names exactly the fields of OlmWrites.fields(), in order', () => {
    expect(docRows()).toEqual(OlmWrites.fields().map((f) => [
      f.group === '' ? 'core' : f.group, f.kind, f.field, f.jsonPointer ?? f.jqPathExpression, f.writer,
    ]));
  });

  test('the generated argocd/ignore-differences.yaml lists exactly the fields the docs name', () => {
    const fromDocs = docRows().map(([group, kind, , p]) => [group === 'core' ? '' : group, kind, p]);
    expect([...snippetPaths()].sort()).toEqual([...fromDocs].sort());
  });

  test('the Argo CD snippet: one entry per kind, JSON pointers vs jq path expressions, RespectIgnoreDifferences', () => {
    expect(parse(OlmWrites.argoCdSnippet())).toEqual({
      ignoreDifferences: [
        { group: 'operators.coreos.com', kind: 'OperatorGroup', jsonPointers: ['/metadata/annotations/olm.providedAPIs', '/status'] },
        { group: '', kind: 'Namespace', jqPathExpressions: ['.metadata.labels | select(. != null) | .[keys[] | select(startswith("olm.operatorgroup.uid/"))]'] },
        { group: '', kind: 'ServiceAccount', jsonPointers: ['/metadata/labels/olm.managed'] },
        { group: '', kind: 'Secret', jqPathExpressions: ['select(.type == "kubernetes.io/service-account-token") | .data'] },
        { group: 'operators.coreos.com', kind: 'CatalogSource', jsonPointers: ['/status'] },
        {
          group: 'operators.coreos.com',
          kind: 'Subscription',
          jsonPointers: ['/status'],
          jqPathExpressions: ['.metadata.labels | select(. != null) | .[keys[] | select(startswith("operators.coreos.com/"))]'],
        },
      ],
      syncPolicy: { syncOptions: ['RespectIgnoreDifferences=true'] },
    });
    expect(OlmWrites.argoCdSnippet().split('\n')[0]).toEqual('# Argo CD: merge into the spec of the Application (or ApplicationSet template) that syncs this folder.');
  });

  test('every field is reachable by exactly one of jsonPointer and jqPathExpression, pointers are RFC 6901', () => {
    for (const f of OlmWrites.fields()) {
      expect([f.kind, (f.jsonPointer === undefined) !== (f.jqPathExpression === undefined)]).toEqual([f.kind, true]);
      if (f.jsonPointer !== undefined) expect(f.jsonPointer).toMatch(/^(\/([^~/]|~[01])*)+$/);
    }
  });
});
