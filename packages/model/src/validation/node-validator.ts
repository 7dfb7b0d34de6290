import type { Model } from "../model.js";
import { isNodeNumber, isNodeObject, nodeTypeName, type NodeValue } from "../node-value.js";
import type { MemberShape, Shape } from "../shape.js";
import { isAbsoluteShapeId } from "../shape-id.js";
import type { Severity } from "../validation-event.js";

/** One problem found in a node value, with the dotted path to it. */
export interface NodeProblem {
  /** ERROR, or WARNING for an unknown structure member or a zero default outside its `@range`. */
  readonly severity: Severity;
  /** Where in the value the problem is: member names, map keys and list indexes joined by `.` (after any `path` passed in); empty for the value itself. */
  readonly path: string;
  /** What is wrong with the value. */
  readonly message: string;
  /** The value is not of the shape's type at all (a string for an integer, an object for a string): nothing reading it as that shape can use it. */
  readonly wrongType?: true;
}

/** Inclusive bounds of the fixed-size integer types (`long` exactly, as bigint). */
const INTEGER_RANGES: Record<string, [number | bigint, number | bigint]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** Deeper values than this are reported rather than walked. */
const MAX_DEPTH = 256;

function describe(value: NodeValue): string {
  if (value === null) return "null value";
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") {
    return `${nodeTypeName(value)} value, \`${typeof value === "string" ? value : String(value)}\``;
  }
  return `${nodeTypeName(value)} value`;
}

/**
 * Checks a node value (a trait value, a default, an example) against the shape
 * it should conform to: types, required members, enum values, `@length`,
 * `@range`, `@pattern` and `@idRef`.
 */
export function validateNodeValue(model: Model, shapeId: string, value: NodeValue, path = ""): NodeProblem[] {
  const problems: NodeProblem[] = [];
  check(model, shapeId, undefined, value, path, problems, 0, TRAIT_VALUE);
  return problems;
}

/**
 * Checks a `@default` value against the shape or member it is applied to,
 * as {@link validateNodeValue} does, with the member's own constraints
 * first. A zero that breaks a `@range` is a WARNING rather than an ERROR:
 * a 1.0 model gets zero defaults on its primitive members when it is read
 * as 2.0, whatever their ranges, and Smithy lets that conversion through.
 */
export function validateDefaultValue(model: Model, shape: Shape | MemberShape, value: NodeValue): NodeProblem[] {
  const problems: NodeProblem[] = [];
  if (shape.type === "member") check(model, shape.target, shape, value, "", problems, 0, DEFAULT_VALUE);
  else check(model, shape.id, undefined, value, "", problems, 0, DEFAULT_VALUE);
  return problems;
}

/** How strictly a value is checked, by what it is. */
interface Mode {
  /** A zero out of `@range` is only a WARNING (see {@link validateDefaultValue}). */
  readonly zeroRangeWarning: boolean;
  /** Required structure members must be present. */
  readonly requireMembers: boolean;
  /** An event stream member (a `@streaming` union) may hold a list of its events. */
  readonly eventLists: boolean;
}

const TRAIT_VALUE: Mode = { zeroRangeWarning: false, requireMembers: true, eventLists: false };
const DEFAULT_VALUE: Mode = { zeroRangeWarning: true, requireMembers: true, eventLists: false };
const EXAMPLE_VALUE: Mode = { zeroRangeWarning: false, requireMembers: false, eventLists: true };

/**
 * Checks an `@examples` value (an input, an output, an error's content)
 * against its shape, as {@link validateNodeValue} does, except that
 * required members may be left out (a fake fills them in) and an event
 * stream member may hold a list of its events.
 */
export function validateExampleValue(model: Model, shapeId: string, value: NodeValue): NodeProblem[] {
  const problems: NodeProblem[] = [];
  check(model, shapeId, undefined, value, "", problems, 0, EXAMPLE_VALUE);
  return problems;
}

/** Whether a member targets an event stream (a `@streaming` union). */
function isEventStream(model: Model, member: MemberShape): boolean {
  const target = model.getShape(member.target);
  return target?.type === "union" && target.traits.has("smithy.api#streaming");
}

