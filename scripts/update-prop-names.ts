/** Rewrites src/core/prop-names.ts from the interfaces of src/ (see scripts/prop-names.ts). */
import * as fs from 'fs';
import * as path from 'path';
import { propNamesModule } from './prop-names';

const file = path.join(__dirname, '..', 'src', 'core', 'prop-names.ts');
fs.writeFileSync(file, propNamesModule());
console.log(`updated ${path.relative(process.cwd(), file)}`);
