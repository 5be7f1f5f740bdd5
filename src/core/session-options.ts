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
    // no busy-waiting worker threads: on a shared 2-core machine (or beside the editor) spinning
    // threads steal the CPU the other thread needs; measured here under load: 2 threads went from
    // 1.6-3.3 s to 0.1-0.3 s of model time per 1080p describe (BENCHMARKS.md)
    // no CPU arena: the arena keeps the largest batch's buffers for the process's life; without it a
    // fresh process describing the 1080p bench pair peaks ~100 MB lower (396/422 -> 303/292 MB)
    // at the same CPU time per pair (4 full describes after a warm-up, arena on vs off, twice each)
    enableCpuMemArena: false,
    extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
  };
}
