import { BUNDLED_TRAIT_SOURCES, PRELUDE_SOURCE } from "./embedded-files.js";
import { assemble } from "./loader/assembler.js";
import type { FileDraft } from "./loader/draft.js";
import { parseIdl } from "./loader/idl-parser.js";
import { parseJsonAst } from "./loader/json-ast-loader.js";
import type { Model } from "./model.js";
import { validateModel } from "./validation/validate-model.js";
import type { ValidationEvent } from "./validation-event.js";

/** An in-memory model file. */
export interface ModelSource {
  /** File name used in messages; `.json` means JSON AST, anything else IDL. */
  readonly file: string;
  /** The file's contents: Smithy IDL, or a JSON AST when `file` ends in `.json`. */
  readonly text: string;
}

/** Options of {@link loadModel}. */
export interface LoadModelOptions {
  /** Model files and directories (searched recursively for `.smithy` and `.json` files). */
  readonly paths?: readonly string[];
  /** In-memory model files. */
  readonly sources?: readonly ModelSource[];
  /**
   * Load Anvil's bundled trait definitions (aws.protocols, alloy, smithy.test, ...).
   * Default true. The prelude is always loaded.
   */
  readonly bundledTraits?: boolean;
  /** Unknown traits become warnings with their values kept, as Smithy's `--allow-unknown-traits`. */
  readonly allowUnknownTraits?: boolean;
  /** Run the validators (targets, trait values and targets, HTTP bindings, gRPC). Default true. */
  readonly validate?: boolean;
}

/** The model and every event found while loading and validating it. */
export interface LoadModelResult {
  /** The assembled model; returned even when there are errors, holding what could be loaded. */
  readonly model: Model;
  /** Loader events followed by validation events (suppressions applied); only the loader's when `validate` is false. */
  readonly events: ValidationEvent[];
}

/** The largest model file read; bigger files are reported rather than read. */
export const MAX_MODEL_FILE_BYTES = 64 * 1024 * 1024;

let preludeDraft: FileDraft | undefined;
let bundledDrafts: FileDraft[] | undefined;

/** Parses one model file by its extension. @internal */
export function parseModelFile(file: string, text: string): FileDraft {
  return file.endsWith(".json") ? parseJsonAst(text, file) : parseIdl(text, file);
}

// The prelude and the bundled traits are embedded (src/embedded-files.ts), parsed on first use.
function prelude(): FileDraft {
  preludeDraft ??= parseIdl(PRELUDE_SOURCE.text, PRELUDE_SOURCE.file);
  return preludeDraft;
}

function bundled(): FileDraft[] {
  bundledDrafts ??= BUNDLED_TRAIT_SOURCES.map((source) => parseIdl(source.text, source.file));
  return bundledDrafts;
}

/**
 * Node's `fs` and `path`, on runtimes with a file system (Node, Bun, Deno);
 * undefined elsewhere (browsers, Workers). Asked for when model files are
 * read, rather than imported, so that the loader runs and bundles anywhere.
 */
function fileSystem(): { fs: typeof import("node:fs"); path: typeof import("node:path") } | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof get !== "function") return undefined;
  const fs = get("node:fs") as typeof import("node:fs") | undefined;
  const path = get("node:path") as typeof import("node:path") | undefined;
  return fs !== undefined && path !== undefined ? { fs, path } : undefined;
}

/** Expands paths to model files: directories recursively, in a stable order. */
export function findModelFiles(paths: readonly string[], events: ValidationEvent[]): string[] {
  const out: string[] = [];
  if (paths.length === 0) return out;
  const files = fileSystem();
  if (files === undefined) {
    events.push({
      severity: "ERROR",
      id: "Model",
      message: "Model files can only be read where there is a file system (Node, Bun, Deno): pass the models as `sources` here",
      location: { file: paths[0]!, line: 0, column: 0 },
    });
    return out;
  }
  const { statSync, readdirSync } = files.fs;
  const { extname, join, resolve } = files.path;
  const walk = (path: string, explicit: boolean): void => {
    let stat;
    try {
      stat = statSync(path);
    } catch (e) {
      events.push({
        severity: "ERROR",
        id: "Model",
        message: `Unable to read model path \`${path}\`: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        location: { file: path, line: 0, column: 0 },
      });
      return;
    }
    if (stat.isDirectory()) {
      let entries: string[];
      try {
        entries = readdirSync(path).sort();
      } catch (e) {
        events.push({
          severity: "ERROR",
          id: "Model",
          message: `Unable to list model directory \`${path}\`: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
          location: { file: path, line: 0, column: 0 },
        });
        return;
      }
      for (const entry of entries) if (!entry.startsWith(".")) walk(join(path, entry), false);
      return;
    }
    const ext = extname(path);
    if (ext === ".smithy" || ext === ".json") out.push(path);
    else if (explicit) {
      events.push({
        severity: "ERROR",
        id: "Model",
        message: `Unsupported model file \`${path}\`: expected a .smithy (IDL) or .json (JSON AST) file`,
        location: { file: path, line: 0, column: 0 },
      });
    }
  };
  for (const p of paths) walk(resolve(p), true);
  return out;
}

/** Reads a file that {@link findModelFiles} found (so there is a file system). */
function readModelFile(file: string, events: ValidationEvent[]): FileDraft | undefined {
  const location = { file, line: 0, column: 0 };
  const { statSync, readFileSync } = fileSystem()!.fs;
  try {
    const size = statSync(file).size;
    if (size > MAX_MODEL_FILE_BYTES) {
      events.push({ severity: "ERROR", id: "Model", message: `Model file is too large (${size} bytes; the limit is ${MAX_MODEL_FILE_BYTES})`, location });
      return undefined;
    }
    return parseModelFile(file, readFileSync(file, "utf8"));
  } catch (e) {
    events.push({
      severity: "ERROR",
      id: "Model",
      message: `Unable to read model file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      location,
    });
    return undefined;
  }
}

/**
 * Loads a Smithy model from IDL and JSON AST files and in-memory sources,
 * together with the prelude and (by default) Anvil's bundled traits, and
 * validates it. Never throws for a bad model: problems are events.
 *
 * @example
 * ```ts
 * const { model, events } = loadModel({ paths: ["model/"] });
 * for (const e of events) console.log(formatEvent(e));
 * ```
 */
export function loadModel(options: LoadModelOptions = {}): LoadModelResult {
  const events: ValidationEvent[] = [];
  const preludeFile = prelude();
  const files: FileDraft[] = [preludeFile];
  if (options.bundledTraits !== false) files.push(...bundled());
  const builtinFiles = new Set(files);
  for (const file of findModelFiles(options.paths ?? [], events)) {
    const draft = readModelFile(file, events);
    if (draft) files.push(draft);
  }
  for (const source of options.sources ?? []) files.push(parseModelFile(source.file, source.text));
  const assembled = assemble(files, { allowUnknownTraits: options.allowUnknownTraits ?? false }, preludeFile, builtinFiles);
  events.push(...assembled.events);
  return { model: assembled.model, events: options.validate === false ? events : validateModel(assembled.model, events) };
}
