// The worker-thread side of Reviewer: owns one SessionManager (models loaded once, reused) and
// runs describe() for one request at a time, so decode, diff and inference never block the
// caller's event loop. Messages: see WorkerRequest / WorkerResponse.
import { parentPort, workerData } from 'node:worker_threads';
import { SessionManager, type ProviderChoice } from './session.js';
import { describe, review, type DescribeOptions, type Review } from './pipeline.js';
import type { ChangeRegion, ChangeReport } from './report.js';
import { KEPT_REVIEWS, PROCEDURE_GONE } from './reviewer.js';

export interface WorkerSettings {
  modelsDir: string;
  provider?: ProviderChoice;
  threads?: number;
  /** SessionManagerOptions.cacheDir */
  cacheDir?: string | false;
}

/** Options of one describe that cross the thread boundary (no signal, no callbacks). */
export type WorkerDescribeOptions = Omit<DescribeOptions, 'signal' | 'onCaptions'>;

export type WorkerRequest =
  /**
   * `later`: the report comes without procedure frames and the worker keeps what they need (the last
   * KEPT_REVIEWS such), for a 'procedure' request of the same id.
   */
  | {
      type: 'describe';
      id: number;
      before: string | Uint8Array;
      after: string | Uint8Array;
      options: WorkerDescribeOptions;
      later?: boolean;
    }
  /** the procedure frames of the kept describe `of`: answered by a 'result' with the framed report */
  | { type: 'procedure'; id: number; of: number }
  | { type: 'cancel'; id: number }
  | { type: 'warm'; id: number }
  | { type: 'dispose' };

export interface SerializedError {
  name: string;
  message: string;
  file?: string;
  stack?: string;
}

export type WorkerResponse =
  | { type: 'captions'; id: number; regions: ChangeRegion[]; elapsedMs: number }
  | { type: 'result'; id: number; report: ChangeReport }
  | { type: 'warmed'; id: number; provider: string; providerReason: string; loadMs: number }
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'disposed' };

function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) {
    const file = (err as { file?: unknown }).file;
    return { name: err.name, message: err.message, stack: err.stack, ...(typeof file === 'string' ? { file } : {}) };
  }
  return { name: 'Error', message: String(err) };
}

if (parentPort) {
  const port = parentPort;
  const settings = workerData as WorkerSettings;
  let sessions: SessionManager | undefined;
  const controllers = new Map<number, AbortController>();
  const running = new Set<Promise<void>>();
  const kept = new Map<number, Review>();
  const getSessions = () => (sessions ??= new SessionManager(settings));
  const send = (message: WorkerResponse) => port.postMessage(message);
  /** Runs one cancellable request: its report, or its error, is the answer to `id`. */
  const job = (id: number, work: (signal: AbortSignal) => Promise<ChangeReport>) => {
    const controller = new AbortController();
    controllers.set(id, controller);
    const done = (async () => {
      try {
        send({ type: 'result', id, report: await work(controller.signal) });
      } catch (err) {
        send({ type: 'error', id, error: serializeError(err) });
      } finally {
        controllers.delete(id);
      }
    })();
    running.add(done);
    void done.finally(() => running.delete(done));
  };

  port.on('message', (request: WorkerRequest) => {
    switch (request.type) {
      case 'cancel':
        controllers.get(request.id)?.abort(new DOMException('the review was cancelled', 'AbortError'));
        return;
      case 'warm':
        void (async () => {
          try {
            const s = getSessions();
            await s.loadAll();
            send({ type: 'warmed', id: request.id, provider: s.provider, providerReason: s.providerReason, loadMs: s.loadMs });
          } catch (err) {
            send({ type: 'error', id: request.id, error: serializeError(err) });
          }
        })();
        return;
      case 'describe':
        job(request.id, async (signal) => {
          const options: DescribeOptions = {
            ...request.options,
            signal,
            onCaptions: (regions, elapsedMs) => send({ type: 'captions', id: request.id, regions, elapsedMs }),
          };
          if (!request.later) return describe(getSessions(), request.before, request.after, options);
          const described = await review(getSessions(), request.before, request.after, options);
          kept.set(request.id, described);
          for (const old of kept.keys()) if (kept.size > KEPT_REVIEWS) kept.delete(old);
          return described.report;
        });
        return;
      case 'procedure':
        job(request.id, (signal) => {
          const described = kept.get(request.of);
          if (!described) {
            const gone = new Error(`the worker no longer keeps describe ${request.of} (kept: the last ${KEPT_REVIEWS})`);
            gone.name = PROCEDURE_GONE;
            throw gone;
          }
          return described.withProcedure(signal);
        });
        return;
      case 'dispose':
        // Never release sessions (or let the thread be terminated) while a native run is in
        // flight: onnxruntime-node aborts the whole process then. Stop at the next stage
        // boundary, release, say so, and let the thread end by itself.
        void (async () => {
          for (const c of controllers.values()) c.abort(new DOMException('the reviewer was disposed', 'AbortError'));
          await Promise.allSettled([...running]);
          await sessions?.dispose();
          send({ type: 'disposed' });
          port.close();
        })();
        return;
    }
  });
}
