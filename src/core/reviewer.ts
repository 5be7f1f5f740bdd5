// Reviewer: the API the VS Code extension, the CLI and the benchmark use. Each describe runs in a
// worker thread (worker.ts) so the caller's event loop never blocks; requests are queued and run
// one at a time; an AbortSignal cancels a queued request at once and a running one at the next
// stage boundary (the worker is restarted if it does not stop in time). See docs/API.md.
import * as path from 'node:path';
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Box, ChangeRegion, ChangeReport } from './report.js';
import type { ProviderChoice } from './session.js';
import type { SerializedError, WorkerDescribeOptions, WorkerRequest, WorkerResponse, WorkerSettings } from './worker.js';

/** How many described pairs the worker keeps ready for their procedure frames (a few hundred KB each). */
export const KEPT_REVIEWS = 8;

/** The error name of a 'procedure' request whose describe the worker no longer keeps (describe again, with frames). */
export const PROCEDURE_GONE = 'ProcedureGone';

export interface ReviewerOptions {
  /** folder with contract.json, vocab.json and the ONNX models. */
  modelsDir: string;
  /** 'auto' (default) tries CUDA and falls back to CPU; the report says which ran and why. */
  provider?: ProviderChoice;
  /** intra-op threads of each model session (default: the number of CPUs, at most 4). */
  threads?: number;
  /** folder for optimised models (src/core/model-cache.ts; default: the user's cache folder; false: none). */
  cacheDir?: string | false;
  /** 1 = greedy (default), > 1 = beam search width. */
  beamWidth?: number;
  /** keyframes shown in the procedure (default: the model's k). */
  keyframes?: number;
  /** pixelmatch colour threshold 0..1 (default 0.1). */
  diffThreshold?: number;
  /** largest accepted image in pixels (width*height). */
  maxImagePixels?: number;
  /** memory budget of a pair's pixel buffers in MB, checked before decoding (default 1024). */
  maxMemoryMB?: number;
  /** compute procedure frames (default true). */
  procedure?: boolean;
  /** the worker script; default: worker.js next to this module, or core-worker.cjs next to a CommonJS bundle. */
  workerPath?: string;
  /** how long a running describe may take to stop after cancel before the worker is restarted (ms). */
  hardCancelMs?: number;
}

export interface ReviewRequestOptions {
  signal?: AbortSignal;
  /** called with the region captions as soon as they exist, before the procedure frames. */
  onCaptions?: (regions: ChangeRegion[], elapsedMs: number) => void;
  /** per-request overrides */
  beamWidth?: number;
  procedure?: boolean;
  beforeName?: string;
  afterName?: string;
  /** ignore regions [x0, y0, x1, y1) of this pair (DescribeOptions.masks). */
  masks?: Box[];
  /** differences under these are "no visible change" (DescribeOptions.minDiffPixels / minDiffRatio). */
  minDiffPixels?: number;
  minDiffRatio?: number;
}

/** An error raised in the worker, rebuilt on the caller's side with the same name and file. */
export class ReviewError extends Error {
  readonly file?: string;
  constructor(serialized: SerializedError) {
    super(serialized.message);
    this.name = serialized.name;
    this.file = serialized.file;
  }
}

function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('the review was cancelled', 'AbortError');
}

/** Where the worker script is, for a tsc build (ESM) and for an esbuild CommonJS bundle. */
export function defaultWorkerPath(): string {
  const metaUrl = (import.meta as { url?: string }).url;
  if (metaUrl) return fileURLToPath(new URL('./worker.js', metaUrl));
  // bundled as CommonJS: the worker is expected as core-worker.cjs next to the bundle
  const dir = typeof __dirname === 'string' ? __dirname : process.cwd();
  return path.join(dir, 'core-worker.cjs');
}

