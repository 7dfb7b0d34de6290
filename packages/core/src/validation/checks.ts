/**
 * The checks one set of traits puts on one value (`@length`, `@range`,
 * `@pattern`, enum values, `@uniqueItems`), decided when a schema is
 * compiled. Each check reads the value and nothing else.
 *
 * @internal
 */
import type { EnumValue, Schema } from "../schema/schema.js";
import type { Bounds, Traits } from "../schema/traits.js";
import { BigDecimal } from "../values/big-decimal.js";
import { report, type Check } from "./context.js";
import { hasDuplicates } from "./deep-equal.js";
import { enumConstraint, lengthConstraint, patternConstraint, rangeConstraint, UNIQUE_ITEMS_CONSTRAINT, UUID_CONSTRAINT } from "./messages.js";
import { compilePattern } from "./pattern.js";

const NUMERIC_KINDS: ReadonlySet<string> = new Set(["byte", "short", "integer", "long", "float", "double", "bigInteger", "bigDecimal"]);

/** Whether traits on a value of `target` constrain it (besides `@required`, which the structure checks). */
export function hasOwnChecks(traits: Traits, target: Schema): boolean {
  const kind = target.kind;
  if (traits.length !== undefined && (kind === "string" || kind === "blob" || kind === "list" || kind === "map")) return true;
  if (traits.range !== undefined && NUMERIC_KINDS.has(kind)) return true;
  if (traits.pattern !== undefined && kind === "string") return true;
  if (traits.uniqueItems === true && kind === "list") return true;
  if (traits.uuidFormat === true && kind === "string") return true;
  return (kind === "enum" || kind === "intEnum") && !traits.openEnum;
}

/** The checks of `traits` on a value of `target`, in report order: enum, length, pattern, range, uniqueItems, uuidFormat. */
export function ownChecks(traits: Traits, target: Schema): Check[] {
  const checks: Check[] = [];
  const kind = target.kind;
  if ((kind === "enum" || kind === "intEnum") && !traits.openEnum) checks.push(enumCheck(target.values, kind === "intEnum"));
  if (traits.length !== undefined) {
    const c = lengthCheck(kind, traits.length);
    if (c) checks.push(c);
  }
  if (traits.pattern !== undefined && kind === "string") checks.push(patternCheck(traits.pattern));
  if (traits.range !== undefined && NUMERIC_KINDS.has(kind)) checks.push(rangeCheck(traits.range, kind === "float"));
  if (traits.uniqueItems === true && kind === "list") checks.push(uniqueItemsCheck());
  if (traits.uuidFormat === true && kind === "string") checks.push(uuidCheck);
  return checks;
}

/** Internal values (`EnumValue.internal`) still validate but are left out of the message. */
function enumCheck(values: readonly EnumValue[], isInt: boolean): Check {
  const allowed = new Set<unknown>(values.map((v) => v.value));
  const constraint = enumConstraint(values.filter((v) => !v.internal).map((v) => v.value));
  const type = isInt ? "number" : "string";
  if (allowed.size <= 8) {
    // A few comparisons beat hashing the value.
    const list = [...allowed];
    return (value, ctx) => {
      if (typeof value !== type) return;
      for (let i = 0; i < list.length; i++) if (list[i] === value) return;
      report(ctx, constraint);
    };
  }
  return (value, ctx) => {
    if (typeof value === type && !allowed.has(value)) report(ctx, constraint);
  };
}

/** Unicode code points of a string; a lone surrogate counts as one. */
export function codePointLength(s: string): number {
  const n = s.length;
  let count = n;
  for (let i = 0; i < n - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

function countEntries(map: object): number {
  let n = 0;
  for (const k in map) if (Object.hasOwn(map, k)) n++;
  return n;
}

function lengthCheck(kind: string, bounds: Bounds): Check | undefined {
  const min = bounds.min === undefined ? -Infinity : Number(bounds.min);
  const max = bounds.max === undefined ? Infinity : Number(bounds.max);
  const constraint = lengthConstraint(bounds);
  const check = (length: number, ctx: Parameters<Check>[1]): void => {
    if (length < min || length > max) report(ctx, constraint, length);
  };
  switch (kind) {
    case "string":
      return (value, ctx) => {
        if (typeof value !== "string") return;
        // A string has between length/2 and length code points: most need no counting.
        if (value.length <= max && (value.length + 1) >> 1 >= min) return;
        check(codePointLength(value), ctx);
      };
    case "blob":
      return (value, ctx) => {
        if (value instanceof Uint8Array) check(value.byteLength, ctx);
      };
    case "list":
      return (value, ctx) => {
        if (Array.isArray(value)) check(value.length, ctx);
      };
    case "map":
      return (value, ctx) => {
        if (typeof value === "object" && value !== null) check(countEntries(value), ctx);
      };
    default:
      return undefined;
  }
}

function patternCheck(pattern: string): Check {
  const test = compilePattern(pattern);
  const constraint = patternConstraint(pattern);
  return (value, ctx) => {
    if (typeof value === "string" && !test(value)) report(ctx, constraint);
  };
}

/**
 * Numbers, bigints and BigDecimals compared exactly with number or bigint
 * bounds (`<` between a number and a bigint is exact). NaN is outside every
 * range. Floats compare as float32 on both sides, so a bound of 8.8 admits the
 * float nearest 8.8 however the codec delivered it.
 */
function rangeCheck(bounds: Bounds, float32: boolean): Check {
  const constraint = rangeConstraint(bounds);
  const fround = (b: number | bigint | undefined): number | bigint | undefined =>
    float32 && typeof b === "number" ? Math.fround(b) : b;
  const min = fround(bounds.min);
  const max = fround(bounds.max);
  const minDecimal = min === undefined ? undefined : BigDecimal.from(min);
  const maxDecimal = max === undefined ? undefined : BigDecimal.from(max);
  // Number bounds (or none): a number inside them needs no more.
  const low = typeof min === "number" ? min : min === undefined ? -Infinity : NaN;
  const high = typeof max === "number" ? max : max === undefined ? Infinity : NaN;
  return (value, ctx) => {
    if (typeof value === "number" && !float32 && value >= low && value <= high) return;
    let v: number | bigint;
    if (typeof value === "number") {
      if (value !== value) return report(ctx, constraint);
      v = float32 ? Math.fround(value) : value;
    } else if (typeof value === "bigint") {
      v = value;
    } else {
      if (BigDecimal.is(value) && ((minDecimal !== undefined && value.compare(minDecimal) < 0) || (maxDecimal !== undefined && value.compare(maxDecimal) > 0))) {
        report(ctx, constraint);
      }
      return;
    }
    if ((min !== undefined && v < min) || (max !== undefined && v > max)) report(ctx, constraint);
  };
}

function uniqueItemsCheck(): Check {
  return (value, ctx) => {
    if (Array.isArray(value) && hasDuplicates(value)) report(ctx, UNIQUE_ITEMS_CONSTRAINT);
  };
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const uuidCheck: Check = (value, ctx) => {
  if (typeof value === "string" && !UUID.test(value)) report(ctx, UUID_CONSTRAINT);
};
