import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isFile, listFiles } from "./files.js";

/** Whether a file name is a Smithy model (IDL or JSON AST). */
export function isModelFile(name: string): boolean {
  return name.endsWith(".smithy") || name.endsWith(".json");
}

/** Parses a Smithy `manifest` file: one path per line, relative to the manifest's folder. */
export function parseManifest(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/**
 * The model files of a folder: those its `manifest` lists, if it has one (as
 * Smithy's classpath discovery reads it), else every `.smithy` and `.json`
 * file below it.
 */
export function modelFilesOf(dir: string): string[] {
  const manifest = join(dir, "manifest");
  if (isFile(manifest)) return parseManifest(readFileSync(manifest, "utf8")).map((p) => join(dir, p));
  return listFiles(dir, isModelFile);
}
