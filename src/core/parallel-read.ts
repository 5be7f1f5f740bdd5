// Runs the text reader on the read thread (src/core/read-worker.ts) while this thread runs the ProCap
// models: onnxruntime-node runs a model on the calling thread, so the reader and the models only
// overlap on two threads. The thread starts, and loads the OCR models, when a review starts, so the
// models of a fresh process load at once too. One-core machines, pairs too large to copy into shared
// memory, and any failure of the thread read on the calling thread instead (the caller's fallback).
import * as os from 'node:os';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RgbaImage } from './image.js';
import type { Box } from './report.js';
import type { PairReading } from './read/pair.js';
import type { ReadRequest, ReadResponse, ReadThreadSettings } from './read-worker.js';

/** Largest image (pixels) copied into shared memory for the read thread (a 4K screen is 8.3 Mpx). */
export const READ_THREAD_MAX_PIXELS = 9_000_000;

/** The read thread's script: beside this module (tsc build), or read-worker.cjs beside a CommonJS bundle. */
function workerScript(): string {
  const metaUrl = (import.meta as { url?: string }).url;
  if (metaUrl) return fileURLToPath(new URL('./read-worker.js', metaUrl));
  const dir = typeof __dirname === 'string' ? __dirname : process.cwd();
  return path.join(dir, 'read-worker.cjs');
}

let thread: { worker: Worker; threads?: number } | undefined;
let nextId = 1;
const waiting = new Map<number, (response: ReadResponse | undefined) => void>();

function settleAll(): void {
  for (const done of waiting.values()) done(undefined);
  waiting.clear();
}

/**
 * Whether readings go to the read thread: two cores or more, and a pipeline given two intra-op threads
 * or more (`procap batch --jobs N` gives each of its N pipelines fewer: their cores are busy already).
 */
export function readsOnThread(threads?: number): boolean {
  return os.availableParallelism() >= 2 && (threads === undefined || threads >= 2);
}

function readThread(threads?: number): Worker | undefined {
  if (!readsOnThread(threads)) return undefined;
  if (thread && thread.threads === threads) return thread.worker;
  if (thread) void thread.worker.terminate();
  const script = workerScript();
  if (!existsSync(script)) return undefined;
  const worker = new Worker(script, { workerData: { threads } satisfies ReadThreadSettings });
  worker.on('message', (response: ReadResponse) => {
    const done = waiting.get(response.id);
    waiting.delete(response.id);
    if (waiting.size === 0) worker.unref();
    done?.(response);
  });
  const gone = () => {
    if (thread?.worker === worker) thread = undefined;
    settleAll();
  };
  worker.on('error', gone);
  worker.on('exit', gone);
  worker.unref(); // an idle read thread never keeps the process alive
  thread = { worker, threads };
  return worker;
}

function ask(worker: Worker, request: ReadRequest): Promise<ReadResponse | undefined> {
  return new Promise((resolve) => {
    waiting.set(request.id, resolve);
    worker.ref(); // the caller awaits the answer: keep the process alive until it comes
    worker.postMessage(request);
  });
}

/**
 * Starts the read thread and its OCR models loading, if readings go there. The promise says whether
 * they did load there (callers that only start it need not wait).
 */
export async function startReadThread(threads?: number): Promise<boolean> {
  const worker = readThread(threads);
  if (!worker) return false;
  const response = await ask(worker, { id: nextId++, type: 'load' });
  return !!response && 'loaded' in response;
}

/** `image` with its pixels in shared memory (the read thread sees them without a copy of its own). */
function shared(image: RgbaImage): RgbaImage {
  if (image.data.buffer instanceof SharedArrayBuffer) return image;
  const data = new Uint8Array(new SharedArrayBuffer(image.data.length));
  data.set(image.data);
  return { width: image.width, height: image.height, data };
}

/**
 * The pair's reading (readPair) done on the read thread, with its time there. Undefined when it
 * cannot be (one core, images over READ_THREAD_MAX_PIXELS, no thread script, the thread failed):
 * the caller reads on its own thread, which also reports any error as usual.
 */
export async function readElsewhere(
  before: RgbaImage,
  after: RgbaImage,
  boxes: Box[],
  threads?: number,
): Promise<{ reading: PairReading; readMs: number } | undefined> {
  if (before.width * before.height > READ_THREAD_MAX_PIXELS || after.width * after.height > READ_THREAD_MAX_PIXELS) return undefined;
  const worker = readThread(threads);
  if (!worker) return undefined;
  const response = await ask(worker, { id: nextId++, type: 'read', before: shared(before), after: shared(after), boxes });
  return response && 'reading' in response ? { reading: response.reading, readMs: response.readMs } : undefined;
}
