// How fast the procedure plays: shared by the panel's player (webview) and the exported animated
// PNG (src/core/apng.ts), so the file plays as the panel does. No Node import: the webview bundles it.

/** The display time of an intermediate frame at normal speed. */
export const PROCEDURE_FRAME_MS = 250;

/** How long each of a procedure's frames shows, for `frameMs` a frame: before and after are held three times as long. */
export function procedureDelaysMs(count: number, frameMs: number): number[] {
  return Array.from({ length: count }, (_, i) => (i === 0 || i === count - 1 ? 3 * frameMs : frameMs));
}
