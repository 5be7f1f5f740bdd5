// Session manager for the ProCap ONNX models: each model is loaded lazily, once, and reused for
// every describe. Chooses the execution provider ("auto" tries CUDA and falls back to CPU, saying
// why), validates every model file against models/contract.json so a missing, truncated or
// wrong-version file gives a clear message naming the file and how to restore it.
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import ort from 'onnxruntime-node';
import { CONTEXT_FEATURES } from './context.js';
import { TextReader } from './read/ocr.js';
import { cpuSessionOptions } from './session-options.js';
import { createCpuSession, defaultModelCacheDir, type CachedSessionSource } from './model-cache.js';

export type ProviderChoice = 'auto' | 'cpu' | 'cuda';
export type ModelName =
  'interpolator' | 'tokenizer_encoder' | 'tokenizer_decoder' | 'procedure_encoder' | 'decoder_step' | 'kind_prior' | 'kind_members';
/** The models every models folder has. */
export const MODEL_NAMES: ModelName[] = [
  'interpolator',
  'tokenizer_encoder',
  'tokenizer_decoder',
  'procedure_encoder',
  'decoder_step',
  'kind_prior',
];
/** Models used when their file is there (contract "optional": true): the kind committee's members. */
export const OPTIONAL_MODEL_NAMES: ModelName[] = ['kind_members'];

/** The subset of models/contract.json the runtime reads. */
export interface Contract {
  contract_version: number;
  image: { size: number; channels: number };
  patch: number;
  grid: number;
  n_I: number;
  feat_dim: number;
  codebook_size: number;
  k: number;
  d_model: number;
  decoder_layers: number;
  max_caption_tokens: number;
  n_intermediate: number;
  kinds: string[];
  vocab_file: string;
  special_tokens: Record<string, number>;
  models: Record<
    ModelName,
    {
      file: string;
      optional?: boolean;
      inputs: Record<string, (number | string)[]>;
      outputs: Record<string, (number | string)[]>;
    }
  >;
  /** optional: regions of one pair help each other's kind (src/core/pair-consistency.ts). */
  pair_consistency?: { weight: number; floor: number };
  /** the kind prior's input features, in order (src/core/context.ts CONTEXT_FEATURES). */
  context_features: string[];
  golden_dir: string;
}

export interface Vocabulary {
  /** id -> word */
  words: string[];
  pad: number;
  bos: number;
  eos: number;
  unk: number;
}

export interface SessionManagerOptions {
  /** folder holding contract.json, vocab.json and the *.onnx files. */
  modelsDir: string;
  provider?: ProviderChoice;
  /** intra-op threads per session; default: the number of CPUs, at most 4. */
  threads?: number;
  /** folder for the optimised models that later processes load faster (src/core/model-cache.ts);
   * default: defaultModelCacheDir() ($PROCAP_CACHE_DIR, else the user's cache folder); false: none */
  cacheDir?: string | false;
}

// onnxruntime logs the failed CUDA attempt to stderr before throwing; the failure is reported in
// providerReason instead, so only fatal native messages are printed.
if (ort.env.logLevel === undefined || ort.env.logLevel === 'warning') ort.env.logLevel = 'fatal';

const RESTORE_HINT =
  'Restore it with `git checkout -- models/` (the shipped models are committed), or re-export it with ' +
  '`/usr/bin/python3 -m training.export` (see models/MODEL_CARD.md).';

