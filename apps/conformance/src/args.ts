/** Parsed command-line options. */
export interface CliArgs {
  /** Suite name, or `all`. */
  readonly suite: string;
  /** `--corpus DIR`, as given. */
  readonly corpus?: string;
  /** `--json FILE`, as given. */
  readonly json?: string;
  /** Failures listed per part in the text report. */
  readonly maxFailures: number;
  readonly help: boolean;
}

/** The result of parsing: options, or a message for the user. */
export type ParsedArgs = { readonly ok: true; readonly args: CliArgs } | { readonly ok: false; readonly error: string };

/** The usage text. */
export function usage(suiteNames: readonly string[]): string {
  return [
    "usage: anvil-conformance [--suite <name|all>] [--corpus DIR] [--json FILE] [--max-failures N|all]",
    "",
    "  --suite NAME        suite to run: all (default), " + suiteNames.join(", "),
    "  --corpus DIR        the conformance corpus folder (default: ../shared/conformance next to the",
    "                      repository, or the ANVIL_CORPUS environment variable)",
    "  --json FILE         also write the results, with every failure, as JSON",
    "  --max-failures N    failures listed per part in the report (default 20; `all` lists every one)",
    "  -h, --help          show this help",
    "",
    "Exit status: 0 when nothing failed, 1 when a case failed, 2 on a usage or corpus problem.",
  ].join("\n");
}

const VALUE_OPTIONS = new Set(["--suite", "--corpus", "--json", "--max-failures"]);

/** Parses `argv` (without the node and script paths). Accepts `--opt value` and `--opt=value`. */
export function parseArgs(argv: readonly string[], defaultMaxFailures = 20): ParsedArgs {
  const values = new Map<string, string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") {
      help = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (!VALUE_OPTIONS.has(name)) return { ok: false, error: `unknown argument: ${arg}` };
    let value: string | undefined;
    if (name !== arg) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || (value.startsWith("--") && value.length > 2)) {
        return { ok: false, error: `${name} needs a value` };
      }
      i++;
    }
    if (value === "") return { ok: false, error: `${name} needs a value` };
    if (values.has(name)) return { ok: false, error: `${name} given more than once` };
    values.set(name, value);
  }

  let maxFailures = defaultMaxFailures;
  const max = values.get("--max-failures");
  if (max !== undefined) {
    if (max === "all") maxFailures = Number.POSITIVE_INFINITY;
    else if (/^\d+$/.test(max)) maxFailures = Number(max);
    else return { ok: false, error: `--max-failures must be a number or "all", got: ${max}` };
  }
  const corpus = values.get("--corpus");
  const json = values.get("--json");
  return {
    ok: true,
    args: {
      suite: values.get("--suite") ?? "all",
      ...(corpus !== undefined ? { corpus } : {}),
      ...(json !== undefined ? { json } : {}),
      maxFailures,
      help,
    },
  };
}
