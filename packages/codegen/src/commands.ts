import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import {
  formatLocation,
  loadModel,
  modelToJsonAst,
  serviceClosure,
  serviceProtocols,
  SEVERITIES,
  stringifyNode,
  type LoadModelResult,
  type Severity,
  type ValidationEvent,
} from "@anvil/model";
import { DocsError, generateSite, toOpenApi } from "@anvil/docs-site";
import { schemasFromModel } from "@anvil/dynamic";
import { emitProto } from "@anvil/protocol-grpc";
import type { ParsedArgs } from "./args.js";
import { NO_EXAMPLES } from "./generate/fakes-file.js";
import { generate } from "./generate/generate.js";
import { writeInit } from "./init.js";
import { resolveSettings } from "./settings.js";

/** Where a command writes: injectable so tests can capture output. */
export interface Io {
  /** Receives the command's output, one message per call without a trailing newline (stdout in the CLI). */
  readonly out: (text: string) => void;
  /** Receives diagnostics, errors and status messages, one per call without a trailing newline (stderr in the CLI). */
  readonly err: (text: string) => void;
  /**
   * Transient progress of a long run (the CLI shows it on stderr when that
   * is a terminal, overwriting one line); `undefined` text clears it.
   */
  readonly progress?: (text: string | undefined) => void;
}

/** Formats an event like a compiler: `path:line:col: error: message [EventId]`. */
export function formatDiagnostic(event: ValidationEvent, cwd = process.cwd()): string {
  const loc = event.location;
  let where = "";
  if (loc?.file) {
    const rel = relative(cwd, loc.file);
    // Relative inside the working folder (short, clickable); absolute outside it.
    const file = rel && !rel.startsWith("..") ? rel : loc.file;
    where = `${loc.line > 0 ? formatLocation({ ...loc, file }) : file}: `;
  }
  const shape = event.shapeId ? ` (${event.shapeId})` : "";
  const severity = event.severity === "DANGER" ? "danger" : event.severity.toLowerCase();
  return `${where}${severity}: ${event.message}${shape} [${event.id}]`;
}

/** Reads source lines for diagnostics, each file once. */
export class SourceLines {
  private readonly files = new Map<string, string[] | null>();

  /** The 1-based line of a file, or undefined when it cannot be read. */
  line(file: string, line: number): string | undefined {
    let lines = this.files.get(file);
    if (lines === undefined) {
      try {
        lines = readFileSync(file, "utf8").split(/\r?\n/);
      } catch {
        lines = null;
      }
      this.files.set(file, lines);
    }
    return lines?.[line - 1];
  }
}

/** The source line of an event with a caret under its column, like a compiler shows it. */
export function formatSnippet(event: ValidationEvent, sources: SourceLines): string | undefined {
  const loc = event.location;
  if (!loc?.file || loc.line <= 0) return undefined;
  const text = sources.line(loc.file, loc.line);
  if (text === undefined || text.length > 300) return undefined;
  const gutter = String(loc.line).padStart(5);
  const caret = `${" ".repeat(Math.max(0, loc.column - 1))}^`;
  return `${gutter} | ${text}\n${" ".repeat(gutter.length)} | ${caret}`;
}

function compareEvents(a: ValidationEvent, b: ValidationEvent): number {
  const fa = a.location?.file ?? "";
  const fb = b.location?.file ?? "";
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.column ?? 0) - (b.location?.column ?? 0);
}

function load(args: ParsedArgs, io: Io, log: (text: string) => void): LoadModelResult | undefined {
  if (args.models.length === 0) {
    io.err("error: no model given; pass --model <files or directories>");
    return undefined;
  }
  const started = performance.now();
  const result = loadModel({
    paths: args.models,
    allowUnknownTraits: args.flags.has("--allow-unknown-traits"),
    bundledTraits: !args.flags.has("--no-bundled-traits"),
  });
  const ms = Math.round(performance.now() - started);
  const userShapes = [...result.model.shapes.keys()].filter((id) => !result.model.isBuiltin(id)).length;
  log(`Loaded ${args.models.join(", ")}: ${userShapes} shapes in ${ms} ms`);
  return result;
}

function countBy(events: readonly ValidationEvent[], severity: Severity): number {
  return events.filter((e) => e.severity === severity).length;
}

