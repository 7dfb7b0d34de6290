/**
 * The state of one read pass, passed explicitly down the converter tree, and
 * the number checks that consult it.
 */

/**
 * What a converter needs to know about the pass it runs in. One object per
 * top-level read (or `fromValue` call), passed to every converter, so that
 * nested and re-entrant reads never share state.
 */
export interface ReadPass {
  /**
   * True while converting a tree the reader's own JSON.parse (or exact
   * parse) just produced: nobody else holds it, so lists, maps and
   * structures are converted in place instead of copied. False for
   * `fromValue`, whose input belongs to the caller, and while an untagged
   * union tries its variants (a variant that fails must leave the value as it
   * found it for the next one).
   */
  owned: boolean;
  /**
   * True while converting what the native JSON.parse made of text that was
   * pre-scanned only for runs of 16 digits (schemas whose exact numbers are
   * integers: long, bigInteger). The exponent scan is left for later, as it
   * costs a sizeable part of a parse: a number there may still stand for an
   * integer no double holds (`1e30`, `1e400`) or a fraction that underflowed
   * to zero (`1e-400`). The long, bigInteger and document converters check
   * with {@link checkNative}; the reader parses again exactly when they throw
   * {@link RETRY_EXACT}, or when {@link ReadPass.underflowSeen} is set and
   * the text has an exponent.
   */
  readonly unsure: boolean;
  /** Whether an unsure pass met a number that may have underflowed (zero, or subnormal in a document). */
  underflowSeen: boolean;
}

/** A compiled converter: parsed JSON value, nesting depth and the pass in, runtime value out; throws `Failure`. */
export type Conv = (value: unknown, depth: number, pass: ReadPass) => unknown;

/** Thrown (never escaping the reader) when a number the native parser made may not be exact. */
export const RETRY_EXACT: object = Object.freeze({ retry: "exact" });

/** Checks a number of an unsure pass: throws {@link RETRY_EXACT} when it may be rounded, notes a possible underflow. */
export function checkNative(v: number, pass: ReadPass): void {
  if (Number.isSafeInteger(v)) {
    if (v === 0) pass.underflowSeen = true;
  } else if (Number.isInteger(v) || !Number.isFinite(v)) throw RETRY_EXACT;
  else if (v < 2.3e-308 && v > -2.3e-308) pass.underflowSeen = true;
}
