/**
 * What the bundle tests (browser-bundle, node-bundle) share: an application
 * folder in a temporary directory whose `node_modules/@anvil` links the
 * built packages, as an install would, and the outputs of a split bundle
 * that an entry loads before it runs.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Metafile } from "esbuild";

const root = join(import.meta.dirname, "..", "..", "..");

/**
 * Makes the application folder (its real path: esbuild names its outputs by
 * it, and a tmpdir behind a symlink would not match), with the `@anvil`
 * packages linked and `files` written; throws, saying how to build them,
 * when a package is not built. Each package's own dependencies resolve
 * beside its real folder.
 */
export function linkedApp(what: string, packages: readonly string[], files: Record<string, string>): string {
  for (const pkg of packages) {
    if (!existsSync(join(root, "packages", pkg, "dist", "index.js"))) {
      throw new Error(`${what}: packages/${pkg} is not built; run \`npx --yes pnpm@12.4.2 exec turbo run build --filter=@anvil/${pkg}...\` first`);
    }
  }
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `anvil-${what.replace(/ /g, "-")}-`)));
  mkdirSync(join(dir, "node_modules", "@anvil"), { recursive: true });
  for (const pkg of packages) symlinkSync(join(root, "packages", pkg), join(dir, "node_modules", "@anvil", pkg), "dir");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The outputs an entry loads before it runs: itself and what it imports statically, transitively. */
export function eagerOutputs(metafile: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.outputs[file]!.imports) if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
  };
  visit(entry);
  return seen;
}
