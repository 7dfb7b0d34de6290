/**
 * Converts node values (trait values, `@default`s) to Anvil's runtime value
 * model, guided by the shape they belong to.
 */
import { BigDecimal } from "@anvil/core";
import { setDataKey } from "@anvil/core/protocol";
import type { Model, NodeValue, Shape } from "@anvil/model";
import { exactNumberText, isNodeObject } from "@anvil/model";

/** Thrown-by-message prefix of this module's errors. */
const CONTEXT = "schemasFromModel";

/**
 * A node value that does not fit the shape it is for (a `@default` timestamp
 * that is neither epoch seconds nor RFC 3339 text, a blob that is not
 * base64, ...). Callers that know where the value comes from (a file and a
 * line) can report {@link NodeValueError.reason} there.
 */
export class NodeValueError extends Error {
  /** Always `"NodeValueError"`. */
  override readonly name = "NodeValueError";

  /**
   * @param reason - What is wrong, starting with where the value comes from
   *   (`` @default of `ex#Foo$when`: a timestamp value must be ... ``).
   */
  constructor(
    /** What is wrong: the message without its `schemasFromModel: ` prefix. */
    readonly reason: string,
  ) {
    super(`${CONTEXT}: ${reason}`);
  }
}

/**
 * The runtime value of a node value for a shape: a `Date` for a timestamp
 * (from epoch seconds or RFC 3339 text), bytes for a blob (from base64), a
 * `BigDecimal` for a bigDecimal, `number | bigint` for long and bigInteger,
 * `NaN`/`±Infinity` for float and double given as text, the node value as is
 * for a document, and lists, maps and structures converted member by member.
 * Arrays and objects are frozen: defaults are shared by every reader.
 * Throws a {@link NodeValueError} for a value that does not fit the shape.
 *
 * @param model - The model the shape belongs to.
 * @param targetId - The shape the value is for (a member's target).
 * @param value - The node value.
 * @param where - Where the value comes from, for messages.
 */
export function runtimeValue(model: Model, targetId: string, value: NodeValue, where: string, options: RuntimeValueOptions = {}): unknown {
  const shape = model.getShape(targetId);
  if (!shape) throw new NodeValueError(`${where}: unknown shape \`${targetId}\``);
  return convert(model, shape, value, where, options.blobText === true);
}

/** How {@link runtimeValue} reads values written by hand. */
export interface RuntimeValueOptions {
  /**
   * A blob value that is not base64 is the UTF-8 bytes of its text, rather
   * than an error: AWS models write `@examples` that way (`Payload: "{}"`),
   * and Smithy requires base64 only where it says so.
   */
  readonly blobText?: boolean;
}

/** `exact` is the source text of an approximate number (see `exactNumberText`), which a bigDecimal takes instead. */
function convert(model: Model, shape: Shape, value: NodeValue, where: string, blobText: boolean, exact?: string): unknown {
  if (value === null) return null;
  switch (shape.type) {
    case "timestamp":
      return toDate(value, where);
    case "blob":
      if (typeof value !== "string") throw new NodeValueError(`${where}: a blob value must be base64 text`);
      return blobText && !isBase64(value) ? new TextEncoder().encode(value) : fromBase64(value, where);
    case "bigDecimal":
      if (typeof value !== "number" && typeof value !== "bigint" && typeof value !== "string") {
        throw new NodeValueError(`${where}: a bigDecimal value must be a number`);
      }
      try {
        return BigDecimal.from(exact ?? value);
      } catch {
        throw new NodeValueError(`${where}: a bigDecimal value must be a finite decimal number`);
      }
    case "float":
    case "double":
      if (value === "NaN") return Number.NaN;
      if (value === "Infinity") return Number.POSITIVE_INFINITY;
      if (value === "-Infinity") return Number.NEGATIVE_INFINITY;
      return typeof value === "bigint" ? Number(value) : value;
    case "list":
    case "set": {
      if (!Array.isArray(value)) return value;
      const item = shape.members.get("member")!;
      return Object.freeze(value.map((v, i) => convert(model, targetOf(model, item.target, where), v, `${where}[${i}]`, blobText, exactNumberText(value, i))));
    }
    case "map": {
      if (!isNodeObject(value)) return value;
      const target = targetOf(model, shape.members.get("value")!.target, where);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) setDataKey(out, key, convert(model, target, value[key]!, `${where}.${key}`, blobText, exactNumberText(value, key)));
      return Object.freeze(out);
    }
    case "structure": {
      if (!isNodeObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const m = shape.members.get(key);
        setDataKey(
          out,
          key,
          m ? convert(model, targetOf(model, m.target, where), value[key]!, `${where}.${key}`, blobText, exactNumberText(value, key)) : value[key],
        );
      }
      return Object.freeze(out);
    }
    case "union": {
      if (!isNodeObject(value)) return value;
      const keys = Object.keys(value);
      if (keys.length !== 1) return value;
      const name = keys[0]!;
      const m = shape.members.get(name);
      const inner = m
        ? convert(model, targetOf(model, m.target, where), value[name]!, `${where}.${name}`, blobText, exactNumberText(value, name))
        : value[name];
      return Object.freeze({ $case: name, value: inner });
    }
    default:
      // boolean, string, enum, intEnum, byte..long, bigInteger, document: the node value is the runtime value.
      return frozenCopy(value);
  }
}

function targetOf(model: Model, id: string, where: string): Shape {
  const s = model.getShape(id);
  if (!s) throw new NodeValueError(`${where}: unknown shape \`${id}\``);
  return s;
}

// Dates: epoch seconds (possibly fractional), or RFC 3339 date-time text.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function toDate(value: NodeValue, where: string): Date {
  if (typeof value === "number" || typeof value === "bigint") {
    const d = new Date(Math.round(Number(value) * 1000));
    if (!Number.isNaN(d.getTime())) return d;
  } else if (typeof value === "string" && RFC3339.test(value)) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new NodeValueError(`${where}: a timestamp value must be epoch seconds or RFC 3339 text`);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isBase64(text: string): boolean {
  return text.length % 4 !== 1 && BASE64.test(text);
}

function fromBase64(text: string, where: string): Uint8Array {
  if (!isBase64(text)) throw new NodeValueError(`${where}: invalid base64 blob value`);
  // atob is a web standard (Node 16+); it accepts missing padding.
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A frozen deep copy of a node value (the model's own values stay untouched). */
function frozenCopy(value: NodeValue): NodeValue {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as NodeValue[];
  if (!isNodeObject(value)) return value;
  const out: Record<string, NodeValue> = {};
  for (const key of Object.keys(value)) setDataKey(out, key, frozenCopy(value[key]!));
  return Object.freeze(out);
}