/** `anvil validate`: prints events like a compiler; exit code 1 when there are errors. */
export function validateCommand(args: ParsedArgs, io: Io): number {
  const result = load(args, io, io.out);
  if (!result) return 2;
  const minimum = (args.flags.get("--severity") as Severity | undefined) ?? "WARNING";
  if (!SEVERITIES.includes(minimum)) {
    io.err(`error: --severity must be one of ${SEVERITIES.join(", ")}`);
    return 2;
  }
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  const shown = result.events.filter((e) => rank(e.severity) >= rank(minimum)).sort(compareEvents);
  const sources = new SourceLines();
  for (const e of shown) {
    io.out(formatDiagnostic(e));
    const snippet = formatSnippet(e, sources);
    if (snippet) io.out(snippet);
  }
  const errors = countBy(result.events, "ERROR") + countBy(result.events, "DANGER");
  const warnings = countBy(result.events, "WARNING");
  if (args.flags.has("--summary") && errors === 0) io.out(summarize(result));
  io.out(`${errors === 0 ? "✓ valid" : "✗ invalid"}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`);
  return errors > 0 ? 1 : 0;
}

/** A short, human summary of the services of a model. */
export function summarize({ model }: LoadModelResult): string {
  const lines: string[] = [];
  const user = [...model.shapes.values()].filter((s) => !model.isBuiltin(s.id));
  const services = user.filter((s) => s.type === "service");
  lines.push(`Model: ${user.length} shapes, ${services.length} service${services.length === 1 ? "" : "s"}`);
  for (const service of services) {
    const closure = serviceClosure(model, service.id);
    const protocols = serviceProtocols(model, service);
    lines.push(`  ${service.id}${service.version ? ` (version ${service.version})` : ""}`);
    lines.push(`    protocols:  ${protocols.length ? protocols.join(", ") : "(none)"}`);
    lines.push(`    operations: ${closure.operations.map((o) => o.id.slice(o.id.indexOf("#") + 1)).join(", ") || "(none)"}`);
    if (closure.resources.length) lines.push(`    resources:  ${closure.resources.map((r) => r.id.slice(r.id.indexOf("#") + 1)).join(", ")}`);
    if (closure.errors.length) lines.push(`    errors:     ${closure.errors.map((e) => e.id.slice(e.id.indexOf("#") + 1)).join(", ")}`);
    lines.push(`    shapes in closure: ${[...closure.shapes].filter((id) => !model.isBuiltin(id)).length}`);
  }
  return lines.join("\n");
}

/** `anvil ast`: prints (or writes) the model as a JSON AST. */
export function astCommand(args: ParsedArgs, io: Io): number {
  const result = load(args, io, io.err);
  if (!result) return 2;
  const errors = result.events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
  for (const e of errors.sort(compareEvents)) io.err(formatDiagnostic(e));
  if (errors.length) return 1;
  const json = stringifyNode(modelToJsonAst(result.model, { includePrelude: args.flags.has("--include-prelude") }), 2);
  const out = args.flags.get("--out");
  if (typeof out === "string") {
    writeFileSync(out, `${json}\n`);
    io.err(`Wrote ${out}`);
  } else io.out(json);
  return 0;
}

function isError(e: ValidationEvent): boolean {
  return e.severity === "ERROR" || e.severity === "DANGER";
}

/**
 * Events printed on one line, without the source line under them: one per
 * operation, hundreds in a large model without examples, and the
 * operation's first line adds nothing to the message.
 */
const ONE_LINE_EVENTS: ReadonlySet<string> = new Set([NO_EXAMPLES]);

/** Prints events like a compiler, to stderr, sorted by file and position. */
function printEvents(events: readonly ValidationEvent[], io: Io): void {
  const sources = new SourceLines();
  for (const e of [...events].sort(compareEvents)) {
    io.err(formatDiagnostic(e));
    const snippet = ONE_LINE_EVENTS.has(e.id) ? undefined : formatSnippet(e, sources);
    if (snippet) io.err(snippet);
  }
}

/**
 * `anvil generate`: loads the model, generates each service's files and
 * writes those whose content changed. Exit code 1 on model or generation
 * errors (nothing is written then), 2 on bad settings. With `--check`,
 * writes nothing and exits 1 when a file is missing or differs.
 */
