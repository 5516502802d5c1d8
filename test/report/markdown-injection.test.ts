/**
 * Issue 30, item 3: every value in TENANCY.md (text, tables, headings, the Mermaid diagram) is read back as the text
 * it is by a CommonMark reader (commonmark.js, the reference implementation): a bundle rule string with a newline and
 * `<!--` no longer opens an HTML block that swallows the Preflight, Upgrades, Access, Effective power and Off-boarding
 * sections. Property tests over generated strings made of what breaks Markdown.
 */
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Group } from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { AccessLevel, CatalogSourceReference, OperatorBundle, ScopedOperatorTenant } from '../../src';
import { addWarningProducer, Diagnostics } from '../../src/core/diagnostics';
import { markdownCode, markdownCodeCell, markdownFence, markdownText, mermaidLabel } from '../../src/core/markdown';
import { TenancyReport } from '../../src/report/tenancy-report';
import { DEMO_CSV } from '../util/demo-csv';
import '../util/fast-check-seed';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const commonmark = require('commonmark');

const BUNDLES = path.join(__dirname, '..', 'fixtures', 'bundles');
const etcd = OperatorBundle.fromDirectory(path.join(BUNDLES, 'etcd', '0.9.4'));
const prometheus = OperatorBundle.fromDirectory(path.join(BUNDLES, 'prometheus', '0.56.3'));

/** What breaks Markdown: block starts, inline starts, HTML, link references, fences, Mermaid-breaking characters. */
const FRAGMENTS = ['\n', '\r\n', '\r', '<!--', '-->', '<div>', '<script>', '</pre>', '<?', '<![CDATA[', '```', '~~~', '`', '``', '|', '\\', '\\|',
  '#', '## ', '# x #', '---', '===', '***', '___', '- ', '+ ', '* ', '1. ', '1) ', '> ', '    ', '\t', ' ', '  ', '[x]: /url', '[x]', '[a](b)',
  '![i](j)', '<http://e.x>', '&amp;', '&#35;', '&', '_a_', '*b*', '~~s~~', '"', "'", ';', '#quot;', '%%', '-->', '[[', ']]', '{', '}', '(', ')', '<br>',
  '\0', 'é', '名', 'x', 'team-a', '.', ':', '!'];
const hostile = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 12 }).map((xs) => xs.join(''));

/** A document's text as CommonMark reads it: text, code and HTML literals, soft breaks as `\n`. */
function textOf(node: any): string {
  let out = '';
  const walker = node.walker();
  let event;
  while ((event = walker.next())) {
    const n = event.node;
    if (!event.entering) continue;
    if (n.type === 'text' || n.type === 'code' || n.type === 'html_inline') out += n.literal;
    else if (n.type === 'softbreak' || n.type === 'linebreak') out += '\n';
  }
  return out;
}

/** Every node of a type, in document order. */
function nodes(doc: any, type: string): any[] {
  const out: any[] = [];
  const walker = doc.walker();
  let event;
  while ((event = walker.next())) if (event.entering && event.node.type === type) out.push(event.node);
  return out;
}

function parse(markdown: string): any {
  return new commonmark.Parser().parse(markdown);
}

/** A value with line endings as spaces, NUL as U+FFFD: what the report holds of it. */
function oneLine(s: string): string {
  return s.replace(/\r\n|\r|\n/g, ' ').replace(/\0/g, '\uFFFD');
}

/**
 * What CommonMark keeps of a value that ends a paragraph or heading: its final spaces and tabs go, except those it
 * starts with (written as character references, which are text).
 */
function atLineEnd(s: string): string {
  const lead = /^[ \t]*/.exec(s)![0];
  return lead + s.slice(lead.length).replace(/[ \t]+$/, '');
}

