// Writes the generated section of docs/escalation-paths.md (between <!-- mechanisms:start --> and
// <!-- mechanisms:end -->) from the mechanism tables: npx ts-node --project scripts/tsconfig.json scripts/escalation-paths-tables.ts
import * as fs from 'fs';
import * as path from 'path';
import { mechanismTablesMarkdown } from '../src/audit/mechanisms/doc-tables';

const file = path.join(__dirname, '..', 'docs', 'escalation-paths.md');
const text = fs.readFileSync(file, 'utf8');
const re = /(<!-- mechanisms:start -->\n)[\s\S]*?(\n<!-- mechanisms:end -->)/;
if (!re.test(text)) throw new Error(`${file}: no <!-- mechanisms:start --> ... <!-- mechanisms:end --> section`);
fs.writeFileSync(file, text.replace(re, (_m, a: string, b: string) => `${a}${mechanismTablesMarkdown()}${b}`));
