// The files cdk8s `App.synth()` writes for each `YamlOutputType`, written by `TenancyApp` for the layouts other than
// GitOps; internal, not re-exported.
import { ApiObject, Chart, Names, YamlOutputType } from 'cdk8s';
import { cappedName, OutputWriter } from './output-writer';
import { YamlWriter } from './yaml-writer';
import { SynthPass } from '../core/synth-pass';

/** One chart and its ApiObjects in the order cdk8s writes them (`chartToKube`). */
export interface ChartApiObjects {
  readonly chart: Chart;
  readonly apiObjects: ApiObject[];
}

/** What cdk8s names the files by (the App's props). */
export interface Cdk8sFileOptions {
  readonly outputFileExtension: string;
  readonly yamlOutputType: YamlOutputType;
}

/**
 * The files cdk8s `App.synth()` (cdk8s 2.70 `lib/app.js`) writes for `yamlOutputType`, with `out`; returns the number
 * of objects written. `hasDependantCharts`: charts depend on each other, so cdk8s prefixes their files `0000-`.
 */
export function writeLikeCdk8s(perChart: ChartApiObjects[], hasDependantCharts: boolean, out: OutputWriter, options: Cdk8sFileOptions): number {
  const ext = options.outputFileExtension;
  let count = 0;
  // cdk8s's names; a name too long for a file system (cdk8s fails with ENAMETOOLONG) is cut with a hash suffix
  const fileNameOf = (o: any) => cappedName(`${o.kind}.${o.metadata.name}`.replace(/[^0-9a-zA-Z-_.]/g, ''), ext);
  const saveYaml = (rel: string, docs: unknown[]) => out.write(rel, YamlWriter.stringify(docs));
  const namer = chartNamer(hasDependantCharts);
  switch (options.yamlOutputType) {
    case YamlOutputType.FILE_PER_APP: {
      const all = perChart.flatMap(({ apiObjects }) => apiObjects.map((o) => SynthPass.takeJson(o)));
      count = all.length;
      if (perChart.length > 0) saveYaml(`app${ext}`, all);
      break;
    }
    case YamlOutputType.FILE_PER_CHART:
      for (const { chart, apiObjects } of perChart) {
        const docs = apiObjects.map((o) => SynthPass.takeJson(o));
        count += docs.length;
        saveYaml(namer(chart) + ext, docs);
      }
      break;
    case YamlOutputType.FILE_PER_RESOURCE:
      for (const { apiObjects } of perChart) {
        for (const doc of apiObjects.map((o) => SynthPass.takeJson(o))) {
          if (doc === undefined) continue;
          count++;
          saveYaml(fileNameOf(doc), [doc]);
        }
      }
      break;
    case YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE:
      for (const { chart, apiObjects } of perChart) {
        const dir = namer(chart);
        out.mkdir(dir);
        for (const o of apiObjects) {
          count++;
          // cdk8s names the file from the ApiObject (not its JSON) here
          saveYaml(`${dir}/${fileNameOf(o)}`, [SynthPass.takeJson(o)]);
        }
      }
      break;
    default:
      break;
  }
  return count;
}

/** cdk8s's chart file and folder names: `Names.toDnsLabel(chart)`, prefixed `0000-` when charts depend on each other. */
function chartNamer(indexed: boolean): (chart: Chart) => string {
  let index = 0;
  return (chart) => {
    const name = Names.toDnsLabel(chart);
    if (!indexed) return name;
    return `${(index++).toString().padStart(4, '0')}-${name}`;
  };
}