describe('issue 30 item 3: Markdown values read back as text (commonmark.js over generated strings)', () => {
  test('property: markdownText, markdownCode and markdownCodeCell in a list, a heading and a table row: the headings survive, each value reads back', () => {
    fc.assert(fc.property(hostile, (s) => {
      const one = oneLine(s);
      const doc = parse([
        '# Title', '',
        `- **item**: ${markdownText(s)}`,
        `- ${markdownText(s)}`,
        `- code ${markdownCode(s)} end`,
        '',
        `### ${markdownText(s)}`, '',
        '| a | b |', '|---|---|', `| ${markdownText(s)} | ${markdownCodeCell(s)} |`, '',
        '## After', '',
      ].join('\n'));
      const headings = nodes(doc, 'heading').map((h) => [h.level, textOf(h)]);
      expect(headings).toEqual([[1, 'Title'], [3, atLineEnd(one)], [2, 'After']]);
      const items = nodes(doc, 'item').map((i) => textOf(i));
      expect(items).toEqual([one === '' ? 'item:' : `item: ${atLineEnd(one)}`, atLineEnd(one), `code ${one === '' ? '(empty)' : one} end`]);
      // the table row, as CommonMark reads it (a paragraph): the cell values whole
      const paragraphs = nodes(doc, 'paragraph').filter((p) => p.parent.type === 'document').map(textOf);
      expect(paragraphs).toEqual([`| a | b |\n|---|---|\n| ${one} | ${one === '' ? '(empty)' : one} |`]);
      expect(nodes(doc, 'html_block')).toEqual([]);
      expect(nodes(doc, 'html_inline')).toEqual([]);
      expect(nodes(doc, 'link')).toEqual([]);
    }), { numRuns: 2000 });
  });

  test('property: markdownFence keeps every line inside its code block, whatever backticks the lines hold', () => {
    fc.assert(fc.property(fc.array(hostile, { minLength: 1, maxLength: 4 }), (lines) => {
      const doc = parse(['# T', '', ...markdownFence('text', lines), '', '## After', ''].join('\n'));
      const blocks = nodes(doc, 'code_block');
      expect(blocks.map((b) => [b.info, b.literal])).toEqual([['text', `${lines.map(oneLine).join('\n')}\n`]]);
      expect(nodes(doc, 'heading').map(textOf)).toEqual(['T', 'After']);
    }), { numRuns: 1000 });
  });

  test('property: mermaidLabel leaves no quote, line ending, backtick, <, >, or # outside an entity code', () => {
    fc.assert(fc.property(hostile, (s) => {
      const label = mermaidLabel(s);
      expect(label).not.toMatch(/["`<>\r\n]/);
      // every # starts an entity code, every & is inside one
      expect(label.replace(/#(quot|35|lt|gt|amp|96);/g, '')).not.toMatch(/[#&]/);
      // decoded as Mermaid does (entity codes to characters), the text is back
      const codes: { [k: string]: string } = { quot: '"', 35: '#', lt: '<', gt: '>', amp: '&', 96: '`' };
      expect(label.replace(/#(quot|35|lt|gt|amp|96);/g, (_m, c) => codes[c])).toEqual(oneLine(s));
    }), { numRuns: 1000 });
  });

  test('examples: a rule string with a newline and <!--, a | in a cell, a backtick run, a leading list marker', () => {
    expect(markdownText('pods\n<!-- hidden')).toEqual('pods \\<!-- hidden');
    expect(markdownText('a|b')).toEqual('a\\|b');
    expect(markdownText('- item')).toEqual('\\- item');
    expect(markdownText('1. first')).toEqual('1\\. first');
    expect(markdownText('  x')).toEqual('&#32;&#32;x');
    expect(markdownText('[a](javascript:x)')).toEqual('\\[a\\](javascript:x)');
    expect(markdownText('see [a](javascript:x)')).toEqual('see [a\\](javascript:x)');
    expect(markdownText('team-a [etcd] v0.9.4')).toEqual('team-a [etcd] v0.9.4');
    expect(markdownCode('get pods')).toEqual('`get pods`');
    expect(markdownCode('a`b')).toEqual('``a`b``');
    expect(markdownCode('`x')).toEqual('`` `x ``');
    expect(markdownCodeCell('a|b')).toEqual('a\\|b');
    expect(markdownFence('text', ['```', 'x'])).toEqual(['````text', '```', 'x', '````']);
    expect(mermaidLabel('a"b')).toEqual('a#quot;b');
  });
});

describe('issue 30 item 3: TENANCY.md with hostile values', () => {
  /** A bundle whose operator reads one ConfigMap named `s` (a rule string of the bundle). */
  function bundleWith(s: string): OperatorBundle {
    const csv = parseYaml(DEMO_CSV);
    csv.spec.install.spec.permissions[0].rules[0].resourceNames = [s];
    return OperatorBundle.fromCsvObject(csv);
  }

  /** The report of tenants whose bundle and warnings carry `s`: team-a derives its installer rules, team-b lacks them. */
  function report(s: string): string {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const tenant = new ScopedOperatorTenant(chart, 'T', { namespaceName: 'team-a', deriveInstallerRules: true });
    const catalog = CatalogSourceReference.fromName('cat', 'olm');
    tenant.subscribe({ packageName: 'etcd', channel: 'singlenamespace-alpha', catalog, bundle: etcd });
    tenant.subscribe({ packageName: 'demo', channel: 'stable', catalog, bundle: bundleWith(s) });
    tenant.grantOperatorAccess(Group.fromName(chart, 'G', 'team-a-admins'), AccessLevel.ADMIN);
    tenant.removeOperator({ packageName: 'prometheus', csvName: 'prometheusoperator.0.56.3', bundle: prometheus });
    const lacking = new ScopedOperatorTenant(chart, 'B', { namespaceName: 'team-b' });
    lacking.subscribe({ packageName: 'demo', channel: 'stable', catalog, bundle: bundleWith(s) });
    // a finding whose value and message carry the string (as a bundle's rule string does)
    addWarningProducer(tenant, () => [{ code: 'Injected', field: 'rules', value: s, message: `rule ${s}`, fix: `drop ${s}` },
      // and an accepted one, in the Accepted risks table (issue 42)
      { code: 'InjectedAccepted', field: 'rules', value: s, message: `rule ${s}`, acceptedBy: 'acceptedReach', acceptedReason: `because ${s}` }]);
    return TenancyReport.markdown(app, { title: 'Tenancy' });
  }

  const HEADINGS = ['Tenancy', 'Warnings', 'Accepted risks', 'Who installs what, and who may do what', 'Subscriptions', 'Installer permissions',
    'team-a (ServiceAccount team-a/team-a)', 'team-b (ServiceAccount team-b/team-b)', 'Preflight results', 'Allowed upgrades and their permission diffs', 'Access',
    'Effective power (audit)', 'Off-boarding: what OLM leaves behind'];

  test('GIVEN a rule string with a newline and <!-- (the issue\'s case) THEN every section heading survives', () => {
    const doc = parse(report('pods\n<!-- everything below is hidden'));
    expect(nodes(doc, 'heading').map(textOf)).toEqual(HEADINGS);
    expect(nodes(doc, 'html_block')).toEqual([]);
  });

  test('property: every section heading survives, the values read back as text, the Mermaid block stays whole', () => {
    fc.assert(fc.property(hostile.filter((s) => s.length <= 40), (s) => {
      const markdown = report(s);
      const doc = parse(markdown);
      expect(nodes(doc, 'heading').map(textOf)).toEqual(HEADINGS);
      expect(nodes(doc, 'html_block')).toEqual([]);
      expect(nodes(doc, 'html_inline')).toEqual([]);
      const text = textOf(doc);
      // the warning's message (one line, as the warnings table writes it); the bundle's rule string in team-a's
      // installer rules and in team-b's missing rules (code spans)
      expect(text).toContain(`| rule ${Diagnostics.oneLine(s)} | drop ${Diagnostics.oneLine(s)} |`);
      const codes = nodes(doc, 'code').map((c) => c.literal);
      expect(codes.filter((c: string) => c.includes(`ResourceNames:[${JSON.stringify(oneLine(s))}]`) || c.includes(`ResourceNames:[${oneLine(s)}]`)).length).toBeGreaterThanOrEqual(2);
      // the diagram: one code block whose every line is a Mermaid statement, labels without a raw quote
      const mermaid = nodes(doc, 'code_block').filter((b) => b.info === 'mermaid');
      expect(mermaid.length).toEqual(1);
      for (const line of mermaid[0].literal.trimEnd().split('\n').slice(1)) {
        expect(line).toMatch(/^ {2}[A-Za-z0-9_]+(\[\("[^"]*"\)\]|\["[^"]*"\]|\(\["[^"]*"\]\) -- "[^"]*" --> [A-Za-z0-9_]+| --> [A-Za-z0-9_]+(\["[^"]*"\])?)$/);
      }
      expect(mermaid[0].literal).toContain('Group team-a-admins');
    }), { numRuns: 40 });
  });
});
