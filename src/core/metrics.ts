// Caption metrics with the coco-caption definitions (the ones ProCap reports), written from the
// published definitions: BLEU-4 (corpus level, "closest" reference length brevity penalty),
// ROUGE-L (LCS F-measure, beta 1.2, averaged over samples) and CIDEr-D (tf-idf n-grams 1..4,
// clipped, Gaussian length penalty sigma 6, x10 as in coco-caption). Same definitions as
// training/metrics.py. Captions are lower-case words separated by spaces.

export interface CaptionSample {
  candidate: string;
  references: string[];
}

/**
 * A caption as the metrics' words: lower case, letters and digits, quotes and punctuation dropped
 * ("the 'Sign in' button moved 4 px down." -> "the sign in button moved 4 px down"), as
 * coco-caption's tokenizer drops punctuation. References are already in this form.
 */
export function captionWords(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function tokenizeCaption(text: string): string[] {
  // lower-case words split on white space, exactly as training/metrics.py does
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

function ngramCounts(words: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= words.length; i++) {
    const key = words.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function checkSamples(samples: CaptionSample[]): void {
  samples.forEach((s, i) => {
    if (!s.references.length) throw new Error(`metrics: sample ${i} has no reference caption`);
  });
}

/** Corpus BLEU-1..4 (coco-caption's Bleu scorer); returns [bleu1, bleu2, bleu3, bleu4] in 0..1. */
export function bleu(samples: CaptionSample[], maxN = 4): number[] {
  checkSamples(samples);
  const tiny = 1e-15,
    small = 1e-9;
  const correct = new Array<number>(maxN).fill(0);
  const guess = new Array<number>(maxN).fill(0);
  let testLength = 0,
    refLength = 0;
  for (const s of samples) {
    const cand = tokenizeCaption(s.candidate);
    const refs = s.references.map(tokenizeCaption);
    testLength += cand.length;
    // "closest" reference length; ties go to the shorter one
    let best = refs[0].length;
    for (const r of refs) {
      const d = Math.abs(r.length - cand.length),
        bd = Math.abs(best - cand.length);
      if (d < bd || (d === bd && r.length < best)) best = r.length;
    }
    refLength += best;
    for (let n = 1; n <= maxN; n++) {
      const maxRef = new Map<string, number>();
      for (const r of refs) {
        for (const [g, c] of ngramCounts(r, n)) maxRef.set(g, Math.max(maxRef.get(g) ?? 0, c));
      }
      for (const [g, c] of ngramCounts(cand, n)) correct[n - 1] += Math.min(c, maxRef.get(g) ?? 0);
      guess[n - 1] += Math.max(0, cand.length - n + 1);
    }
  }
  const scores: number[] = [];
  let product = 1;
  for (let n = 0; n < maxN; n++) {
    product *= (correct[n] + tiny) / (guess[n] + small);
    scores.push(Math.pow(product, 1 / (n + 1)));
  }
  const ratio = (testLength + tiny) / (refLength + small);
  if (ratio < 1) {
    const bp = Math.exp(1 - 1 / ratio);
    return scores.map((x) => x * bp);
  }
  return scores;
}

function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = up;
    }
  }
  return row[b.length];
}

/** ROUGE-L of one candidate against its references (coco-caption's Rouge scorer). */
export function rougeLSample(candidate: string, references: string[], beta = 1.2): number {
  const cand = tokenizeCaption(candidate);
  let bestPrecision = 0,
    bestRecall = 0;
  for (const ref of references.map(tokenizeCaption)) {
    const lcs = lcsLength(cand, ref);
    bestPrecision = Math.max(bestPrecision, cand.length ? lcs / cand.length : 0);
    bestRecall = Math.max(bestRecall, ref.length ? lcs / ref.length : 0);
  }
  if (bestPrecision === 0 || bestRecall === 0) return 0;
  return ((1 + beta * beta) * bestPrecision * bestRecall) / (bestRecall + beta * beta * bestPrecision);
}

export function rougeL(samples: CaptionSample[]): number {
  checkSamples(samples);
  if (!samples.length) return 0;
  return samples.reduce((sum, s) => sum + rougeLSample(s.candidate, s.references), 0) / samples.length;
}

