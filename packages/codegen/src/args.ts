/** A parsed command line: positional words, repeated `--model` values and flags. */
export interface ParsedArgs {
  /** The first positional word (`validate`, `generate`, ...); `undefined` when there is none. */
  readonly command: string | undefined;
  /** Every `--model`/`-m` value and every positional word after the command (`anvil init` reads its folder here), in order. */
  readonly models: string[];
  /** Each flag's last value (`true` for a switch). */
  readonly flags: Map<string, string | true>;
  /** Every value of each value flag, in order (`--service a --service b`). */
  readonly lists: Map<string, string[]>;
  /** Usage mistakes found while parsing (a flag missing its value), one message each; empty when there are none. */
  readonly errors: string[];
}

/** Flags that take a value. Every other `--flag` is a boolean switch. */
const VALUE_FLAGS = new Set([
  "--out",
  "--severity",
  "--service",
  "--config",
  "--name",
  "--anvil-from",
  "--host",
  "--port",
  "--grpc-port",
  "--body-limit",
  "--bearer-token",
  "--api-key",
  "--basic",
  "--sigv4",
]);

/**
 * Parses `anvil <command> --model a b --model c --flag --out x`. `--model`
 * takes every following word up to the next flag, so shells' globs work.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const models: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const errors: string[] = [];
  const setValue = (flag: string, value: string) => {
    flags.set(flag, value);
    lists.set(flag, [...(lists.get(flag) ?? []), value]);
  };
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--model" || arg === "-m") {
      let any = false;
      while (i + 1 < argv.length && !argv[i + 1]!.startsWith("-")) {
        models.push(argv[++i]!);
        any = true;
      }
      if (!any) errors.push("--model needs at least one file or directory");
    } else if (arg.startsWith("--") && arg.includes("=")) {
      const eq = arg.indexOf("=");
      setValue(arg.slice(0, eq), arg.slice(eq + 1));
    } else if (VALUE_FLAGS.has(arg)) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("--")) errors.push(`${arg} needs a value`);
      else {
        setValue(arg, value);
        i++;
      }
    } else if (arg.startsWith("-")) {
      flags.set(arg, true);
    } else if (command === undefined) {
      command = arg;
    } else {
      models.push(arg);
    }
  }
  return { command, models, flags, lists, errors };
}
