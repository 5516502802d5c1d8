/**
 * Synthesis helpers for tests: the objects and YAML of a cdk8s App, in memory (nothing is written to disk).
 * Both run the App's validations, so a construct error fails the test with cdk8s's own message.
 */
import { App, Chart, Testing, Yaml } from 'cdk8s';
import { IConstruct } from 'constructs';
import { setNeverAcceptable } from '../../src/core/never-acceptable';

/**
 * `app` with no policy id on the never-acceptable list (as `TenancyAppProps.neverAcceptable: []` sets it), for
 * tests whose setup accepts cluster-admin reach (OLMT-026) on purpose to exercise something else; plain cdk8s Apps
 * have no prop for it.
 */
export function acceptingEverything<T extends IConstruct>(app: T): T {
  setNeverAcceptable(app, []);
  return app;
}

/** A fresh test App (`Testing.app()`) with one Chart, `platform`. */
export function appAndChart(): { app: App; chart: Chart } {
  const app = Testing.app();
  return { app, chart: new Chart(app, 'platform') };
}

/**
 * The validation errors of `scope` and everything below it, without synthesizing: each construct's
 * `node.validate()` in tree order, formatted `[path] message` as `app.synth()` prints them. For the errors a synth
 * actually fails with (the header checked, a TypeError failing the test) use `synthErrorLines`.
 */
export function validationErrors(scope: IConstruct): string[] {
  return scope.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
}

/** Every object of every chart of `app`, chart by chart in `app.charts` order, each as `chart.toJson()` gives it. */
export function synthObjects(app: App): any[] {
  return app.charts.flatMap((chart) => chart.toJson());
}

/** The whole App as one multi-document YAML string (`app.synthYaml()`), as `cdk8s synth` would write it. */
export function synthYaml(app: App): string {
  return app.synthYaml();
}

/** YAML of a list of objects, with cdk8s's own serializer (same quoting and key order as `cdk8s synth`). */
export function toYaml(objects: any[]): string {
  return Yaml.stringify(...objects);
}

/**
 * What `app.synthYaml()` fails with, one finding per line with cdk8s's header removed ([] when it synthesizes);
 * a JS TypeError instead of cdk8s's validation error fails the calling test.
 */
export function synthErrorLines(app: App): string[] {
  try {
    app.synthYaml();
    return [];
  } catch (e) {
    expect(e).not.toBeInstanceOf(TypeError);
    const [header, ...lines] = (e as Error).message.split('\n');
    expect(header).toEqual('Validation failed with the following errors:');
    return lines.map((l) => l.trim());
  }
}
