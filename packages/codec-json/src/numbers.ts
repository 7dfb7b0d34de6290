/**
 * Exact numbers: JSON number text that a double would round, kept as text
 * until the schema says what it is (long, bigInteger, bigDecimal, document).
 */
import { BigDecimal } from "@anvil/core";

/** @internal JSON number text that `Number()` would not hold exactly. */
export class RawNumber {
  constructor(readonly text: string) {}
}

const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Integers past this many digits are refused rather than allocated (a `1e99999999` bomb). */
const MAX_INTEGER_DIGITS = 10_000;

/**
 * @internal The exact integer a JSON number's text denotes: a number when it
 * is a safe integer, else a bigint. `undefined` when the text has a non-zero
 * fraction; `null` when it has more than 10 000 digits.
 */
export function exactInteger(text: string): number | bigint | undefined | null {
  const m = NUMBER_PARTS.exec(text);
  if (m === null) return undefined;
  let digits = m[2]! + (m[3] ?? "");
  let exp = (m[4] === undefined ? 0 : Number(m[4])) - (m[3]?.length ?? 0);
  if (exp < 0) {
    const cut = digits.length + exp;
    const fraction = cut <= 0 ? digits : digits.slice(cut);
    if (!/^0*$/.test(fraction)) return undefined;
    digits = cut <= 0 ? "0" : digits.slice(0, cut);
    exp = 0;
  }
  digits = digits.replace(/^0+(?=\d)/, "");
  if (digits === "0") return 0;
  if (digits.length + exp > MAX_INTEGER_DIGITS) return null;
  const big = BigInt(m[1] + digits + (exp > 0 ? "0".repeat(exp) : ""));
  const n = Number(big);
  return Number.isSafeInteger(n) ? n : big;
}

/**
 * @internal Whether parsing number text with `Number()` loses information:
 * an integer that is not safe, or a decimal whose shortest double text is a
 * different number.
 */
export function isLossy(text: string): boolean {
  // Up to 15 digits without an exponent always round-trip through a double.
  if (text.length < 16 && text.indexOf("e") < 0 && text.indexOf("E") < 0) return false;
  const n = Number(text);
  if (!Number.isFinite(n)) return true;
  if (Number.isInteger(n)) {
    if (!Number.isSafeInteger(n)) return true;
    // "1.0000000000000001" and "1e-400" are not integers even though their doubles are.
    return exactInteger(text) === undefined;
  }
  return !BigDecimal.from(text).equals(String(n));
}

const POW10 = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];
const ZEROS = ["", "0", "00", "000", "0000", "00000"];

/**
 * @internal `String(x)` for a finite number, faster for decimals with up to
 * six fraction digits (prices, measures, epoch seconds with milliseconds),
 * where V8's shortest-digits conversion is the slow part of writing JSON.
 * Exact because a decimal `m / 10^k` with `m < 10^15` is the only one with
 * `k` or fewer fraction digits that rounds to its double (doubles there are
 * closer together than `10^-k`), so it is also the shortest.
 */
export function formatNumber(x: number): string {
  if (Number.isInteger(x)) return String(x);
  const a = x < 0 ? -x : x;
  if (a >= 1e-6) {
    for (let k = 1; k <= 6; k++) {
      const p = POW10[k]!;
      const scaled = a * p;
      if (scaled >= 1e15) break;
      const m = Math.round(scaled);
      if (m / p === a) {
        const f = m % p;
        if (f % 10 === 0) break; // not the shortest form after all; never expected
        const digits = String(f);
        return `${x < 0 ? "-" : ""}${(m - f) / p}.${ZEROS[k - digits.length]!}${digits}`;
      }
    }
  }
  return String(x);
}
