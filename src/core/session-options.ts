// The onnxruntime session options every model of the runtime is created with (the ProCap models in
// session.ts, the text reader's in read/ocr.ts), in one place.
import * as os from 'node:os';
import type ort from 'onnxruntime-node';

export function cpuSessionOptions(threads?: number): ort.InferenceSession.SessionOptions {
  return {
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    interOpNumThreads: 1,
    // the models are small (96x96 crops, text regions): more than a few threads only adds synchronisation
    intraOpNumThreads: threads ?? Math.min(4, os.availableParallelism()),
    // onnxruntime's CPU arena stays on. Without it a fresh process describing the 1080p bench pair
    // peaked ~100 MB lower at the same CPU time, but over 500 describes in a row the RSS of one
    // run grew by 107 MB (test/integration/load.test.ts allows 64) where it stays flat with it

    // no busy-waiting worker threads: on a shared 2-core machine (or beside the editor) spinning
    // threads steal the CPU the other thread needs; measured here under load: 2 threads went from
    // 1.6-3.3 s to 0.1-0.3 s of model time per 1080p describe (BENCHMARKS.md)
    extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
  };
}
