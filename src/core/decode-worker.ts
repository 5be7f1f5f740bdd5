// The decode thread: decodes one PNG away from the calling thread, so that the two large images of a
// pair are decoded at once on two cores (src/core/parallel-decode.ts). Any failure is answered as
// such; the caller then decodes in its own thread, which reports the error as usual.
import { parentPort } from 'node:worker_threads';
import { decodePng, type ImageLimits } from './image.js';

export interface DecodeRequest {
  id: number;
  bytes: Uint8Array;
  file: string;
  limits: ImageLimits;
}

export type DecodeResponse = { id: number; width: number; height: number; data: Uint8Array } | { id: number; failed: string };

if (parentPort) {
  const port = parentPort;
  port.on('message', (request: DecodeRequest) => {
    try {
      const image = decodePng(request.bytes, request.file, request.limits);
      // the pixels move to the caller without a copy
      port.postMessage({ id: request.id, width: image.width, height: image.height, data: image.data } satisfies DecodeResponse, [
        image.data.buffer as ArrayBuffer,
      ]);
    } catch (error) {
      port.postMessage({ id: request.id, failed: (error as Error).message } satisfies DecodeResponse);
    }
  });
}
