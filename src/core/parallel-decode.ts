// Decodes the after image of a large pair on a second thread while the calling thread decodes the
// before image: PNG decoding is most of the pixel work on a 4K screen or a tall page (unfiltering
// runs in JavaScript), and the two images are independent. Small pairs, one-core machines and pairs
// whose memory budget has no room for both decodes at once stay on one thread.
import * as os from 'node:os';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImageLimits, PairMemoryInput, RgbaImage } from './image.js';
import type { DecodeRequest, DecodeResponse } from './decode-worker.js';

/** Both images at least this large (pixels) before a second thread pays for itself (its start ~30 ms). */
export const PARALLEL_DECODE_MIN_PIXELS = 4_000_000;

/** Whether a pair is decoded on two threads: both large, two cores, and memory for both decodes at once. */
export function decodeInParallel(before: PairMemoryInput, after: PairMemoryInput, limits: ImageLimits): boolean {
  if (os.availableParallelism() < 2) return false;
  if (before.width * before.height < PARALLEL_DECODE_MIN_PIXELS || after.width * after.height < PARALLEL_DECODE_MIN_PIXELS) return false;
  // both files, the after file's copy sent to the thread, and both images' decode buffers at once
  return before.fileBytes + 2 * after.fileBytes + before.decodeBytes + after.decodeBytes <= limits.maxMemoryBytes;
}

/**
 * Whether a cold start decodes both images on the decode thread while the calling thread loads the
 * models: two cores, and memory for both files' copies sent to the thread beside both decodes.
 */
export function decodeBothElsewhere(before: PairMemoryInput, after: PairMemoryInput, limits: ImageLimits): boolean {
  if (os.availableParallelism() < 2) return false;
  return 2 * (before.fileBytes + after.fileBytes) + before.decodeBytes + after.decodeBytes <= limits.maxMemoryBytes;
}

/** The decode thread's script: beside this module (tsc build), or decode-worker.cjs beside a CommonJS bundle. */
function workerScript(): string {
  const metaUrl = (import.meta as { url?: string }).url;
  if (metaUrl) return fileURLToPath(new URL('./decode-worker.js', metaUrl));
  const dir = typeof __dirname === 'string' ? __dirname : process.cwd();
  return path.join(dir, 'decode-worker.cjs');
}

let thread: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, (image: RgbaImage | undefined) => void>();

function settleAll(): void {
  for (const done of waiting.values()) done(undefined);
  waiting.clear();
}

function decodeThread(): Worker | undefined {
  if (thread) return thread;
  const script = workerScript();
  if (!existsSync(script)) return undefined;
  const worker = new Worker(script);
  worker.on('message', (response: DecodeResponse) => {
    const done = waiting.get(response.id);
    waiting.delete(response.id);
    if (waiting.size === 0) worker.unref();
    done?.('failed' in response ? undefined : { width: response.width, height: response.height, data: response.data });
  });
  const gone = () => {
    if (thread === worker) thread = undefined;
    settleAll();
  };
  worker.on('error', gone);
  worker.on('exit', gone);
  worker.unref(); // an idle decode thread never keeps the process alive
  thread = worker;
  return worker;
}

/**
 * Decodes PNG bytes on the decode thread. Undefined when it cannot (no thread script, the thread
 * died, the PNG did not decode there): the caller decodes in its own thread, which also gives the
 * usual error for a bad file.
 */
export function decodeElsewhere(bytes: Uint8Array, file: string, limits: ImageLimits): Promise<RgbaImage | undefined> {
  const worker = decodeThread();
  if (!worker) return Promise.resolve(undefined);
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    worker.ref(); // the caller awaits the answer: keep the process alive until it comes
    worker.postMessage({ id, bytes, file, limits } satisfies DecodeRequest);
  });
}