export function generateCommand(args: ParsedArgs, io: Io): number {
  const { settings, errors, warnings } = resolveSettings(args);
  for (const w of warnings) io.err(`warning: ${w}`);
  if (!settings) {
    for (const e of errors) io.err(`error: ${e}`);
    return 2;
  }
  const started = performance.now();
  io.progress?.(`anvil: loading ${settings.models.map(displayPath).join(", ")}`);
  const loaded = loadModel({ paths: settings.models, allowUnknownTraits: settings.allowUnknownTraits, bundledTraits: settings.bundledTraits });
  const shown = loaded.events.filter((e) => e.severity !== "SUPPRESSED" && e.severity !== "NOTE");
  if (hasModelErrors(loaded.events)) {
    io.progress?.(undefined);
    printEvents(shown, io);
    io.err(`✗ the model has errors; nothing generated`);
    return 1;
  }
  const result = generate(loaded.model, {
    services: settings.services,
    server: settings.server,
    client: settings.client,
    generateFakes: settings.generateFakes,
    proto: settings.proto,
    embedModel: settings.embedModel,
    onProgress: (done, total, id) => io.progress?.(`anvil: generated ${id} (${done}/${total})`),
  });
  io.progress?.(undefined);
  printEvents([...shown, ...result.events.filter((e) => e.severity !== "SUPPRESSED" && e.severity !== "NOTE")], io);
  if (result.events.some(isError)) {
    io.err(`✗ generation failed; nothing written`);
    return 1;
  }
  const check = args.flags.has("--check");
  const stale: string[] = [];
  let written = 0;
  for (const f of result.files) {
    const path = join(settings.out, f.path);
    let current: string | undefined;
    try {
      current = readFileSync(path, "utf8");
    } catch {
      current = undefined;
    }
    if (current === f.text) continue;
    if (check) stale.push(displayPath(path));
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.text);
      written++;
    }
  }
  const where = displayPath(settings.out);
  if (check) {
    for (const s of stale) io.err(`error: ${s} is out of date; run \`anvil generate\``);
    io.out(
      stale.length
        ? `✗ ${stale.length} of ${result.files.length} generated files are out of date in ${where}`
        : `✓ ${result.files.length} generated files are up to date in ${where}`,
    );
    return stale.length ? 1 : 0;
  }
  const services = new Set(result.files.flatMap((f) => (f.service === undefined ? [] : [f.service])));
  const ms = Math.round(performance.now() - started);
  io.out(
    `✓ generated ${result.files.length} files for ${services.size} service${services.size === 1 ? "" : "s"} (${[...services].join(", ")}) in ${where}: ${written} written, ${result.files.length - written} unchanged, ${ms} ms`,
  );
  return 0;
}

/**
 * `anvil proto --model ... [--service <id>] --out <file.proto>`: emits proto3
 * for a gRPC service (the one with `alloy.proto#grpc`, or the one named).
 * Exit code 1 on model errors (printed as path:line:col), 2 on bad arguments.
 */
export function protoCommand(args: ParsedArgs, io: Io): number {
  const out = args.flags.get("--out");
  if (typeof out !== "string") {
    io.err("error: no output given; pass --out <file.proto>");
    return 2;
  }
  const result = load(args, io, io.err);
  if (!result) return 2;
  const shown = result.events.filter((e) => e.severity !== "SUPPRESSED" && e.severity !== "NOTE");
  if (hasModelErrors(result.events)) {
    printEvents(shown, io);
    io.err("✗ the model has errors; nothing written");
    return 1;
  }
  const { model } = result;
  const services = [...model.shapes.values()].filter((s) => s.type === "service" && !model.isBuiltin(s.id));
  const wanted = args.flags.get("--service");
  let serviceId: string;
  if (typeof wanted === "string") {
    if (!services.some((s) => s.id === wanted)) {
      io.err(`error: no service \`${wanted}\` in the model (services: ${services.map((s) => s.id).join(", ") || "none"})`);
      return 2;
    }
    serviceId = wanted;
  } else {
    const grpc = services.filter((s) => s.traits.has("alloy.proto#grpc"));
    if (grpc.length !== 1) {
      io.err(
        grpc.length === 0
          ? "error: no service with @alloy.proto#grpc in the model; name one with --service <shapeId>"
          : `error: several gRPC services (${grpc.map((s) => s.id).join(", ")}); pick one with --service <shapeId>`,
      );
      return 2;
    }
    serviceId = grpc[0]!.id;
  }
  let text: string;
  try {
    text = emitProto(schemasFromModel(model).service(serviceId));
  } catch (error) {
    // what the model validator lets through but protobuf does not (field numbers in protobuf's reserved range)
    io.err(`error: ${(error as Error).message}`);
    io.err("✗ nothing written");
    return 1;
  }
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, text);
  io.err(`✓ wrote ${displayPath(resolve(out))} for ${serviceId}`);
  return 0;
}

/**
 * `anvil init <dir> [--name <Service>] [--force] [--anvil-from <checkout>]`:
 * writes a new service project and prints the next steps. Exit code 2 on
 * bad arguments or a non-empty folder without `--force`.
 */
