/**
 * The rules one set of traits puts on one value (`@length`, `@range`,
 * `@pattern`, enum values, `@uniqueItems`), decided when a schema is
 * compiled. Each rule reads the value and nothing else: its test says
 * whether the value passes, its check reports the violation when it does not.
 *
 * @internal
 */
import type { EnumValue, Schema } from "../schema/schema.js";
import type { Bounds, Traits } from "../schema/traits.js";
import { BigDecimal } from "../values/big-decimal.js";
import { report, type Rule, type Test } from "./context.js";
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

/** A rule that reports `constraint` when `test` fails. */
function rule(test: Test, constraint: string): Rule {
  return {
    test,
    check: (value, ctx) => {
      if (!test(value)) report(ctx, constraint);
    },
  };
}

/** The rules of `traits` on a value of `target`, in report order: enum, length, pattern, range, uniqueItems, uuidFormat. */
export function ownRules(traits: Traits, target: Schema): Rule[] {
  const rules: Rule[] = [];
  const kind = target.kind;
  if ((kind === "enum" || kind === "intEnum") && !traits.openEnum) rules.push(enumRule(target.values, kind === "intEnum"));
  if (traits.length !== undefined) {
    const r = lengthRule(kind, traits.length);
    if (r) rules.push(r);
  }
  if (traits.pattern !== undefined && kind === "string") rules.push(patternRule(traits.pattern));
  if (traits.range !== undefined && NUMERIC_KINDS.has(kind)) rules.push(rangeRule(traits.range, kind === "float"));
  if (traits.uniqueItems === true && kind === "list") rules.push(uniqueItemsRule());
  if (traits.uuidFormat === true && kind === "string") rules.push(uuidRule);
  return rules;
}

/** Internal values (`EnumValue.internal`) still validate but are left out of the message. */
function enumRule(values: readonly EnumValue[], isInt: boolean): Rule {
  const allowed = new Set<unknown>(values.map((v) => v.value));
  const constraint = enumConstraint(values.filter((v) => !v.internal).map((v) => v.value));
  const type = isInt ? "number" : "string";
  if (allowed.size <= 8) {
    // A few comparisons beat hashing the value.
    const list = [...allowed];
    return rule((value) => {
      if (typeof value !== type) return true;
      for (let i = 0; i < list.length; i++) if (list[i] === value) return true;
      return false;
    }, constraint);
  }
  return rule((value) => typeof value !== type || allowed.has(value), constraint);
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

function lengthRule(kind: string, bounds: Bounds): Rule | undefined {
  const min = bounds.min === undefined ? -Infinity : Number(bounds.min);
  const max = bounds.max === undefined ? Infinity : Number(bounds.max);
  const constraint = lengthConstraint(bounds);
  /** The measured length, or -1 when the value is not of the kind (no violation). */
  let lengthOf: (value: unknown) => number;
  let test: Test;
  switch (kind) {
    case "string":
      lengthOf = (value) => (typeof value === "string" ? codePointLength(value) : -1);
      test = (value) => {
        if (typeof value !== "string") return true;
        // A string has between length/2 and length code points: most need no counting.
        if (value.length <= max && (value.length + 1) >> 1 >= min) return true;
        const n = codePointLength(value);
        return n >= min && n <= max;
      };
      break;
    case "blob":
      lengthOf = (value) => (value instanceof Uint8Array ? value.byteLength : -1);
      break;
    case "list":
      lengthOf = (value) => (Array.isArray(value) ? value.length : -1);
      break;
    case "map":
      lengthOf = (value) => (typeof value === "object" && value !== null ? countEntries(value) : -1);
      break;
    default:
      return undefined;
  }
  test ??= (value) => {
    const n = lengthOf(value);
    return n < 0 || (n >= min && n <= max);
  };
  return {
    test,
    check: (value, ctx) => {
      if (!test(value)) report(ctx, constraint, lengthOf(value));
    },
  };
}

function patternRule(pattern: string): Rule {
  const matches = compilePattern(pattern);
  return rule((value) => typeof value !== "string" || matches(value), patternConstraint(pattern));
}

/**
 * Numbers, bigints and BigDecimals compared exactly with number or bigint
 * bounds (`<` between a number and a bigint is exact). NaN is outside every
 * range. Floats compare as float32 on both sides, so a bound of 8.8 admits the
 * float nearest 8.8 however the codec delivered it.
 */
function rangeRule(bounds: Bounds, float32: boolean): Rule {
  const fround = (b: number | bigint | undefined): number | bigint | undefined => (float32 && typeof b === "number" ? Math.fround(b) : b);
  const min = fround(bounds.min);
  const max = fround(bounds.max);
  const minDecimal = min === undefined ? undefined : BigDecimal.from(min);
  const maxDecimal = max === undefined ? undefined : BigDecimal.from(max);
  // Number bounds (or none): a number inside them needs no more.
  const low = typeof min === "number" ? min : min === undefined ? -Infinity : NaN;
  const high = typeof max === "number" ? max : max === undefined ? Infinity : NaN;
  return rule((value) => {
    if (typeof value === "number" && !float32 && value >= low && value <= high) return true;
    let v: number | bigint;
    if (typeof value === "number") {
      if (Number.isNaN(value)) return false;
      v = float32 ? Math.fround(value) : value;
    } else if (typeof value === "bigint") {
      v = value;
    } else {
      return (
        !BigDecimal.is(value) || !((minDecimal !== undefined && value.compare(minDecimal) < 0) || (maxDecimal !== undefined && value.compare(maxDecimal) > 0))
      );
    }
    return !((min !== undefined && v < min) || (max !== undefined && v > max));
  }, rangeConstraint(bounds));
}

function uniqueItemsRule(): Rule {
  return rule((value) => !Array.isArray(value) || !hasDuplicates(value), UNIQUE_ITEMS_CONSTRAINT);
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const uuidRule: Rule = rule((value) => typeof value !== "string" || UUID.test(value), UUID_CONSTRAINT);
