/** This package's own version, as its manifest states it. */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root: one level above this module, from `src/` as from the bundled `dist/`. */
export const PACKAGE_ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), "..");

let version: string | undefined;

/** The version of `@anvil/codegen` (read once). */
export function codegenVersion(): string {
  version ??= (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
  return version;
}
