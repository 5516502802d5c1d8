/**
 * The README's error examples, generated from the code: each entry is the text between
 * `<!-- <name>:start -->` and `<!-- <name>:end -->` in README.md. `test/readme-errors.test.ts` fails when the README
 * drifts; `npx ts-node --project scripts/tsconfig.json scripts/update-readme-examples.ts` rewrites the blocks.
 */
import { Testing } from 'cdk8s';
import { buildMistakes, synthFailure } from './errors-demo';
import { buildFailingTenant } from './preflight-demo';

/** Block name -> README text (a fenced code block with the synth output). */
export function readmeExamples(): { [name: string]: string } {
  const preflight = Testing.app(); // a temporary outdir: nothing is written into the repository
  buildFailingTenant(preflight);
  const mistakes = Testing.app();
  buildMistakes(mistakes);
  return {
    'preflight-errors': fenced(synthFailure(preflight)),
    'input-errors': fenced(synthFailure(mistakes)),
  };
}

/** `readme` with every generated block replaced. */
export function withReadmeExamples(readme: string): string {
  let out = readme;
  for (const [name, text] of Object.entries(readmeExamples())) {
    const start = `<!-- ${name}:start -->\n`;
    const end = `<!-- ${name}:end -->`;
    const i = out.indexOf(start);
    const j = out.indexOf(end, i);
    if (i < 0 || j < 0) throw new Error(`README.md has no ${start.trim()} ... ${end} block`);
    out = out.slice(0, i + start.length) + text + out.slice(j);
  }
  return out;
}

function fenced(text: string): string {
  return `\`\`\`\n${text}\n\`\`\`\n`;
}
