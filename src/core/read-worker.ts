// The read thread: the text reader (OCR and the reading of each changed region) away from the thread
// that runs the ProCap models, so that the two run at once on two cores, and the OCR models load while
// that thread decodes the pair and loads its own (src/core/parallel-read.ts). The images come in shared
// memory; a failure is answered as such and the caller reads in its own thread.
import { parentPort, workerData } from 'node:worker_threads';
import { TextReader } from './read/ocr.js';
import { readPair, type PairReading } from './read/pair.js';
import type { Box } from './report.js';
import type { RgbaImage } from './image.js';

export interface ReadThreadSettings {
  /** intra-op threads of the OCR sessions */
  threads?: number;
}

export type ReadRequest = { id: number; type: 'load' } | { id: number; type: 'read'; before: RgbaImage; after: RgbaImage; boxes: Box[] };

export type ReadResponse =
  { id: number; loaded: true } | { id: number; reading: PairReading; readMs: number } | { id: number; failed: string };

if (parentPort) {
  const port = parentPort;
  const reader = new TextReader({ threads: (workerData as ReadThreadSettings | undefined)?.threads });
  port.on('message', async (request: ReadRequest) => {
    try {
      if (request.type === 'load') {
        await reader.load();
        port.postMessage({ id: request.id, loaded: true } satisfies ReadResponse);
        return;
      }
      const started = performance.now();
      const reading = await readPair(reader, request.before, request.after, request.boxes);
      port.postMessage({ id: request.id, reading, readMs: performance.now() - started } satisfies ReadResponse);
    } catch (error) {
      port.postMessage({ id: request.id, failed: (error as Error).message } satisfies ReadResponse);
    }
  });
}
