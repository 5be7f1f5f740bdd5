// The one argument parser of the command-line tools: node:util parseArgs (strict), with node's
// ERR_PARSE_ARGS_* errors turned into the tools' own short messages. An option that takes a value
// never takes the next option as it (`--out --force` is "--out needs a value (got the option
// --force)"; a value that starts with a dash is written `--out=-x`); `--` ends the options.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

export interface ParseOptionsConfig {
  /** operands allowed; without, an operand is reported with `unknown` like an unknown option */
  positionals?: boolean;
  /** the message for an unknown option (or an operand where none is taken); default `unknown option X` */
  unknown?: (arg: string) => string;
  /** the error to throw with a message; default a plain Error */
  error?: (message: string) => Error;
}

type Parsed<T extends OptionSpecs> = ReturnType<
  typeof parseArgs<{
    args: string[];
    options: T;
    strict: true;
    allowPositionals: boolean;
    tokens: true;
  }>
>;

/**
 * `args` parsed against `options` (node:util parseArgs: strict, tokens kept for "the last of two
 * options wins"); a bad command line throws `config.error(message)` with one of: `unknown option
 * --x` (or `config.unknown`'s wording), `--x needs a value`, `--x needs a value (got the option
 * --y)`, `--x takes no value`.
 */
export function parseOptions<T extends OptionSpecs>(args: string[], options: T, config: ParseOptionsConfig = {}): Parsed<T> {
  const unknown = config.unknown ?? ((arg: string) => `unknown option ${arg}`);
  const error = config.error ?? ((message: string) => new Error(message));
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: config.positionals ?? false, tokens: true });
  } catch (e) {
    const message = (e as Error).message;
    const code = (e as { code?: string }).code;
    const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw error(unknown(quoted || message));
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      // "Option '--x' does not take an argument" | "Option '--x <value>' argument missing" |
      // "Option '--x' argument is ambiguous." (the next argument starts with a dash) ; short: "'-o, --out <value>'"
      const name = /^(-{1,2}[^\s,<]+)/.exec(quoted)?.[1] ?? quoted;
      if (/does not take an argument/.test(message)) throw error(`${name} takes no value`);
      const at = args.findIndex((a, i) => a === name && args[i + 1]?.startsWith('-'));
      throw error(
        /ambiguous/.test(message) && at >= 0 ? `${name} needs a value (got the option ${args[at + 1]})` : `${name} needs a value`,
      );
    }
    throw error(message);
  }
}

/** The integer `text` spells (as Number reads it), or undefined: "", "1.5", "abc". */
export function integerValue(text: string): number | undefined {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) ? n : undefined;
}

/** Whether option `a` comes after option `b` on the command line (names without dashes; absent = before all). */
export function givenLater(tokens: readonly { kind: string; name?: string }[], a: string, b: string): boolean {
  const last = (name: string) => tokens.reduce((at, t, i) => (t.kind === 'option' && t.name === name ? i : at), -1);
  return last(a) > last(b);
}
