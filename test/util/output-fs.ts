import { _nodeOutputFsOps, OutputFsOps } from '../../src/output/output-writer';

/**
 * The writer's file system calls (`_setOutputFsOps`) with `beforeFileMade(path)` run before each file it makes: opened,
 * or written in one call (a new file's text: `OutputFsOps.writeTextFileSync`). A test stops, kills or fails the synth
 * there.
 */
export function beforeEachFileMade(beforeFileMade: (p: string) => void): OutputFsOps {
  return {
    ..._nodeOutputFsOps,
    openSync: (p, flags, mode) => {
      beforeFileMade(p);
      return _nodeOutputFsOps.openSync(p, flags, mode);
    },
    writeTextFileSync: (p, text, mode) => {
      beforeFileMade(p);
      _nodeOutputFsOps.writeTextFileSync!(p, text, mode);
    },
  };
}
