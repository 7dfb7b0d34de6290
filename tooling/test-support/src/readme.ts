/** Running the example a package's README shows, as a user would: written inside the package, run by node. */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

/** Where the example is and how to run it. */
export interface ReadmeExampleOptions {
  /** The README to read; `README.md` in the package's folder by default. */
  readme?: string;
  /** The fence language of the example: the first block fenced with it is the example. `js` by default. */
  lang?: "js" | "ts";
  /** How long the example may run; 20 s by default. */
  timeoutMs?: number;
}

/** A README's example and what the README says it prints. */
export interface ReadmeExample {
  /** The example's code: the first block fenced with the language. */
  code: string;
  /** The `text` block after the word "prints" and a blank line, when the README has one. */
  printed: string | undefined;
}

/** Reads the example of a README (see {@link ReadmeExampleOptions.lang}); throws when there is none. */
export function readmeExample(readme: string, lang: "js" | "ts" = "js"): ReadmeExample {
  const text = readFileSync(readme, "utf8");
  const code = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(text)?.[1];
  if (code === undefined) throw new Error(`${readme} has no \`\`\`${lang} block`);
  const printed = /prints\n\n```text\n([\s\S]*?)```/.exec(text)?.[1];
  return { code, printed };
}

/**
 * Runs a README's example with node from `<packageDir>/.vitest/`, inside the
 * package, so that its imports resolve as they would in a user's project (a
 * package's own name through its exports, its dependencies through its
 * node_modules). Resolves with the example, its standard output and that
 * output's non-empty lines; rejects when it fails or outlives the timeout.
 */
export async function runReadmeExample(packageDir: string, options: ReadmeExampleOptions = {}): Promise<ReadmeExample & { stdout: string; lines: string[] }> {
  const example = readmeExample(options.readme ?? join(packageDir, "README.md"), options.lang);
  const dir = join(packageDir, ".vitest");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "readme-example.mjs");
  writeFileSync(file, example.code);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: options.timeoutMs ?? 20_000, encoding: "utf8" });
  return { ...example, stdout, lines: stdout.split("\n").filter(Boolean) };
}
