// Optimised models kept between processes. Creating an onnxruntime session spends much of its time
// optimising the graph (fused operators, the CPU's blocked tensor layouts), and a fresh CLI process
// paid that again for every model it loads. The first process to load a model on a CPU provider
// writes the optimised graph to a cache folder; later ones load that with optimisation off. An
// optimised graph is specific to the source model, the onnxruntime version and the CPU (its vector
// width decides the layouts), and all three are in a digest in the cached file's name. The cache is an aid:
// a folder that cannot be written, or a cached file that does not load, falls back to the source.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import ort from 'onnxruntime-node';

/** Environment variable naming the cache folder; `off` (or empty) turns the cache off. */
export const CACHE_DIR_ENV = 'PROCAP_CACHE_DIR';

/**
 * The per-user cache folder for optimised models: $PROCAP_CACHE_DIR where set (`off`: none), else the
 * platform's cache folder (~/.cache, ~/Library/Caches, %LOCALAPPDATA%) under procap-review/models.
 */
export function defaultModelCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const set = env[CACHE_DIR_ENV];
  if (set !== undefined) return set === '' || set.toLowerCase() === 'off' ? undefined : path.resolve(set);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'procap-review', 'models');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'procap-review', 'models');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'procap-review', 'models');
}

function onnxruntimeVersion(): string {
  const versions = (ort.env as { versions?: Record<string, string> }).versions;
  return versions?.node ?? versions?.common ?? 'unknown';
}

let features: string | undefined;
/** The CPU's instruction-set flags where the system lists them (Linux): one model name can come with
 * other vector units (a virtual machine that hides AVX-512), and the optimised layouts follow them. */
function cpuFeatures(): string {
  if (features === undefined) {
    try {
      features = /^flags\s*:\s*(.*)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '';
    } catch {
      features = '';
    }
  }
  return features;
}

/** The cached file's name for a model: its name, then a digest of what the optimised graph depends on. */
export function cachedModelName(name: string, modelId: string): string {
  const cpu = `${process.platform}|${process.arch}|${os.cpus()[0]?.model ?? ''}|${cpuFeatures()}|onnxruntime ${onnxruntimeVersion()}`;
  const digest = createHash('sha256').update(modelId).update('\0').update(cpu).digest('hex').slice(0, 24);
  return `${path.parse(name).name.replace(/[^A-Za-z0-9_.-]/g, '_')}-${digest}.onnx`;
}

export interface CachedSessionSource {
  /** the model: a file path or its bytes */
  model: string | Uint8Array;
  /** a short name for the cached file (the model's file name) */
  name: string;
  /** what identifies the model's content: its SHA-256, or its path, size and modification time */
  id: string;
}

/** Partial files older than this (ms) were left by a process stopped while writing: removed. */
const STALE_PART_MS = 10 * 60 * 1000;

function removeStaleParts(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.part')) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > STALE_PART_MS) fs.rmSync(file, { force: true });
    } catch {
      // (another process removed or renamed it)
    }
  }
}

/** What createCpuSession did, for tests and the benchmark. */
export type CacheOutcome = 'off' | 'hit' | 'written' | 'unwritable';

/**
 * A CPU session of `source`, through the cache in `cacheDir` (none: created from the source as
 * usual). The options must name the CPU provider (or none): a graph optimised for the CPU's layouts
 * is not one another provider can run.
 */
export async function createCpuSession(
  source: CachedSessionSource,
  options: ort.InferenceSession.SessionOptions,
  cacheDir: string | undefined,
  outcome?: (o: CacheOutcome) => void,
): Promise<ort.InferenceSession> {
  const create = (model: string | Uint8Array, opts: ort.InferenceSession.SessionOptions) =>
    typeof model === 'string' ? ort.InferenceSession.create(model, opts) : ort.InferenceSession.create(model, opts);
  if (!cacheDir) {
    outcome?.('off');
    return create(source.model, options);
  }
  const file = path.join(cacheDir, cachedModelName(source.name, source.id));
  if (fs.existsSync(file)) {
    try {
      const session = await create(file, { ...options, graphOptimizationLevel: 'disabled' });
      outcome?.('hit');
      return session;
    } catch {
      // a damaged or foreign file: made again below
      fs.rmSync(file, { force: true });
    }
  }
  let temp: string | undefined;
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.accessSync(cacheDir, fs.constants.W_OK);
    removeStaleParts(cacheDir);
    // written under a name of its own, then renamed: a process reading the cache never sees half a file
    temp = path.join(cacheDir, `.${process.pid}-${randomBytes(6).toString('hex')}.part`);
  } catch {
    temp = undefined;
  }
  if (temp) {
    try {
      const session = await create(source.model, { ...options, optimizedModelFilePath: temp });
      try {
        fs.renameSync(temp, file);
        outcome?.('written');
      } catch {
        fs.rmSync(temp, { force: true });
        outcome?.('unwritable');
      }
      return session;
    } catch {
      fs.rmSync(temp, { force: true });
      // (the same load without writing says what is wrong with the model, if anything is)
    }
  }
  outcome?.('unwritable');
  return create(source.model, options);
}
