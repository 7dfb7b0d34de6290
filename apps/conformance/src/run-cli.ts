import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs, usage } from "./args.js";
import { chooseCorpus, isCorpus, missingCorpusMessage } from "./corpus.js";
import { formatCounts } from "./counts.js";
import { DEFAULT_MAX_FAILURES, formatReport } from "./format-report.js";
import { toJsonReport } from "./json-report.js";
import { runSuites } from "./runner.js";
import type { Suite } from "./suite.js";

/** Everything the CLI touches, so that it can be run in tests. */
export interface CliContext {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The registered suites. */
  readonly suites: readonly Suite[];
  /** The report. */
  readonly stdout: (text: string) => void;
  /** Progress and problems. */
  readonly stderr: (text: string) => void;
  /** Writes the `--json` file. Defaults to the file system. */
  readonly writeFile?: (path: string, text: string) => void;
}

/** Exit statuses. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/**
 * Runs the conformance CLI and returns the exit status: 0 when nothing
 * failed, 1 when a case failed, 2 for bad arguments or a missing corpus.
 */
export async function runCli(ctx: CliContext): Promise<number> {
  const names = ctx.suites.map((s) => s.name);
  const parsed = parseArgs(ctx.argv, DEFAULT_MAX_FAILURES);
  if (!parsed.ok) {
    ctx.stderr(`error: ${parsed.error}\n\n${usage(names)}\n`);
    return EXIT_USAGE;
  }
  const args = parsed.args;
  if (args.help) {
    ctx.stdout(`${usage(names)}\n`);
    return EXIT_OK;
  }

  const suites = args.suite === "all" ? ctx.suites : ctx.suites.filter((s) => s.name === args.suite);
  if (suites.length === 0) {
    ctx.stderr(`error: unknown suite "${args.suite}". Available: all, ${names.join(", ")}\n`);
    return EXIT_USAGE;
  }

  const corpus = chooseCorpus(args.corpus, ctx.env, ctx.cwd);
  if (!isCorpus(corpus.path)) {
    ctx.stderr(`${missingCorpusMessage(corpus)}\n`);
    return EXIT_USAGE;
  }

  ctx.stderr(`corpus: ${corpus.path}\n`);
  const report = await runSuites(suites, corpus.path, {
    onPart: (p) => ctx.stderr(`  ${p.suite}/${p.part}: ${formatCounts(p.counts)} (${(p.millis / 1000).toFixed(1)}s)\n`),
  });
  ctx.stdout(`${formatReport(report, { maxFailuresPerPart: args.maxFailures })}\n`);

  if (args.json !== undefined) {
    const path = resolve(ctx.cwd, args.json);
    const text = `${JSON.stringify(toJsonReport(report), null, 2)}\n`;
    const write =
      ctx.writeFile ??
      ((file: string, content: string) => {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, content);
      });
    write(path, text);
    ctx.stderr(`wrote ${path}\n`);
  }
  return report.totals.failed > 0 ? EXIT_FAILED : EXIT_OK;
}
