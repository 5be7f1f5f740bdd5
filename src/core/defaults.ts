// Defaults the extension host shares with the engine, kept apart from the pipeline so that importing
// them does not load onnxruntime (the extension host never loads it: the engine runs in a worker).

/** Beam search width of the caption decoder, chosen on the validation split (docs/CLI.md; models/CONTRACT.md "Decoding"). */
export const DEFAULT_BEAM_WIDTH = 3;
