/**
 * Small helpers that write TypeScript source text: literals for values and
 * TSDoc comments. Output is deterministic: the same input gives the same text.
 */
import { propertyKey } from "./names.js";

/** A source expression, already written. Wrapping it keeps it apart from data when building literals. */
export class Code {
  constructor(readonly text: string) {}
}

/** Marks text as code, to be written as is inside {@link literal}. */
export const code = (text: string): Code => new Code(text);

/**
 * A JavaScript literal for a value: strings, numbers (`NaN`, `-0` and the
 * infinities included), bigints (`12n`), booleans, null, undefined, arrays,
 * plain objects and {@link Code}. Object keys keep their order; `__proto__`
 * is written as a computed key so it stays a plain property.
 */
export function literal(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.text;
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      if (Number.isNaN(value)) return "Number.NaN";
      if (value === Number.POSITIVE_INFINITY) return "Number.POSITIVE_INFINITY";
      if (value === Number.NEGATIVE_INFINITY) return "Number.NEGATIVE_INFINITY";
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "boolean":
      return String(value);
    case "undefined":
      return "undefined";
    default:
      break;
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => literal(v, `${indent}  `));
    return fits(items, indent) ? `[${items.join(", ")}]` : `[\n${items.map((i) => `${indent}  ${i}`).join(",\n")},\n${indent}]`;
  }
  const entries = Object.keys(value as object).map((k) => `${propertyKey(k)}: ${literal((value as Record<string, unknown>)[k], `${indent}  `)}`);
  if (entries.length === 0) return "{}";
  return fits(entries, indent) ? `{ ${entries.join(", ")} }` : `{\n${entries.map((e) => `${indent}  ${e}`).join(",\n")},\n${indent}}`;
}

const WIDTH = 110;

/**
 * A call expression after `lead` (the text before it on the line, for
 * measuring): on one line when it fits, else one argument per line.
 * Arguments are written for the indented layout (nested literals at two spaces).
 */
export function call(lead: string, fn: string, args: readonly string[]): string {
  const flat = `${fn}(${args.join(", ")})`;
  if (!args.some((a) => a.includes("\n")) && lead.length + flat.length + 1 <= WIDTH) return flat;
  return `${fn}(\n${args.map((a) => `  ${a},`).join("\n")}\n)`;
}

function fits(parts: readonly string[], indent: string): boolean {
  let size = indent.length + 4;
  for (const p of parts) {
    if (p.includes("\n")) return false;
    size += p.length + 2;
  }
  return size <= WIDTH;
}

/**
 * A TSDoc comment for documentation text (CommonMark, possibly with HTML, as
 * Smithy writes it), at the given indentation. `*\/` inside the text is
 * escaped so it cannot end the comment. Returns "" when there is nothing to say.
 */
export function docComment(lines: readonly (string | undefined)[], indent = ""): string {
  const text = lines
    .filter((l): l is string => l !== undefined && l.trim() !== "")
    .join("\n\n")
    .replace(/\r\n?/g, "\n")
    .replace(/\*\//g, "*\\/")
    .replace(/[ \t]+$/gm, "")
    .trim();
  if (!text) return "";
  const body = text.split("\n");
  if (body.length === 1 && indent.length + body[0]!.length + 7 <= WIDTH) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join("\n")}\n${indent} */\n`;
}

/** The annotation that lets a bundler drop a call whose result nobody uses: every schema builder call generated code makes carries it. */
export const PURE = "/*@__PURE__*/ ";