function check(
  model: Model,
  shapeId: string,
  member: MemberShape | undefined,
  value: NodeValue,
  path: string,
  out: NodeProblem[],
  depth: number,
  mode: Mode,
): void {
  const shape = model.getShape(shapeId);
  if (!shape) return; // unresolved targets are reported by the target validator
  const error = (message: string): void => {
    out.push({ severity: "ERROR", path, message });
  };
  if (depth > MAX_DEPTH) {
    error(`Value is nested deeper than ${MAX_DEPTH} levels`);
    return;
  }
  const expect = (kind: string): void => {
    out.push({
      severity: "ERROR",
      path,
      message: `Expected ${kind} value for ${shape.type} shape, \`${shape.id}\`; found ${describe(value)}`,
      wrongType: true,
    });
  };
  const traits = (id: string): NodeValue | undefined => member?.traits.get(id) ?? shape.traits.get(id);
  switch (shape.type) {
    case "document":
      return;
    case "string":
    case "enum": {
      if (typeof value !== "string") return expect("string");
      checkLength(traits("smithy.api#length"), [...value].length, "String value provided for", shape, error);
      const pattern = traits("smithy.api#pattern");
      if (typeof pattern === "string") {
        try {
          if (!new RegExp(pattern, "u").test(value)) error(`String value provided for \`${shape.id}\` must match regular expression: ${pattern}`);
        } catch {
          // an invalid pattern is reported on the pattern trait itself
        }
      }
      const values = enumValues(shape);
      if (values && !values.includes(value)) {
        error(`String value provided for \`${shape.id}\` must be one of the following values: ${values.map((v) => `\`${v}\``).join(", ")}`);
      }
      if (traits("smithy.api#idRef") !== undefined && !isAbsoluteShapeId(value)) {
        error(`Expected a valid shape ID, but found \`${value}\``);
      }
      return;
    }
    case "blob":
      if (typeof value !== "string") return expect("string");
      checkLength(traits("smithy.api#length"), value.length, "Value provided for", shape, error);
      return;
    case "boolean":
      if (typeof value !== "boolean") expect("boolean");
      return;
    case "timestamp":
      if (typeof value !== "string" && typeof value !== "number") expect("string or number");
      return;
    case "byte":
    case "short":
    case "integer":
    case "long":
    case "bigInteger":
    case "intEnum":
    case "float":
    case "double":
    case "bigDecimal": {
      if (!isNodeNumber(value)) {
        if (typeof value === "string" && (shape.type === "float" || shape.type === "double") && ["NaN", "Infinity", "-Infinity"].includes(value)) return;
        return expect("number");
      }
      const integral = shape.type !== "float" && shape.type !== "double" && shape.type !== "bigDecimal";
      if (integral && typeof value === "number" && !Number.isInteger(value)) {
        error(`${shape.type} shapes must not have floating point values, but found \`${value}\` provided for \`${shape.id}\``);
      }
      const bounds = INTEGER_RANGES[shape.type === "intEnum" ? "integer" : shape.type];
      if (bounds && (value < bounds[0] || value > bounds[1])) error(`${shape.type} value must be >= ${bounds[0]} and <= ${bounds[1]}, but found ${value}`);
      const range = traits("smithy.api#range");
      if (isNodeObject(range)) {
        const outOfRange = mode.zeroRangeWarning && Number(value) === 0 ? (message: string) => out.push({ severity: "WARNING", path, message }) : error;
        if (isNodeNumber(range.min) && value < range.min)
          outOfRange(`Value provided for \`${shape.id}\` must be greater than or equal to ${range.min}, but found ${value}`);
        if (isNodeNumber(range.max) && value > range.max)
          outOfRange(`Value provided for \`${shape.id}\` must be less than or equal to ${range.max}, but found ${value}`);
      }
      if (shape.type === "intEnum") {
        const values = [...shape.members.values()].map((m) => m.traits.get("smithy.api#enumValue"));
        if (!values.includes(value))
          error(
            `Integer value provided for \`${shape.id}\` must be one of the following values: ${values.map((v) => `\`${String(v)}\``).join(", ")}, but found ${value}`,
          );
      }
      return;
    }
    case "list":
    case "set": {
      if (!Array.isArray(value)) return expect("array");
      checkLength(traits("smithy.api#length"), value.length, "Value provided for", shape, error);
      const m = shape.members.get("member");
      if (!m) return;
      const sparse = shape.traits.has("smithy.api#sparse");
      for (let i = 0; i < value.length; i++) {
        const item = value[i]!;
        if (item === null && sparse) continue;
        check(model, m.target, m, item, path ? `${path}.${i}` : String(i), out, depth + 1, mode);
      }
      return;
    }
    case "map": {
      if (!isNodeObject(value)) return expect("object");
      const entries = Object.keys(value);
      checkLength(traits("smithy.api#length"), entries.length, "Value provided for", shape, error);
      const k = shape.members.get("key");
      const v = shape.members.get("value");
      const sparse = shape.traits.has("smithy.api#sparse");
      for (const key of entries) {
        const sub = path ? `${path}.${key}` : key;
        if (k) check(model, k.target, k, key, sub, out, depth + 1, mode);
        const item = value[key]!;
        if (v && !(item === null && sparse)) check(model, v.target, v, item, sub, out, depth + 1, mode);
      }
      return;
    }
    case "structure": {
      if (!isNodeObject(value)) return expect("object");
      for (const key of Object.keys(value)) {
        const m = shape.members.get(key);
        const sub = path ? `${path}.${key}` : key;
        if (!m) {
          out.push({ severity: "WARNING", path: sub, message: `Invalid structure member \`${key}\` found for \`${shape.id}\`` });
          continue;
        }
        const item = value[key]!;
        if (item === null) continue;
        if (mode.eventLists && Array.isArray(item) && isEventStream(model, m)) {
          item.forEach((event, i) => check(model, m.target, m, event, `${sub}.${i}`, out, depth + 1, mode));
          continue;
        }
        check(model, m.target, m, item, sub, out, depth + 1, mode);
      }
      for (const m of shape.members.values()) {
        if (mode.requireMembers && m.traits.has("smithy.api#required") && !Object.hasOwn(value, m.name) && !m.traits.has("smithy.api#default")) {
          error(`Missing required structure member \`${m.name}\` for \`${shape.id}\``);
        }
      }
      return;
    }
    case "union": {
      if (!isNodeObject(value)) return expect("object");
      const keys = Object.keys(value);
      if (keys.length !== 1) {
        error(`union values must contain exactly one entry, but found ${keys.length} for \`${shape.id}\``);
        return;
      }
      const key = keys[0]!;
      const m = shape.members.get(key);
      if (!m) {
        error(`Invalid union member \`${key}\` found for \`${shape.id}\``);
        return;
      }
      check(model, m.target, m, value[key]!, path ? `${path}.${key}` : key, out, depth + 1, mode);
      return;
    }
    default:
      error(`Values cannot be provided for ${shape.type} shapes like \`${shape.id}\``);
  }
}

function enumValues(shape: Shape): string[] | undefined {
  if (shape.type === "enum") {
    return [...shape.members.values()].map((m) => m.traits.get("smithy.api#enumValue")).filter((v): v is string => typeof v === "string");
  }
  const legacy = shape.traits.get("smithy.api#enum");
  if (Array.isArray(legacy)) {
    return legacy.map((d) => (isNodeObject(d) ? d.value : undefined)).filter((v): v is string => typeof v === "string");
  }
  return undefined;
}

function checkLength(length: NodeValue | undefined, size: number, what: string, shape: Shape, error: (m: string) => void): void {
  if (!isNodeObject(length)) return;
  if (typeof length.min === "number" && size < length.min)
    error(`${what} \`${shape.id}\` must have at least ${length.min} entries or characters, but found ${size}`);
  if (typeof length.max === "number" && size > length.max)
    error(`${what} \`${shape.id}\` must have no more than ${length.max} entries or characters, but found ${size}`);
}
