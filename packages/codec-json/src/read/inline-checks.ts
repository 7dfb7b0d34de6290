/**
 * The checks the aggregate loops make inline to skip a converter call, and
 * the flags a structure keeps per member for them.
 */
import type { Schema } from "@anvil/core";

/**
 * Values a converter would return unchanged, recognized by a type check
 * inline in the aggregate loops instead of a call: what each kind lets
 * through. Anything else goes to the converter, which converts or fails.
 * A const enum, so that the build inlines the numbers: the optimizing
 * compiler does not fold module-level constants, and loaded a context slot
 * (with a hole check) for every `case`.
 */
export const enum Pass {
  Call = 0,
  String = 1,
  Boolean = 2,
  Number = 3,
  Int32 = 4,
  SafeInteger = 5,
  /** Like SafeInteger without zero, which the converter sees: it may be an underflowed exponent (see `ReadPass.unsure`). */
  NonzeroSafeInteger = 6,
}

/** The bits of a structure member's flags above its {@link Pass} kind. */
export const enum Member {
  PassMask = 7,
  /** The member has a `@default`. */
  Default = 8,
  /** `null` is a value of the member (`@alloy#nullable`). */
  Nullable = 16,
  /**
   * The converter usually returns the value it is given (aggregates converted
   * in place, documents, integers): store only what changed. Other converters
   * (timestamps, blobs) always make a new value: store without comparing.
   */
  Kept = 32,
}

export function passThrough(schema: Schema): Pass {
  switch (schema.kind) {
    case "string":
    case "enum":
      return Pass.String;
    case "boolean":
      return Pass.Boolean;
    case "float":
    case "double":
      return Pass.Number;
    case "integer":
      return Pass.Int32;
    case "intEnum":
      return Pass.SafeInteger;
    case "long":
    case "bigInteger":
      return Pass.NonzeroSafeInteger;
    default:
      return Pass.Call;
  }
}

/** Whether `v` passes through a converter of pass-through kind `check` unchanged. Small enough to inline. */
export function passes(check: Pass | number, v: unknown): boolean {
  switch (check) {
    case Pass.String:
      return typeof v === "string";
    case Pass.Boolean:
      return typeof v === "boolean";
    case Pass.Number:
      return typeof v === "number";
    case Pass.Int32:
      return typeof v === "number" && (v | 0) === v;
    case Pass.SafeInteger:
      return typeof v === "number" && Number.isSafeInteger(v);
    case Pass.NonzeroSafeInteger:
      return typeof v === "number" && v !== 0 && Number.isSafeInteger(v);
    default:
      return false;
  }
}

/** Whether the converter of `schema` usually returns the value it is given (see {@link Member.Kept}). */
export function keepsValue(schema: Schema): boolean {
  switch (schema.kind) {
    case "timestamp":
    case "blob":
    case "bigDecimal":
      return false;
    default:
      return true;
  }
}
