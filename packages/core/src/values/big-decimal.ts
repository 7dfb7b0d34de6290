const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * An exact decimal number (`smithy.api#BigDecimal`). It keeps the decimal
 * text it was made from, so no digit is lost between the wire and the user.
 * Arithmetic is out of scope: convert with `toNumber()` or hand `toString()`
 * to a decimal library.
 */
export class BigDecimal {
  private constructor(private readonly text: string) {}

  /** Makes a BigDecimal from decimal text (`"1.50"`, `"-2e+400"`), a number or a bigint. Throws RangeError on anything else. */
  static from(value: string | number | bigint | BigDecimal): BigDecimal {
    if (value instanceof BigDecimal) return value;
    if (typeof value === "bigint") return new BigDecimal(value.toString());
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new RangeError(`BigDecimal: ${value} is not a finite number`);
      return new BigDecimal(String(value));
    }
    const text = value.trim();
    if (!DECIMAL.test(text)) throw new RangeError(`BigDecimal: ${JSON.stringify(value)} is not a decimal number`);
    return new BigDecimal(text);
  }

  /** Whether a value is a BigDecimal (also across copies of this package). */
  static is(value: unknown): value is BigDecimal {
    return value instanceof BigDecimal || (typeof value === "object" && value !== null && (value as { [BRAND]?: true })[BRAND] === true);
  }

  /** The decimal text, exactly as received or given. */
  toString(): string {
    return this.text;
  }

  /** JSON.stringify writes the exact text as a string; codecs write it as a number. */
  toJSON(): string {
    return this.text;
  }

  /** The nearest double (may round). */
  toNumber(): number {
    return Number(this.text);
  }

  /** Numeric comparison with another decimal, without rounding. */
  compare(other: BigDecimal | number | bigint | string): -1 | 0 | 1 {
    return compareDecimalText(this.text, BigDecimal.from(other).text);
  }

  /** Numeric equality (`1.0` equals `1`). */
  equals(other: BigDecimal | number | bigint | string): boolean {
    return this.compare(other) === 0;
  }

  /** `"BigDecimal"`: `Object.prototype.toString` gives `[object BigDecimal]`. */
  get [Symbol.toStringTag](): string {
    return "BigDecimal";
  }
}

const BRAND = Symbol.for("anvil.BigDecimal");
Object.defineProperty(BigDecimal.prototype, BRAND, { value: true });

/** Splits decimal text into sign, digits without leading zeros, and a base-10 exponent. */
function normalize(text: string): { sign: 1 | -1; digits: string; exp: number } {
  let s = text;
  let sign: 1 | -1 = 1;
  if (s[0] === "-" || s[0] === "+") {
    if (s[0] === "-") sign = -1;
    s = s.slice(1);
  }
  let exp = 0;
  const e = s.search(/[eE]/);
  if (e >= 0) {
    exp = Number(s.slice(e + 1));
    s = s.slice(0, e);
  }
  const dot = s.indexOf(".");
  if (dot >= 0) {
    exp -= s.length - dot - 1;
    s = s.slice(0, dot) + s.slice(dot + 1);
  }
  s = s.replace(/^0+/, "");
  const trailing = /0*$/.exec(s)![0].length;
  if (trailing) {
    s = s.slice(0, s.length - trailing);
    exp += trailing;
  }
  if (s === "") return { sign: 1, digits: "", exp: 0 };
  return { sign, digits: s, exp };
}

/**
 * A canonical text for a decimal: equal numbers give equal text (`1.50`,
 * `15e-1` and `+1.5` all give `15e-1`; zero gives `0`). For hashing.
 *
 * @internal
 */
export function canonicalDecimalText(text: string): string {
  const { sign, digits, exp } = normalize(text.trim());
  return digits === "" ? "0" : `${sign < 0 ? "-" : ""}${digits}e${exp}`;
}

function compareDecimalText(a: string, b: string): -1 | 0 | 1 {
  const x = normalize(a);
  const y = normalize(b);
  if (x.digits === "" || y.digits === "") {
    if (x.digits === y.digits) return 0;
    return x.digits === "" ? (y.sign === 1 ? -1 : 1) : x.sign === 1 ? 1 : -1;
  }
  if (x.sign !== y.sign) return x.sign > y.sign ? 1 : -1;
  // Compare magnitudes: the position of the leading digit first, then the digits.
  const mx = x.digits.length + x.exp;
  const my = y.digits.length + y.exp;
  let cmp = mx === my ? 0 : mx > my ? 1 : -1;
  if (cmp === 0) {
    const len = Math.max(x.digits.length, y.digits.length);
    const dx = x.digits.padEnd(len, "0");
    const dy = y.digits.padEnd(len, "0");
    cmp = dx === dy ? 0 : dx > dy ? 1 : -1;
  }
  return (cmp * x.sign) as -1 | 0 | 1;
}
