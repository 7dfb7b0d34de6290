/**
 * The texts of constraint violations, in the wording the Smithy restJson1
 * validation protocol tests expect (`smithy.framework#ValidationException`).
 * Messages name the path and the constraint, never the offending value, so
 * `@sensitive` data cannot leak through them; only `@length` adds the
 * measured length, which is not the value.
 */
import type { Bounds } from "../schema/traits.js";

/** `@required`. */
export const REQUIRED_CONSTRAINT = "Member must not be null";

/** `@uniqueItems`. */
export const UNIQUE_ITEMS_CONSTRAINT = "Member must have unique values";

/** `@alloy#uuidFormat`. */
export const UUID_CONSTRAINT = "Member must be a UUID";

const bound = (b: number | bigint): string => String(b);

/** `@length`: `Member must have length between 2 and 8, inclusive` (or one-sided). */
export function lengthConstraint(b: Bounds): string {
  if (b.min !== undefined && b.max !== undefined) return `Member must have length between ${bound(b.min)} and ${bound(b.max)}, inclusive`;
  if (b.min !== undefined) return `Member must have length greater than or equal to ${bound(b.min)}`;
  return `Member must have length less than or equal to ${bound(b.max ?? Infinity)}`;
}

/** `@range`: `Member must be between 2 and 8, inclusive` (or one-sided). */
export function rangeConstraint(b: Bounds): string {
  if (b.min !== undefined && b.max !== undefined) return `Member must be between ${bound(b.min)} and ${bound(b.max)}, inclusive`;
  if (b.min !== undefined) return `Member must be greater than or equal to ${bound(b.min)}`;
  return `Member must be less than or equal to ${bound(b.max ?? Infinity)}`;
}

/** `@pattern`: the pattern exactly as modeled. */
export function patternConstraint(pattern: string): string {
  return `Member must satisfy regular expression pattern: ${pattern}`;
}

/** Enum and intEnum values, in model order, internal values left out by the caller. */
export function enumConstraint(values: readonly (string | number)[]): string {
  return `Member must satisfy enum value set: [${values.join(", ")}]`;
}

/**
 * One violation's message. `length` is the measured length for `@length`
 * violations (`Value with length 1 at '/minString' ...`).
 */
export function violationMessage(path: string, constraint: string, length?: number): string {
  const head = length === undefined ? "Value" : `Value with length ${length}`;
  return `${head} at '${path}' failed to satisfy constraint: ${constraint}`;
}