export function initCommand(args: ParsedArgs, io: Io): number {
  const [dir, ...extra] = args.models;
  if (dir === undefined || extra.length) {
    io.err(
      `error: ${dir === undefined ? "no folder given" : `one folder only, not ${args.models.join(", ")}`}; usage: anvil init <dir> [--name <Service>] [--force] [--anvil-from <checkout>]`,
    );
    return 2;
  }
  const name = args.flags.get("--name");
  const anvilFrom = args.flags.get("--anvil-from");
  const result = writeInit({
    dir,
    force: args.flags.has("--force"),
    ...(typeof name === "string" ? { name } : {}),
    ...(typeof anvilFrom === "string" ? { anvilFrom } : {}),
  });
  if (!result.ok) {
    io.err(`error: ${result.error}`);
    return 2;
  }
  const where = displayPath(resolve(dir));
  const install = anvilFrom === undefined ? "npm install" : "npm install      # the @anvil packages link to the checkout (file: specs)";
  const cd = where === "." ? "" : `\n  cd ${shellQuote(where)}`;
  io.out(`✓ created the ${result.service} service in ${where}: ${result.written.length} files (${result.written.join(", ")})

Next steps:${cd}
  ${install}
  npm start        # generates, builds and serves ${result.service} on 127.0.0.1:8080
  npm test         # the generated client against the server, over every protocol

Then edit model/service.smithy, run \`npm run generate\`, and let the compiler guide src/handlers.ts.`);
  return 0;
}

/** Loads the model for a documentation command; prints its errors (exit 1) or a missing --model (exit 2). */
function loadForDocs(args: ParsedArgs, io: Io): LoadModelResult | number {
  const result = load(args, io, () => undefined);
  if (!result) return 2;
  const errors = result.events.filter(isError);
  if (errors.length > 0) {
    printEvents(errors, io);
    io.err("✗ the model has errors; nothing written");
    return 1;
  }
  return result;
}

/** Prints a documentation error like a compiler diagnostic (`file:line:col: error: ...`); other errors are rethrown. */
function reportDocsError(error: unknown, io: Io): number {
  if (!(error instanceof DocsError)) throw error;
  io.err(
    formatDiagnostic({
      severity: "ERROR",
      id: "Docs",
      message: error.detail,
      ...(error.location ? { location: error.location } : {}),
      ...(error.shapeId ? { shapeId: error.shapeId } : {}),
    }),
  );
  return 1;
}

/**
 * `anvil openapi --model ... [--service <id>] [--out FILE]`: the OpenAPI 3.1
 * document of a service, written to a file or printed. Exit code 1 on model
 * errors or a service that cannot be documented, 2 on bad arguments.
 */
export function openapiCommand(args: ParsedArgs, io: Io): number {
  const loaded = loadForDocs(args, io);
  if (typeof loaded === "number") return loaded;
  const service = args.flags.get("--service");
  let json: string;
  try {
    json = `${JSON.stringify(toOpenApi(loaded.model, typeof service === "string" ? { service } : {}), null, 2)}\n`;
  } catch (error) {
    return reportDocsError(error, io);
  }
  const out = args.flags.get("--out");
  if (typeof out !== "string") {
    io.out(json.trimEnd());
    return 0;
  }
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, json);
  io.out(`✓ wrote the OpenAPI 3.1 document to ${displayPath(resolve(out))}`);
  return 0;
}

/**
 * `anvil docs --model ... --out <dir>`: the static reference site of every
 * service of the model. Exit code 1 on model errors, 2 on bad arguments.
 */
