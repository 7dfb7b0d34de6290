import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
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
import type { ParsedArgs } from "./args.js";

/** Where a command writes: injectable so tests can capture output. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** Formats an event like a compiler: `path:line:col: error: message [EventId]`. */
export function formatDiagnostic(event: ValidationEvent, cwd = process.cwd()): string {
  const loc = event.location;
  let where = "";
  if (loc?.file) {
    const file = relative(cwd, loc.file) || loc.file;
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

/** The `anvil --help` text. */
export const USAGE = `anvil — Smithy toolkit for TypeScript

Usage:
  anvil validate --model <files|dirs>... [--summary] [--severity LEVEL]
  anvil ast --model <files|dirs>... [--out FILE] [--include-prelude]

Options:
  --model, -m <paths>       Smithy IDL (.smithy) and JSON AST (.json) files or directories
  --allow-unknown-traits    Report unknown traits as warnings and keep their values
  --no-bundled-traits       Do not load Anvil's bundled trait definitions (aws, alloy, ...)
  --severity LEVEL          Lowest severity to print (NOTE, WARNING, DANGER, ERROR; default WARNING)
  --summary                 After validating, summarize the model's services
  --help, -h                Show this help
`;
