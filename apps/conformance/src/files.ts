import { readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

/**
 * Every file under `dir` (recursively) whose name passes `accept`, as absolute
 * paths sorted by their relative path so that runs are deterministic.
 */
export function listFiles(dir: string, accept: (name: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && accept(entry.name)) out.push(full);
    }
  };
  walk(dir);
  return out.sort((a, b) => compareStrings(toPosix(relative(dir, a)), toPosix(relative(dir, b))));
}

/** The subfolders of `dir` (not recursive), sorted by name. */
export function listDirectories(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(compareStrings);
}

/** Whether `path` exists and is a directory. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `path` exists and is a file. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `file` relative to `base`, with `/` separators: the form used for case names. */
export function relativeName(base: string, file: string): string {
  return toPosix(relative(base, file));
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** Code-unit string order (locale independent). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
