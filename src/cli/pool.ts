// A pool of review workers for `procap batch --jobs N`: N worker threads (src/core/worker.ts), each
// with its own model sessions, each describing one pair at a time. The caller hands a pair to a free
// worker only (run() waits for one), so at most N pairs are decoded at once.
import * as os from 'node:os';
import { Worker } from 'node:worker_threads';
import { defaultWorkerPath, ReviewError } from '../core/reviewer.js';
import type { ChangeReport } from '../core/report.js';
import type { WorkerDescribeOptions, WorkerRequest, WorkerResponse, WorkerSettings } from '../core/worker.js';

/**
 * Intra-op threads of each model session when `jobs` workers share the machine: the cores divided
 * between the workers (at least 1, at most 4 as for a single process), so that N workers x threads
 * does not oversubscribe the cores.
 */
export function threadsPerWorker(jobs: number, cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, Math.floor(cores / jobs)));
}

interface Slot {
  worker: Worker;
  busy?: { id: number; resolve: (r: ChangeReport) => void; reject: (e: Error) => void };
  dead?: Error;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  /** run() calls waiting for a worker: woken when one is free or one dies */
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;
  private disposed = false;
  /** stop() was called: nothing more is answered, the process is about to exit */
  private stopped = false;

  constructor(size: number, settings: WorkerSettings, workerPath = defaultWorkerPath()) {
    for (let i = 0; i < size; i++) {
      const slot: Slot = { worker: new Worker(workerPath, { workerData: settings }) };
      slot.worker.on('message', (m: WorkerResponse) => this.onMessage(slot, m));
      const die = (err: Error) => {
        slot.dead ??= err;
        if (this.stopped) return;
        slot.busy?.reject(new Error(`a review worker stopped unexpectedly: ${err.message}`));
        slot.busy = undefined;
        for (const wake of this.waiting.splice(0)) wake();
      };
      slot.worker.on('error', die);
      slot.worker.on('exit', (code) => die(new Error(`exit code ${code}`)));
      this.slots.push(slot);
    }
  }

  get size(): number {
    return this.slots.length;
  }

  private idle(): Slot | undefined {
    return this.slots.find((s) => !s.busy && !s.dead);
  }

  /** Describes one pair on a free worker (waiting for one if none is free). */
  async run(before: Uint8Array, after: Uint8Array, options: WorkerDescribeOptions): Promise<ChangeReport> {
    if (this.stopped) return new Promise<ChangeReport>(() => undefined);
    if (this.disposed) throw new Error('the worker pool was disposed');
    let slot = this.idle();
    while (!slot) {
      if (this.slots.every((s) => s.dead)) throw new Error(`every review worker stopped: ${this.slots[0]?.dead?.message}`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      slot = this.idle();
    }
    const id = this.nextId++;
    const target = slot;
    return new Promise<ChangeReport>((resolve, reject) => {
      target.busy = { id, resolve, reject };
      target.worker.postMessage({ type: 'describe', id, before, after, options } satisfies WorkerRequest);
    }).finally(() => {
      target.busy = undefined;
      this.waiting.shift()?.();
    });
  }

  private onMessage(slot: Slot, m: WorkerResponse): void {
    const job = slot.busy;
    if (this.stopped || !job || !('id' in m) || m.id !== job.id) return;
    if (m.type === 'result') job.resolve(m.report);
    else if (m.type === 'error') job.reject(new ReviewError(m.error));
  }

  /**
   * For a signal: every worker stopped as by dispose(), and from now on no describe is answered (the
   * ones running and any asked for later never settle), so the batch neither records nor writes
   * anything more while the process waits for the workers before it exits.
   */
  stop(waitMs = 5000): Promise<void> {
    this.stopped = true;
    for (const wake of this.waiting.splice(0)) wake();
    return this.dispose(waitMs);
  }

  /**
   * Stops every worker without terminate() (terminating a thread while onnxruntime runs a model
   * aborts the process): each aborts its describe at the next stage boundary, releases its sessions
   * and ends by itself; waits for that at most `waitMs`, then leaves the rest unreferenced.
   */
  async dispose(waitMs = 10_000): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<void>((resolve) => {
            if (slot.dead) return resolve();
            const timer = setTimeout(() => {
              slot.worker.unref();
              resolve();
            }, waitMs);
            timer.unref();
            slot.worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            slot.worker.postMessage({ type: 'dispose' } satisfies WorkerRequest);
          }),
      ),
    );
  }
}