export function docsCommand(args: ParsedArgs, io: Io): number {
  const out = args.flags.get("--out");
  if (typeof out !== "string") {
    io.err("error: no output folder given; pass --out <dir>");
    return 2;
  }
  const loaded = loadForDocs(args, io);
  if (typeof loaded === "number") return loaded;
  let files;
  try {
    files = generateSite(loaded.model);
  } catch (error) {
    return reportDocsError(error, io);
  }
  for (const file of files) {
    const path = join(out, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
  io.out(`✓ wrote the reference site to ${displayPath(resolve(out))}: ${files.length} files; open ${displayPath(resolve(out, "index.html"))}`);
  return 0;
}

/** A word as a POSIX shell reads it back: quoted only when it has to be. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A path as a person wants to read it: relative to the working folder when inside it, else absolute. */
function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

function hasModelErrors(events: readonly ValidationEvent[]): boolean {
  return events.some(isError);
}

/** The `anvil --help` text. */
export const USAGE = `anvil — Smithy toolkit for TypeScript

Usage:
  anvil validate --model <files|dirs>... [--summary] [--severity LEVEL]
  anvil ast --model <files|dirs>... [--out FILE] [--include-prelude]
  anvil generate --model <files|dirs>... --out <dir> [--service <shapeId>]... [--client] [--no-server] [--fakes] [--proto] [--embed-model] [--check]
  anvil generate [--config anvil.config.json|smithy-build.json]
  anvil init <dir> [--name <Service>] [--force] [--anvil-from <checkout>]
  anvil openapi --model <files|dirs>... [--service <shapeId>] [--out FILE]
  anvil docs --model <files|dirs>... --out <dir>
  anvil serve --model <files|dirs>... --fake [--service <shapeId>]... [--host H] [--port 8080] [--grpc-port 8081] [--body-limit N] [--no-docs] [--no-health] [--json-logs] [--bearer-token T] [--api-key K] [--basic USER:PASS] [--sigv4 AKID:SECRET]
  anvil proto --model <files|dirs>... --out <file.proto> [--service <shapeId>]

Options:
  --model, -m <paths>       Smithy IDL (.smithy) and JSON AST (.json) files or directories
  --allow-unknown-traits    Report unknown traits as warnings and keep their values
  --no-bundled-traits       Do not load Anvil's bundled trait definitions (aws, alloy, ...)
  --severity LEVEL          Lowest severity to print (NOTE, WARNING, DANGER, ERROR; default WARNING)
  --summary                 After validating, summarize the model's services

Generate options (flags override the config file):
  --out <dir>               Output folder
  --service <shapeId>       Generate only this service (repeatable; default: every service)
  --client / --no-client    Generate the typed client type (default off)
  --server / --no-server    Generate the server handler types (default on)
  --fakes                   Fakes from @examples: answers, a fake handler, a fake client (with --client)
  --proto / --no-proto      Also write <service>.proto for services with @alloy.proto#grpc (default off)
  --embed-model             Also write model.ts, the model as a JSON AST module, for loadModel where no
                            file can be read (Workers, browsers, one-file bundles; default off)
  --config <file>           Read settings from this anvil.config.json or smithy-build.json
                            (default: ./anvil.config.json, then ./smithy-build.json, when no --model is given)
  --check                   Write nothing; exit 1 when generated files are missing or out of date

Init options (a new service project: model, config, handlers, server, test, scripts):
  --name <Service>          The service's shape name (default: the folder name in PascalCase)
  --force                   Write into a folder that is not empty (same-named files are overwritten)
  --anvil-from <checkout>   Depend on a built local Anvil checkout (file: specs) instead of registry versions

Documentation:
  openapi                   The OpenAPI 3.1 document of a service (printed, or written with --out);
                            --service picks one when the model has several
  docs                      The static reference site of every service (HTML, CSS and a search script)

Serve options (a mock server from any model, no codegen step; Ctrl-C stops):
  --fake                    Answer from @examples (matched against the input), else synthesized values
  --service <shapeId>       Serve only this service (repeatable; default: every service)
  --host <host>             Interface to listen on (default 127.0.0.1)
  --port <n>                First HTTP port (default 8080); protocols whose routes collide and further
                            services take the next ports
  --grpc-port <n>           First port for gRPC (h2c; default 8081), for services with alloy.proto#grpc
  --body-limit <size>       Largest request body read into memory, in bytes or with k/m (e.g. 6m);
                            default 1 MiB, or a payload blob's @length maximum; more is a 413
  --no-docs                 Leave out /openapi, /openapi.json and /docs (served on each port by default)
  --no-health               Leave out /healthz (liveness) and /readyz (readiness: 503 while stopping)
  --json-logs               Log each call as one JSON object per line on stdout (the access log entry,
                            and what the fake answered or why the call was rejected); notes go to stderr
  --bearer-token <token>    Enforce @httpBearerAuth: calls need Authorization: Bearer <token> (repeatable)
  --api-key <key>           Enforce @httpApiKeyAuth: calls need the key where the trait says (repeatable)
  --basic <user:pass>       Enforce @httpBasicAuth with this user and password (repeatable)
  --sigv4 <akid:secret>     Enforce @aws.auth#sigv4: calls must be signed with this access key (repeatable)
                            Without these, the model's auth is not enforced (the startup log says so)

Proto options (proto3 for a gRPC service, for peers on protoc, grpc-js or protobufjs):
  --out <file.proto>        The file to write
  --service <shapeId>       The service (default: the one service with @alloy.proto#grpc)

  --help, -h                Show this help
`;
