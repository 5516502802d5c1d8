/**
 * Values in the Markdown the library writes (TENANCY.md): every value read back as the text it is, by a CommonMark
 * reader (GitHub's GFM included), whatever it holds. A bundle's rule string with a newline and `<!--` must not open
 * an HTML block that hides the sections below it; a `|` must not split a table cell; a `"` must not end a Mermaid
 * label.
 *
 * How (CommonMark 0.31, https://spec.commonmark.org/0.31.2/):
 * - line endings (`\n`, `\r\n`, `\r`) become spaces: a value never starts a line, so it cannot start a block
 *   (an HTML block `<!--`, a heading, a fence, a link reference definition, a setext underline `---`);
 * - a value may still start a container's content (`- <value>`, a table cell): what would start a block there
 *   (`#`, `>`, `-`, `+`, `=`, `[`, `1.`, `1)`, indentation) is escaped at its start;
 * - the characters that start inline constructs are backslash-escaped (§2.4: any ASCII punctuation may be):
 *   `\` `` ` `` `*` `<` `&` `|` `~` `#`, `_` but between letters or digits, and `]` before `(` (an inline link or
 *   image);
 *   a shortcut reference `[x]` stays text because no value can define a reference (see above);
 * - code spans (`markdownCode`) use a backtick string longer than any run inside (§6.1), padded when the value starts
 *   or ends with a backtick; in a table cell, a value with `|` is written as escaped text instead (GFM splits cells
 *   on `|` even inside code spans, and CommonMark keeps a backslash there);
 * - Mermaid labels (`mermaidLabel`) hold their text with Mermaid's entity codes for `"`, `#`, `<`, `>`, `&` and
 *   the backtick (Mermaid flowchart syntax, "Entity codes to escape characters").
 */

/** `s` as Markdown text: read back as `s` (line endings as spaces) wherever an inline value may stand. */
export function markdownText(s: string): string {
  // an `_` between letters or digits neither opens nor closes emphasis (§6.2, left- and right-flanking): kept
  let out = oneLine(s).replace(/[\\`*_<&|~#]|\](?=\()/g, (c, at: number, all: string) =>
    (c === '_' && WORD.test(all.charAt(at - 1)) && WORD.test(all.charAt(at + 1)) ? c : `\\${c}`));
  // what would start a block at the start of a container's content
  const lead = /^[ \t]+/.exec(out);
  if (lead) out = lead[0].replace(/ /g, '&#32;').replace(/\t/g, '&#9;') + out.slice(lead[0].length);
  else if (/^[->+=[]/.test(out)) out = `\\${out}`;
  else out = out.replace(/^([0-9]{1,9})([.)])/, '$1\\$2');
  return out;
}

/** `s` as a Markdown code span (read back as `s`, line endings as spaces); empty text as `(empty)`. */
export function markdownCode(s: string): string {
  const text = oneLine(s);
  if (text === '') return '(empty)';
  const runs = text.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  // CommonMark strips one space from each side when both are spaces (and not all is space): pad so it strips ours
  const pad = text.startsWith('`') || text.endsWith('`') || (/^ .* $/.test(text) && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** `s` in a GFM table cell: a code span, or escaped text when it holds a `|` (which GFM splits cells on). */
export function markdownCodeCell(s: string): string {
  return oneLine(s).includes('|') ? markdownText(s) : markdownCode(s);
}

/** A fenced code block of `lines` (each one line) with a fence longer than any backtick run in them. */
export function markdownFence(info: string, lines: string[]): string[] {
  const body = lines.map(oneLine);
  const runs = body.flatMap((l) => l.match(/`+/g) ?? []);
  const fence = '`'.repeat(Math.max(2, ...runs.map((r) => r.length)) + 1);
  return [`${fence}${info}`, ...body, fence];
}

/** `s` inside a double-quoted Mermaid label: one line, `"` `#` `<` `>` `&` and backticks as Mermaid entity codes. */
export function mermaidLabel(s: string): string {
  const codes: { [c: string]: string } = { '"': '#quot;', '#': '#35;', '<': '#lt;', '>': '#gt;', '&': '#amp;', '`': '#96;' };
  return oneLine(s).replace(/["#<>&`]/g, (c) => codes[c]);
}

const WORD = /^[\p{L}\p{N}]$/u;

/** Line endings as spaces; NUL as U+FFFD (as CommonMark reads it). */
function oneLine(s: string): string {
  return s.replace(/\r\n|\r|\n/g, ' ').replace(/\0/g, '\uFFFD');
}