/** A pair described by the worker, whose procedure frames it imagines only when asked for. */
export interface ReviewerReview {
  /** the report without procedure frames */
  report: ChangeReport;
  /**
   * The report with the procedure frames, computed in the worker from what the describe kept (or, if
   * the worker no longer keeps it, by describing the pair again with frames). Computed once; a
   * cancelled ask is retried by the next.
   */
  withProcedure(signal?: AbortSignal): Promise<ChangeReport>;
}

interface Job {
  id: number;
  before: string | Uint8Array;
  after: string | Uint8Array;
  options: WorkerDescribeOptions;
  /** a describe whose frames come later ('later'), or the frames of the kept describe `of` */
  later?: boolean;
  of?: number;
  signal?: AbortSignal;
  onCaptions?: ReviewRequestOptions['onCaptions'];
  resolve: (report: ChangeReport) => void;
  reject: (err: Error) => void;
  settled: boolean;
  detachAbort?: () => void;
}

export class Reviewer {
  private readonly options: ReviewerOptions;
  private readonly workerPath: string;
  private worker?: Worker;
  private readonly queue: Job[] = [];
  private active?: Job;
  /** a cancelled job still running in the worker: the next one waits for it to stop. */
  private stopping?: { id: number; timer: NodeJS.Timeout; cancelledAt: number };
  private readonly warmWaiters = new Map<number, { resolve: (v: WarmInfo) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private disposed = false;
  /** number of times the worker was (re)started, for tests and diagnostics. */
  workerStarts = 0;
  /** where the last procedure frames of a review came from, for tests and diagnostics. */
  lastProcedure?: 'kept' | 'described-again';
  /** how the last cancelled running request ended in the worker, and how long stopping took. */
  lastCancel?: { id: number; outcome: 'stopped' | 'finished-anyway' | 'worker-restarted'; stopMs: number };

  constructor(options: ReviewerOptions) {
    if (!options || typeof options.modelsDir !== 'string' || !options.modelsDir) {
      throw new TypeError('Reviewer: options.modelsDir (the folder with the ONNX models) is required');
    }
    if (!fs.existsSync(options.modelsDir)) {
      throw new Error(`${options.modelsDir}: the models folder does not exist`);
    }
    this.options = { ...options, modelsDir: path.resolve(options.modelsDir) };
    this.workerPath = options.workerPath ?? defaultWorkerPath();
    if (!fs.existsSync(this.workerPath)) {
      throw new Error(`${this.workerPath}: the review worker script is missing (build with \`npm run build\`, or pass workerPath)`);
    }
  }

  /** Requests waiting or running. */
  get pending(): number {
    return this.queue.length + (this.active ? 1 : 0);
  }

  /** Describes a pair (PNG paths or PNG bytes) in the worker. Rejects with AbortError when cancelled. */
  describe(before: string | Uint8Array, after: string | Uint8Array, request: ReviewRequestOptions = {}): Promise<ChangeReport> {
    return this.enqueue(before, after, request, {}).then((job) => job.report);
  }

  /**
   * The report of a pair without its procedure frames, and a way to have them later (the panel's
   * player): a review is ready about a third sooner than a describe with frames, and pairs nobody
   * opens (a pull request's tree, inline annotations) never pay for them.
   */
  async review(before: string | Uint8Array, after: string | Uint8Array, request: ReviewRequestOptions = {}): Promise<ReviewerReview> {
    const { id, report } = await this.enqueue(before, after, request, { later: true });
    let pending: Promise<ChangeReport> | undefined;
    const framed = async (signal?: AbortSignal): Promise<ChangeReport> => {
      try {
        const framed = (await this.enqueue(before, after, { ...request, signal, onCaptions: undefined }, { of: id })).report;
        this.lastProcedure = 'kept';
        return framed;
      } catch (err) {
        if ((err as Error).name !== PROCEDURE_GONE) throw err;
        // the worker was restarted, or has kept newer pairs since: describe this one again, with frames
        const framed = await this.describe(before, after, { ...request, signal, onCaptions: undefined, procedure: true });
        this.lastProcedure = 'described-again';
        return framed;
      }
    };
    return {
      report,
      withProcedure: (signal) => {
        pending ??= framed(signal).catch((err: unknown) => {
          pending = undefined;
          throw err;
        });
        return pending;
      },
    };
  }

  private enqueue(
    before: string | Uint8Array,
    after: string | Uint8Array,
    request: ReviewRequestOptions,
    how: { later?: boolean; of?: number },
  ): Promise<{ id: number; report: ChangeReport }> {
    if (this.disposed) return Promise.reject(new Error('Reviewer: describe() called after dispose()'));
    if (request.signal?.aborted) return Promise.reject(abortError(request.signal));
    return new Promise<{ id: number; report: ChangeReport }>((resolve, reject) => {
      const o = this.options;
      const id = this.nextId++;
      const job: Job = {
        id,
        ...how,
        before,
        after,
        options: {
          beamWidth: request.beamWidth ?? o.beamWidth,
          keyframes: o.keyframes,
          diffThreshold: o.diffThreshold,
          maxImagePixels: o.maxImagePixels,
          maxMemoryMB: o.maxMemoryMB,
          procedure: request.procedure ?? o.procedure,
          beforeName: request.beforeName,
          afterName: request.afterName,
          masks: request.masks,
          minDiffPixels: request.minDiffPixels,
          minDiffRatio: request.minDiffRatio,
        },
        signal: request.signal,
        onCaptions: request.onCaptions,
        resolve: (report) => resolve({ id, report }),
        reject,
        settled: false,
      };
      if (request.signal) {
        const onAbort = () => this.cancel(job);
        request.signal.addEventListener('abort', onAbort, { once: true });
        job.detachAbort = () => request.signal?.removeEventListener('abort', onAbort);
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Loads every model now, so the first describe does not pay for it. */
  warmUp(): Promise<WarmInfo> {
    if (this.disposed) return Promise.reject(new Error('Reviewer: warmUp() called after dispose()'));
    const id = this.nextId++;
    return new Promise<WarmInfo>((resolve, reject) => {
      this.warmWaiters.set(id, { resolve, reject });
      this.post({ type: 'warm', id });
    });
  }

  /** Rejects everything pending, releases the models and stops the worker. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const gone = new Error('Reviewer: disposed');
    for (const job of this.queue.splice(0)) this.settle(job, undefined, gone);
    if (this.active) this.settle(this.active, undefined, gone);
    this.active = undefined;
    for (const w of this.warmWaiters.values()) w.reject(gone);
    this.warmWaiters.clear();
    if (this.stopping) clearTimeout(this.stopping.timer);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await this.retire(worker, 10_000);
  }

  /**
   * Stops a worker without terminate(): terminating a thread while onnxruntime runs a model
   * aborts the whole process. The worker aborts its describe at the next stage boundary,
   * releases its sessions and ends by itself; we wait for that at most `waitMs`.
   */
  private retire(worker: Worker, waitMs: number, background = false): Promise<void> {
    worker.removeAllListeners('message');
    worker.removeAllListeners('exit');
    worker.removeAllListeners('error');
    worker.on('error', () => undefined);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        worker.unref();
        resolve();
      }, waitMs);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage({ type: 'dispose' } satisfies WorkerRequest);
      // a worker retired after a hard cancel must not keep the process alive
      if (background) {
        timer.unref();
        worker.unref();
      } else worker.ref();
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const settings: WorkerSettings = {
      modelsDir: this.options.modelsDir,
      provider: this.options.provider,
      threads: this.options.threads,
      cacheDir: this.options.cacheDir,
    };
    const worker = new Worker(this.workerPath, { workerData: settings });
    this.workerStarts++;
    worker.on('message', (m: WorkerResponse) => this.onMessage(m));
    worker.on('error', (err) => this.onWorkerDeath(worker, err));
    worker.on('exit', (code) => this.onWorkerDeath(worker, new Error(`the review worker exited (code ${code})`)));
    // an idle worker must not keep the process alive (CLI exits when done)
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private post(message: WorkerRequest): void {
    const worker = this.ensureWorker();
    worker.postMessage(message);
    if (this.active || this.warmWaiters.size) worker.ref();
  }

  private pump(): void {
    if (this.disposed || this.active || this.stopping) return;
    const job = this.queue.shift();
    if (!job) {
      if (!this.warmWaiters.size) this.worker?.unref();
      return;
    }
    this.active = job;
    if (job.of !== undefined) this.post({ type: 'procedure', id: job.id, of: job.of });
    else this.post({ type: 'describe', id: job.id, before: job.before, after: job.after, options: job.options, later: job.later });
  }

  private cancel(job: Job): void {
    if (job.settled) return;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, undefined, abortError(job.signal));
      return;
    }
    if (this.active !== job) return;
    // the caller is answered at once; the worker stops at its next stage boundary
    this.settle(job, undefined, abortError(job.signal));
    this.active = undefined;
    this.worker?.postMessage({ type: 'cancel', id: job.id } satisfies WorkerRequest);
    const cancelledAt = performance.now();
    const timer = setTimeout(() => {
      // the worker did not stop in time (a long native call): restart it
      this.lastCancel = { id: job.id, outcome: 'worker-restarted', stopMs: performance.now() - cancelledAt };
      this.stopping = undefined;
      const worker = this.worker;
      this.worker = undefined;
      if (worker) void this.retire(worker, 60_000, true);
      this.pump();
    }, this.options.hardCancelMs ?? 2000);
    this.stopping = { id: job.id, timer, cancelledAt };
  }

  private settle(job: Job, report?: ChangeReport, error?: Error): void {
    if (job.settled) return;
    job.settled = true;
    job.detachAbort?.();
    if (error) job.reject(error);
    else job.resolve(report as ChangeReport);
  }

  private onMessage(m: WorkerResponse): void {
    if (m.type === 'disposed') return;
    if (m.type === 'warmed' || (m.type === 'error' && this.warmWaiters.has(m.id))) {
      const waiter = this.warmWaiters.get(m.id);
      this.warmWaiters.delete(m.id);
      if (m.type === 'warmed') waiter?.resolve({ provider: m.provider, providerReason: m.providerReason, loadMs: m.loadMs });
      else waiter?.reject(new ReviewError(m.error));
      if (!this.active && !this.warmWaiters.size) this.worker?.unref();
      return;
    }
    if (this.stopping && m.id === this.stopping.id) {
      if (m.type === 'result' || m.type === 'error') {
        this.lastCancel = {
          id: m.id,
          outcome: m.type === 'error' && m.error.name === 'AbortError' ? 'stopped' : 'finished-anyway',
          stopMs: performance.now() - this.stopping.cancelledAt,
        };
        clearTimeout(this.stopping.timer);
        this.stopping = undefined;
        this.pump();
      }
      return;
    }
    const job = this.active;
    if (!job || job.id !== m.id) return;
    if (m.type === 'captions') {
      try {
        job.onCaptions?.(m.regions, m.elapsedMs);
      } catch {
        // a failing progress callback must not break the review
      }
      return;
    }
    this.active = undefined;
    if (m.type === 'result') this.settle(job, m.report);
    else if (m.type === 'error') this.settle(job, undefined, new ReviewError(m.error));
    this.pump();
  }

  private onWorkerDeath(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.disposed) return;
    const failure = new Error(`the review worker stopped unexpectedly: ${err.message}`);
    if (this.active) {
      this.settle(this.active, undefined, failure);
      this.active = undefined;
    }
    for (const w of this.warmWaiters.values()) w.reject(failure);
    this.warmWaiters.clear();
    if (this.stopping) {
      clearTimeout(this.stopping.timer);
      this.stopping = undefined;
    }
    this.pump();
  }
}

export interface WarmInfo {
  provider: string;
  providerReason: string;
  loadMs: number;
}
