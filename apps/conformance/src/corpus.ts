import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDirectory } from "./files.js";

/**
 * The repository root, found from this file's location: both the sources
 * (`apps/conformance/src/*.ts`) and the bundle (`apps/conformance/dist/cli.js`)
 * sit three levels below it.
 */
export const REPO_ROOT: string = fileURLToPath(new URL("../../../", import.meta.url));

/** The environment variable that names the corpus folder. */
export const CORPUS_ENV = "ANVIL_CORPUS";

/** Where the corpus path came from. */
export type CorpusSource = "--corpus" | typeof CORPUS_ENV | "default";

/** The corpus folder to use and why. */
export interface CorpusChoice {
  /** Absolute path. */
  readonly path: string;
  readonly source: CorpusSource;
}

/** The default corpus: `../shared/conformance` relative to the repository root. */
export function defaultCorpusPath(repoRoot: string = REPO_ROOT): string {
  return resolve(repoRoot, "..", "shared", "conformance");
}

/** Picks the corpus: `--corpus` (relative to `cwd`), else `$ANVIL_CORPUS`, else the default. */
export function chooseCorpus(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  repoRoot: string = REPO_ROOT,
): CorpusChoice {
  if (flag !== undefined && flag !== "") return { path: resolve(cwd, flag), source: "--corpus" };
  const fromEnv = env[CORPUS_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return { path: resolve(cwd, fromEnv), source: CORPUS_ENV };
  return { path: defaultCorpusPath(repoRoot), source: "default" };
}

/** Whether `dir` looks like the conformance corpus (it has `idl/` or `protocol-tests/`). */
export function isCorpus(dir: string): boolean {
  return isDirectory(join(dir, "idl")) || isDirectory(join(dir, "protocol-tests"));
}

/** The message printed when the corpus is missing: what was tried and how to point at it. */
export function missingCorpusMessage(choice: CorpusChoice): string {
  const from =
    choice.source === "default"
      ? "the default location, ../shared/conformance next to the repository"
      : choice.source === "--corpus"
        ? "the --corpus option"
        : `the ${CORPUS_ENV} environment variable`;
  const problem = isDirectory(choice.path) ? "exists but is not a conformance corpus (it has no idl/ or protocol-tests/ folder)" : "does not exist";
  return [
    `error: conformance corpus not found.`,
    `  tried: ${choice.path} (from ${from}), which ${problem}.`,
    `  pass the corpus folder with --corpus DIR, or set ${CORPUS_ENV}=DIR.`,
  ].join("\n");
}