interface CiderVector {
  vec: Map<string, number>[];
  norm: number[];
  /** coco-caption counts the bigrams here (a quirk of its code, kept for comparability). */
  length: number;
}

/**
 * CIDEr-D over a corpus, coco-caption definition (document frequencies from the references of
 * this corpus). Returns the corpus score (coco scale: ~1.0 for good captions) and per-sample scores.
 */
export function ciderD(samples: CaptionSample[], sigma = 6, maxN = 4): { score: number; perSample: number[] } {
  checkSamples(samples);
  if (!samples.length) return { score: 0, perSample: [] };
  const countsOf = (text: string): Map<string, number>[] => {
    const words = tokenizeCaption(text);
    return Array.from({ length: maxN }, (_, n) => ngramCounts(words, n + 1));
  };
  const refCounts = samples.map((s) => s.references.map(countsOf));
  const documentFrequency = new Map<string, number>();
  for (const refs of refCounts) {
    const seen = new Set<string>();
    for (const ref of refs) for (const m of ref) for (const g of m.keys()) seen.add(g);
    for (const g of seen) documentFrequency.set(g, (documentFrequency.get(g) ?? 0) + 1);
  }
  const refLength = Math.log(samples.length);
  const toVector = (counts: Map<string, number>[]): CiderVector => {
    const vec = counts.map(() => new Map<string, number>());
    const norm = new Array<number>(maxN).fill(0);
    let length = 0;
    counts.forEach((m, n) => {
      for (const [g, tf] of m) {
        const df = Math.log(Math.max(1, documentFrequency.get(g) ?? 0));
        const v = tf * (refLength - df);
        vec[n].set(g, v);
        norm[n] += v * v;
        if (n === 1) length += tf;
      }
    });
    return { vec, norm: norm.map(Math.sqrt), length };
  };
  const similarity = (hyp: CiderVector, ref: CiderVector): number[] => {
    const delta = hyp.length - ref.length;
    return hyp.vec.map((hv, n) => {
      let val = 0;
      for (const [g, h] of hv) {
        const r = ref.vec[n].get(g) ?? 0;
        val += Math.min(h, r) * r;
      }
      if (hyp.norm[n] !== 0 && ref.norm[n] !== 0) val /= hyp.norm[n] * ref.norm[n];
      return val * Math.exp(-(delta * delta) / (2 * sigma * sigma));
    });
  };
  const perSample = samples.map((s, i) => {
    const hyp = toVector(countsOf(s.candidate));
    let total = 0;
    for (const ref of refCounts[i]) {
      const sims = similarity(hyp, toVector(ref));
      total += sims.reduce((a, b) => a + b, 0) / maxN;
    }
    return (total / refCounts[i].length) * 10;
  });
  return { score: perSample.reduce((a, b) => a + b, 0) / perSample.length, perSample };
}

export interface CaptionScores {
  /** CIDEr-D x100 (as papers report it). */
  cider: number;
  /** BLEU-4 in 0..1. */
  bleu4: number;
  /** ROUGE-L in 0..1. */
  rougeL: number;
}

export function scoreCaptions(samples: CaptionSample[]): CaptionScores {
  return {
    cider: ciderD(samples).score * 100,
    bleu4: bleu(samples)[3],
    rougeL: rougeL(samples),
  };
}

/**
 * The references' own CIDEr-D x100 (training/metrics.py's cider_ceiling): in round j every
 * sample's j-th reference (cyclically, for samples with fewer) is scored against that sample's
 * other references; the mean over rounds. Samples with a single reference are skipped.
 */
export function ciderCeiling(references: string[][]): number {
  const usable = references.filter((r) => r.length >= 2);
  if (!usable.length) return 0;
  const rounds = Math.max(...usable.map((r) => r.length));
  let total = 0;
  for (let j = 0; j < rounds; j++) {
    const samples = usable.map((r) => {
      const at = j % r.length;
      return { candidate: r[at], references: [...r.slice(0, at), ...r.slice(at + 1)] };
    });
    total += ciderD(samples).score * 100;
  }
  return total / rounds;
}