/** A model file that is missing, unreadable, corrupt or does not match the contract. */
export class ModelLoadError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}. ${RESTORE_HINT}`);
    this.name = 'ModelLoadError';
  }
}

export function loadContract(modelsDir: string): Contract {
  const file = path.join(modelsDir, 'contract.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new ModelLoadError(file, 'the model contract is missing');
  }
  try {
    const contract = JSON.parse(text) as Contract;
    if (typeof contract.contract_version !== 'number' || !contract.models) throw new Error('fields missing');
    const absent = MODEL_NAMES.filter((name) => {
      const spec = contract.models[name];
      return !spec || typeof spec.file !== 'string' || !spec.inputs || !spec.outputs;
    });
    if (absent.length) throw new Error(`no complete entry for model ${absent.join(', ')}`);
    return contract;
  } catch (err) {
    throw new ModelLoadError(file, `the model contract is not valid JSON of the expected form (${(err as Error).message})`);
  }
}

/**
 * The kind prior reads its inputs by position: a contract whose feature list is not the one
 * src/core/context.ts computes would feed it the wrong numbers without any error.
 */
function checkContextFeatures(modelsDir: string, contract: Contract): void {
  const listed = contract.context_features;
  const same =
    Array.isArray(listed) && listed.length === CONTEXT_FEATURES.length && CONTEXT_FEATURES.every((name, i) => listed[i] === name);
  if (!same) {
    throw new ModelLoadError(
      path.join(modelsDir, 'contract.json'),
      `context_features (${Array.isArray(listed) ? listed.length : 'none'}) are not the ${CONTEXT_FEATURES.length} features src/core/context.ts computes, in its order`,
    );
  }
}

/**
 * Reads vocab.json. Accepted forms: a list of words (index = id), {"itos": [...]} / {"words": [...]}
 * / {"tokens": [...]}, or a word -> id map ({"stoi": {...}} or a plain object).
 */
export function loadVocabulary(modelsDir: string, contract: Contract): Vocabulary {
  const file = path.join(modelsDir, contract.vocab_file);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ModelLoadError(
      file,
      missing ? 'the vocabulary file is missing' : `the vocabulary is not valid JSON (${(err as Error).message})`,
    );
  }
  let words: string[] | undefined;
  const asList = (v: unknown): string[] | undefined =>
    Array.isArray(v) && v.every((w) => typeof w === 'string') ? (v as string[]) : undefined;
  const fromMap = (m: Record<string, unknown>): string[] | undefined => {
    const entries = Object.entries(m);
    if (!entries.every(([, id]) => Number.isInteger(id))) return undefined;
    const list: string[] = [];
    for (const [w, id] of entries) list[id as number] = w;
    return list;
  };
  if (asList(raw)) words = asList(raw);
  else if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>;
    words =
      asList(o.itos) ??
      asList(o.words) ??
      asList(o.tokens) ??
      asList(o.vocab) ??
      (o.stoi && typeof o.stoi === 'object' ? fromMap(o.stoi as Record<string, unknown>) : undefined) ??
      fromMap(o);
  }
  if (!words || words.length === 0) throw new ModelLoadError(file, 'the vocabulary has no word list');
  const special = contract.special_tokens;
  for (const [tok, id] of Object.entries(special)) {
    if (words[id] !== tok) throw new ModelLoadError(file, `special token ${tok} should have id ${id} (found "${words[id]}")`);
  }
  return { words, pad: special['<pad>'], bos: special['<bos>'], eos: special['<eos>'], unk: special['<unk>'] };
}

/**
 * training/export.py writes export_info.json with the contract version the models were exported
 * for; models of another version are refused before any of them is loaded.
 */
interface ExportRecord {
  /** the committee members' names */
  members: string[];
  /** size and SHA-256 (hex) of each ONNX file, by file name, as exported */
  bytes: Record<string, number>;
  sha256: Record<string, string>;
}

function checkExportInfo(modelsDir: string, contract: Contract): ExportRecord {
  const file = path.join(modelsDir, 'export_info.json');
  if (!fs.existsSync(file)) return { members: [], bytes: {}, sha256: {} };
  let info: { contract_version?: unknown; kind_members?: unknown; onnx_bytes?: unknown; onnx_sha256?: unknown };
  try {
    info = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ModelLoadError(file, `not valid JSON (${(err as Error).message})`);
  }
  if (info.contract_version !== undefined && info.contract_version !== contract.contract_version) {
    throw new ModelLoadError(
      file,
      `the models were exported for contract version ${String(info.contract_version)}, but contract.json is version ${contract.contract_version}`,
    );
  }
  const record = (x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? x : {});
  return {
    members: Array.isArray(info.kind_members) ? info.kind_members.map(String) : [],
    bytes: record(info.onnx_bytes) as Record<string, number>,
    sha256: record(info.onnx_sha256) as Record<string, string>,
  };
}

/** Files whose bytes were found to be the exported ones in this process: path -> "size:mtime". */
const intact = new Map<string, string>();

/**
 * The model file is the one exported: its size and SHA-256 as export_info.json records them (a
 * flipped byte loads and runs, and says wrong things). Checked once per process and file version.
 */
function checkIntegrity(file: string, bytes: Buffer, exported: ExportRecord): void {
  const name = path.basename(file);
  const stamp = `${bytes.length}:${fs.statSync(file).mtimeMs}`;
  if (intact.get(file) === stamp) return;
  const size = exported.bytes[name];
  if (typeof size === 'number' && bytes.length !== size) {
    throw new ModelLoadError(file, `the model file is ${bytes.length} bytes, but ${size} were exported (truncated or corrupt file?)`);
  }
  const sha = exported.sha256[name];
  if (typeof sha === 'string' && createHash('sha256').update(bytes).digest('hex') !== sha) {
    throw new ModelLoadError(
      file,
      'the model file is not the one exported: its SHA-256 differs from export_info.json (corrupt or replaced file?)',
    );
  }
  intact.set(file, stamp);
}

/** Checks a loaded session's names, dtypes and fixed dimensions against the contract. */
function checkAgainstContract(file: string, session: ort.InferenceSession, spec: Contract['models'][ModelName]): void {
  const check = (
    kind: 'input' | 'output',
    wanted: Record<string, (number | string)[]>,
    names: readonly string[],
    meta: readonly ort.InferenceSession.ValueMetadata[],
  ) => {
    for (const [name, shape] of Object.entries(wanted)) {
      if (!names.includes(name)) {
        throw new ModelLoadError(
          file,
          `${kind} "${name}" required by contract is absent (the file has ${names.join(', ')}); it was exported for another contract version`,
        );
      }
      const m = meta.find((x) => x.name === name);
      if (!m || !m.isTensor || m.shape.length === 0) continue;
      if (m.shape.length !== shape.length) {
        throw new ModelLoadError(
          file,
          `${kind} "${name}" has rank ${m.shape.length}, contract says [${shape.join(', ')}]; it was exported for another contract version`,
        );
      }
      shape.forEach((dim, i) => {
        const got = m.shape[i];
        if (typeof dim === 'number' && typeof got === 'number' && got !== dim) {
          throw new ModelLoadError(
            file,
            `${kind} "${name}" dimension ${i} is ${got}, contract says ${dim}; it was exported for another contract version`,
          );
        }
      });
    }
  };
  check('input', spec.inputs, session.inputNames, session.inputMetadata ?? []);
  check('output', spec.outputs, session.outputNames, session.outputMetadata ?? []);
}

export class SessionManager {
  readonly modelsDir: string;
  readonly contract: Contract;
  readonly vocab: Vocabulary;
  readonly requestedProvider: ProviderChoice;
  private readonly threads?: number;
  /** where optimised models are cached (undefined: not cached) */
  readonly cacheDir?: string;
  private readonly sessions = new Map<ModelName, Promise<ort.InferenceSession>>();
  /** decided on the first load, then reused for every model. */
  private decided?: { provider: 'cuda' | 'cpu'; reason: string };
  private disposed = false;
  /** what export_info.json records: the committee's members, and each file's size and SHA-256 */
  private readonly exported: ExportRecord;
  /** the kind committee's member checkpoints export_info.json names (empty: no committee exported). */
  get exportedMembers(): string[] {
    return this.exported.members;
  }
  /** ms spent creating sessions, for the benchmark. */
  loadMs = 0;
  private reader?: TextReader;

  constructor(options: SessionManagerOptions) {
    this.modelsDir = path.resolve(options.modelsDir);
    if (!fs.existsSync(this.modelsDir) || !fs.statSync(this.modelsDir).isDirectory()) {
      throw new ModelLoadError(this.modelsDir, 'the models folder does not exist');
    }
    this.requestedProvider = options.provider ?? 'auto';
    if (!['auto', 'cpu', 'cuda'].includes(this.requestedProvider)) {
      throw new Error(`unknown provider "${String(options.provider)}": use auto, cpu or cuda`);
    }
    if (options.threads !== undefined && (!Number.isInteger(options.threads) || options.threads < 1)) {
      throw new Error(`threads must be a positive integer (got ${options.threads})`);
    }
    this.threads = options.threads;
    this.cacheDir = options.cacheDir === false ? undefined : (options.cacheDir ?? defaultModelCacheDir());
    this.contract = loadContract(this.modelsDir);
    this.vocab = loadVocabulary(this.modelsDir, this.contract);
    this.exported = checkExportInfo(this.modelsDir, this.contract);
  }

  get provider(): 'cuda' | 'cpu' {
    return this.decided?.provider ?? 'cpu';
  }

  get providerReason(): string {
    return this.decided?.reason ?? 'no model loaded yet';
  }

  get modelVersion(): string {
    return `contract v${this.contract.contract_version}`;
  }

  filePath(name: ModelName): string {
    return path.join(this.modelsDir, this.contract.models[name].file);
  }

  /** The session of one model, created on first use and cached. */
  get(name: ModelName): Promise<ort.InferenceSession> {
    if (this.disposed) return Promise.reject(new Error('the session manager was disposed'));
    let pending = this.sessions.get(name);
    if (!pending) {
      pending = this.create(name);
      // a failed load is not cached, so restoring the file and retrying works
      pending.catch(() => this.sessions.delete(name));
      this.sessions.set(name, pending);
    }
    return pending;
  }

  /**
   * The kind committee's session (contract "kind_members"), or undefined when this models folder has
   * none: no contract entry, or no file and export_info.json names no members. A file that export_info
   * says was exported but is gone is an error (the kinds would silently be a single head's).
   */
  async kindMembers(): Promise<ort.InferenceSession | undefined> {
    const spec = this.contract.models.kind_members;
    if (!spec) return undefined;
    if (!fs.existsSync(this.filePath('kind_members'))) {
      if (this.exportedMembers.length === 0) return undefined;
      throw new ModelLoadError(
        this.filePath('kind_members'),
        `the kind committee's model file is missing (export_info.json lists ${this.exportedMembers.length} member checkpoints)`,
      );
    }
    return this.get('kind_members');
  }

  /** The text reader (src/core/read/ocr.ts), created on first use; its models load on its first read. */
  get textReader(): TextReader {
    if (this.disposed) throw new Error('the session manager was disposed');
    this.reader ??= new TextReader({ threads: this.threads, cacheDir: this.cacheDir });
    return this.reader;
  }

  /** Whether no model has been asked for yet: the first review of this manager loads them all. */
  get cold(): boolean {
    return this.sessions.size === 0 && this.reader === undefined;
  }

  /**
   * Starts loading, one model after another, what a review's captions need: the text reader's models
   * (when `read`), then the caption models. A cold start runs this while the screenshots decode on
   * another thread (onnxruntime builds a session on the calling thread). stop() ends it before the
   * next model - a pair that turns out to have nothing to caption does not wait for the rest. Failures
   * are not reported here: a model that failed to load is loaded again, and the error given, where the
   * review uses it.
   */
  preload(read: boolean): { stop(): void; done: Promise<void> } {
    let stopped = false;
    const steps: (() => Promise<unknown>)[] = [
      ...(read ? [() => this.textReader.prepare()] : []),
      () => this.get('tokenizer_encoder'),
      () => this.get('procedure_encoder'),
      () => this.kindMembers(),
      () => this.get('kind_prior'),
      () => this.get('decoder_step'),
    ];
    const done = (async () => {
      for (const step of steps) {
        // a turn of the event loop between models: the decode thread's answer is taken in there
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (stopped || this.disposed) return;
        await step().catch(() => undefined);
      }
    })();
    return {
      stop: () => {
        stopped = true;
      },
      done,
    };
  }

  /** Loads every model now (the benchmark's model load time; warm start for the extension). */
  async loadAll(): Promise<void> {
    await Promise.all([...MODEL_NAMES.map((n) => this.get(n)), this.kindMembers()]);
  }

  private baseOptions(): ort.InferenceSession.SessionOptions {
    return cpuSessionOptions(this.threads);
  }

  private async create(name: ModelName): Promise<ort.InferenceSession> {
    const file = this.filePath(name);
    let bytes: Buffer;
    try {
      bytes = await fs.promises.readFile(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new ModelLoadError(file, code === 'ENOENT' ? 'the model file is missing' : `the model file cannot be read (${code})`);
    }
    if (bytes.length < 64) throw new ModelLoadError(file, `the model file is only ${bytes.length} bytes (truncated?)`);
    if (bytes.subarray(0, 200).toString('latin1').startsWith('version https://git-lfs')) {
      throw new ModelLoadError(file, 'the model file is a Git LFS pointer, not the model (run `git lfs pull`)');
    }
    checkIntegrity(file, bytes, this.exported);
    const started = performance.now();
    let session: ort.InferenceSession;
    try {
      // (the file's SHA-256 as export_info.json records it, checked above, or as computed here)
      const recorded = this.exported.sha256[path.basename(file)];
      const id = /^[0-9a-f]{64}$/.test(recorded ?? '') ? recorded : createHash('sha256').update(bytes).digest('hex');
      session = await this.createWithProvider({ model: bytes, name: path.basename(file), id });
    } catch (err) {
      if (err instanceof ModelLoadError) throw err;
      throw new ModelLoadError(
        file,
        `onnxruntime could not load the model (truncated or corrupt file?): ${firstLine((err as Error).message)}`,
      );
    } finally {
      this.loadMs += performance.now() - started;
    }
    try {
      checkAgainstContract(file, session, this.contract.models[name]);
      if (name === 'kind_prior') checkContextFeatures(this.modelsDir, this.contract);
    } catch (err) {
      await session.release().catch(() => undefined);
      throw err;
    }
    if (this.disposed) {
      await session.release().catch(() => undefined);
      throw new Error('the session manager was disposed');
    }
    return session;
  }

  private async createWithProvider(source: CachedSessionSource & { model: Buffer }): Promise<ort.InferenceSession> {
    const bytes = source.model;
    const onCpu = () => createCpuSession(source, { ...this.baseOptions(), executionProviders: ['cpu'] }, this.cacheDir);
    if (this.decided) {
      if (this.decided.provider === 'cpu') return onCpu();
      return ort.InferenceSession.create(bytes, { ...this.baseOptions(), executionProviders: [this.decided.provider] });
    }
    if (this.requestedProvider === 'cpu') {
      const session = await onCpu();
      this.decided ??= { provider: 'cpu', reason: 'cpu requested' };
      return session;
    }
    // CUDA first; onnxruntime throws (it does not fall back) when the CUDA provider library is absent.
    try {
      const session = await ort.InferenceSession.create(bytes, {
        ...this.baseOptions(),
        executionProviders: ['cuda'],
        logSeverityLevel: 4,
      });
      this.decided ??= { provider: 'cuda', reason: `${this.requestedProvider === 'auto' ? 'auto: ' : ''}cuda loaded` };
      return session;
    } catch (err) {
      const session = await onCpu();
      this.decided ??= {
        provider: 'cpu',
        reason: `${this.requestedProvider === 'auto' ? 'auto: ' : ''}cuda requested but failed to load (${firstLine((err as Error).message)}); fell back to cpu`,
      };
      return session;
    }
  }

  /** Releases every session; later calls to get() fail. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const pending = [...this.sessions.values()];
    this.sessions.clear();
    await this.reader?.dispose();
    await Promise.all(
      pending.map(async (p) => {
        try {
          await (await p).release();
        } catch {
          // a session that failed to load has nothing to release
        }
      }),
    );
  }
}

function firstLine(message: string): string {
  // onnxruntime appends multi-line native logs; the first line says what failed
  return (
    message
      .split('\n')[0]
      // (ANSI colour codes in onnxruntime's messages)
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      .slice(0, 300)
  );
}

export { ort };
