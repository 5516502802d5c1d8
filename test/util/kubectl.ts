/**
 * kubectl as the real YAML reader of the tests: `kubectl label --local -f FILE <probe>- -o json` decodes a file
 * exactly as kubectl, Argo CD and Flux do (sigs.k8s.io/yaml on go-yaml v2), without a cluster; removing a label no
 * object has changes nothing but an absent `metadata.labels`, which becomes `{}` (`normalized` drops empty ones on
 * both sides). `kubectl kustomize DIR` builds a GitOps folder. Calls are batched (one multi-document file per call):
 * kubectl starts in ~50-100 ms.
 *
 * When kubectl is not on PATH the tests that need it are skipped with a message (CI's `.ci/run` requires it).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Whether kubectl runs here. */
export const HAS_KUBECTL: boolean = (() => {
  try {
    return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
  } catch {
    return false;
  }
})();

const SKIP_REASON = 'kubectl is not on PATH: the tests that read the output with Kubernetes\' own YAML reader are skipped (CI runs them: .ci/run requires kubectl)';

/** `describe` when kubectl is available, else one skipped test saying why (and a console message). */
export function describeWithKubectl(name: string, fn: () => void): void {
  if (HAS_KUBECTL) {
    describe(name, fn);
  } else {
    describe(name, () => {
      // eslint-disable-next-line no-console
      console.warn(`${name}: ${SKIP_REASON}`);
      test.skip(SKIP_REASON, () => undefined);
    });
  }
}

/** A label key no object of the tests has. */
const PROBE = 'kubectl-read.test/probe';

/** The objects kubectl reads from a YAML file; throws kubectl's error when it refuses the file. */
export function kubectlReadFile(file: string): any[] {
  const r = spawnSync('kubectl', ['label', '--local', '-f', file, `${PROBE}-`, '-o', 'json'], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`kubectl refused ${path.basename(file)}: ${r.stderr.trim()}`);
  return splitJson(r.stdout).map(normalized);
}

/**
 * The objects kubectl reads from several YAML files, one file after the other in the order given: one kubectl call
 * (`-f` per file), the same objects as `files.flatMap(kubectlReadFile)`; throws kubectl's error when it refuses one.
 */
export function kubectlReadFiles(files: string[]): any[] {
  if (files.length === 0) return [];
  const r = spawnSync('kubectl', ['label', '--local', ...files.flatMap((f) => ['-f', f]), `${PROBE}-`, '-o', 'json'], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`kubectl refused one of ${files.map((f) => path.basename(f)).join(', ')}: ${r.stderr.trim()}`);
  return splitJson(r.stdout).map(normalized);
}

/** The objects kubectl reads from YAML text (one call per text). */
export function kubectlRead(yamlText: string): any[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'olmt-kubectl-'));
  try {
    const file = path.join(dir, 'objects.yaml');
    fs.writeFileSync(file, yamlText, 'utf8');
    return kubectlReadFile(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What kubectl says about YAML text it refuses (`undefined` when it reads it). */
export function kubectlError(yamlText: string): string | undefined {
  try {
    kubectlRead(yamlText);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** `kubectl kustomize DIR`: the built objects' YAML, or kubectl's error. */
export function kubectlKustomize(dir: string): { ok: boolean; output: string } {
  const r = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  return { ok: r.status === 0, output: r.status === 0 ? r.stdout : r.stderr };
}

/** An object as JSON gives it (what a reader can hold), without an empty `metadata.labels` (see the file comment). */
export function normalized(o: any): any {
  const copy = JSON.parse(JSON.stringify(o));
  if (copy?.metadata?.labels !== undefined && Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
  return copy;
}

/** Concatenated JSON values (kubectl prints one per object) split and parsed. */
function splitJson(text: string): any[] {
  const out: any[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') {
        i++;
      } else if (c === '"') {
        inString = false;
      }
      continue;
    }
    if (c === '"') {
      inString = true;
    } else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return out;
}
