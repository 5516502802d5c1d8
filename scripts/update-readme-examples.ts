/** Rewrites the generated error examples of README.md (see examples/readme-examples.ts). */
import * as fs from 'fs';
import * as path from 'path';
import { withReadmeExamples } from '../examples/readme-examples';

const file = path.join(__dirname, '..', 'README.md');
fs.writeFileSync(file, withReadmeExamples(fs.readFileSync(file, 'utf8')));
console.log(`updated the generated examples in ${path.relative(process.cwd(), file)}`);
