// Encoders (ProCap): the frozen tokenizer encoder turns 96x96 frames into per-patch features and
// codebook indices; the procedure encoder turns before/after features into the decoder memory,
// the change-kind logits and the predicted codes at the k*n_I procedure-query positions.
// Mirrors training/encode.py.
import { ort } from '../session.js';
import { CONTEXT_SIZE } from '../context.js';

export interface TokenizerOutput {
  /** [count, n_I, feat_dim] */
  features: Float32Array;
  /** [count, n_I] */
  codes: BigInt64Array;
}

/** images: [count, 3, size, size] floats in [0, 1]. */
export async function tokenize(session: ort.InferenceSession, images: Float32Array, count: number, size: number): Promise<TokenizerOutput> {
  const out = await session.run({ image: new ort.Tensor('float32', images, [count, 3, size, size]) });
  return { features: out.features.data as Float32Array, codes: out.codes.data as BigInt64Array };
}

export interface ProcedureOutput {
  /** the decoder memory tensor [B, 144, d], fed to every decoder step as is. */
  memory: ort.Tensor;
  /** [B, n_kinds] */
  kindLogits: Float32Array;
  /** [B, k*n_I, codebook] */
  queryCodeLogits: Float32Array;
}

/** The five inputs procedure_encoder and kind_members share (contract), checked and wrapped as tensors. */
function procedureFeeds(
  model: string,
  beforeFeatures: Float32Array,
  afterFeatures: Float32Array,
  beforeImages: Float32Array,
  afterImages: Float32Array,
  contexts: Float32Array,
  batch: number,
  patches: number,
  dim: number,
  size: number,
): Record<string, ort.Tensor> {
  if (contexts.length !== batch * CONTEXT_SIZE) {
    throw new Error(`${model}: ${contexts.length} context values, expected ${batch}x${CONTEXT_SIZE}`);
  }
  const dims = [batch, patches, dim];
  const imageDims = [batch, 3, size, size];
  return {
    before_features: new ort.Tensor('float32', beforeFeatures, dims),
    after_features: new ort.Tensor('float32', afterFeatures, dims),
    before_image: new ort.Tensor('float32', beforeImages, imageDims),
    after_image: new ort.Tensor('float32', afterImages, imageDims),
    context: new ort.Tensor('float32', contexts, [batch, CONTEXT_SIZE]),
  };
}

/**
 * beforeFeatures/afterFeatures: [batch, patches, dim] tokenizer features of the two crops;
 * beforeImages/afterImages: the same crops, [batch, 3, size, size] in [0, 1] (contract v2);
 * contexts: the samples' layout-context features, [batch, contextSize] raw values (contract v3,
 * the same rows the kind prior reads).
 */
export async function encodeProcedure(
  session: ort.InferenceSession,
  beforeFeatures: Float32Array,
  afterFeatures: Float32Array,
  beforeImages: Float32Array,
  afterImages: Float32Array,
  contexts: Float32Array,
  batch: number,
  patches: number,
  dim: number,
  size: number,
): Promise<ProcedureOutput> {
  const out = await session.run(
    procedureFeeds('procedure encoder', beforeFeatures, afterFeatures, beforeImages, afterImages, contexts, batch, patches, dim, size),
  );
  return {
    memory: out.memory,
    kindLogits: out.kind_logits.data as Float32Array,
    queryCodeLogits: out.query_code_logits.data as Float32Array,
  };
}

/**
 * The kind committee (contract "kind_members", training/committee.py): the members' log-softmaxed kind
 * logits [batch, M, kinds] for the same inputs procedure_encoder was fed (committeeKindLogits,
 * src/core/kind.ts, averages them with the head's).
 */
export async function runKindMembers(
  session: ort.InferenceSession,
  beforeFeatures: Float32Array,
  afterFeatures: Float32Array,
  beforeImages: Float32Array,
  afterImages: Float32Array,
  contexts: Float32Array,
  batch: number,
  patches: number,
  dim: number,
  size: number,
): Promise<{ logProbs: Float32Array; members: number }> {
  const out = await session.run(
    procedureFeeds('kind_members', beforeFeatures, afterFeatures, beforeImages, afterImages, contexts, batch, patches, dim, size),
  );
  const t = out.kind_log_probs;
  if (t.dims.length !== 3 || t.dims[0] !== batch) {
    throw new Error(`kind_members: kind_log_probs has shape [${t.dims.join(', ')}], expected [${batch}, M, kinds]`);
  }
  return { logProbs: t.data as Float32Array, members: Number(t.dims[1]) };
}
