// Synthesizes the example platform into examples/out/. Filled in as the constructs land.
import * as path from 'path';
import { App } from 'cdk8s';

const outdir = path.join(__dirname, 'out');
const app = new App({ outdir });
app.synth();
console.log(`Synthesized the example platform into ${outdir}`);
