/**
 * The `yaml` package, loaded when first needed. Internal: not re-exported.
 *
 * cdk8s bundles its own copy of `yaml` and loads it with every app. When that copy is the version this package
 * depends on (the same code), the library reads and writes with it instead of loading a second copy (about 70
 * modules at startup); another version, or none found, and the library's own dependency is loaded.
 */
import * as path from 'path';

type YamlModule = typeof import('yaml');

let shared: YamlModule | undefined;
let ofCdk8s: YamlModule | undefined;

/** The `yaml` this package depends on (cdk8s's copy when it is the same version). */
export function yamlModule(): YamlModule {
  return shared ??= sameVersionCopy() ?? ownYaml();
}

/**
 * The `yaml` module cdk8s writes with (its bundled copy), whose tags and number rendering decide cdk8s's output;
 * this package's own when cdk8s's cannot be found.
 */
export function cdk8sYamlModule(): YamlModule {
  if (ofCdk8s === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      ofCdk8s = require(require.resolve('yaml', { paths: [cdk8sDir()] })) as YamlModule;
    } catch {
      ofCdk8s = ownYaml();
    }
  }
  return ofCdk8s;
}

function cdk8sDir(): string {
  return path.dirname(require.resolve('cdk8s'));
}

function ownYaml(): YamlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('yaml');
}

function sameVersionCopy(): YamlModule | undefined {
  try {
    const theirs = require.resolve('yaml/package.json', { paths: [cdk8sDir()] });
    const ours = require.resolve('yaml/package.json');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (theirs !== ours && require(theirs).version !== require(ours).version) return undefined;
    return cdk8sYamlModule();
  } catch {
    return undefined;
  }
}
