/**
 * Wire types of single values: how one scalar (or enum) is written and read
 * without its tag. Numbers follow `@protoNumType`; 64-bit values are safe
 * `number`s or `bigint`s beyond 2^53, as in the rest of the value model.
 */
import { BigDecimal, type EnumSchema, type IntEnumSchema, type ProtoNumType, type Schema } from "@anvil/core";
import { describe, fail } from "./failure.js";
import { enumNumbers, isOpenEnum } from "./layout.js";
import { Fast } from "./fast-kinds.js";
import { I32, I64, LEN, VARINT, type ProtoReader } from "./reader-buffer.js";
import { split64, type ProtoWriter } from "./writer-buffer.js";

/** How one value of a type goes on the wire (without its tag). */
export interface ValueType {
  /** The wire type of one value. */
  readonly wireType: number;
  /** Whether a repeated field of this type is written packed. */
  readonly packable: boolean;
  /** Writes one non-null value (length-delimited types write their length). */
  readonly write: (value: unknown, w: ProtoWriter) => void;
  /** Reads one value (the wire type was checked by the caller). */
  readonly read: (r: ProtoReader) => unknown;
  /** The value of an absent field (proto3 zero value), or undefined when there is none. */
  readonly zero: () => unknown;
  /**
   * For scalars (implicit presence in proto3): whether a value is the zero
   * value, which a singular field leaves out. Absent for message types.
   */
  readonly isZero?: (value: unknown) => boolean;
  /** A {@link Fast} code: message loops read these kinds with a direct reader call instead of through `read`. */
  readonly fast?: number;
  /** For nested messages: the body reader, which message and list loops call directly (one call instead of three). */
  readonly body?: (r: ProtoReader, end: number) => unknown;
}

const TWO_32 = 0x100000000;
const MAX_U64 = 2n ** 64n - 1n;
const MIN_I64 = -(2n ** 63n);
const MAX_I64 = 2n ** 63n - 1n;

const zeroNumber = (): unknown => 0;
/** Zero for numbers: `0` and `0n`, but not `-0` (its bits are not all zero, so proto3 writes it). */
const isZeroNumber = (value: unknown): boolean => (value === 0 && !Object.is(value, -0)) || value === 0n;

function int32Type(min: number, max: number, name: string, numType: ProtoNumType | undefined): ValueType {
  const check = (value: unknown): number => {
    if (typeof value !== "number" || !Number.isInteger(value)) return fail(`expected ${name}, got ${describe(value)}`);
    return value;
  };
  const inRange = (value: number): number => (value < min || value > max ? fail(`${name} out of range`) : value);
  switch (numType) {
    case "SIGNED":
      return {
        wireType: VARINT,
        packable: true,
        write: (value, w) => w.sint32(inRange(check(value))),
        read: (r) => {
          const n = r.uint32();
          return inRange((n >>> 1) ^ -(n & 1));
        },
        zero: zeroNumber,
        isZero: isZeroNumber,
      };
    case "UNSIGNED":
    case "FIXED": {
      // unsigned encodings carry 0 .. 2^32-1 whatever the Smithy width
      const unsigned = (value: unknown): number => {
        const v = check(value);
        return v < 0 || v >= TWO_32 ? fail(`${name} out of range for an unsigned 32-bit field`) : v;
      };
      return numType === "FIXED"
        ? { wireType: I32, packable: true, write: (value, w) => w.fixed32(unsigned(value)), read: (r) => r.fixed32(), zero: zeroNumber, isZero: isZeroNumber }
        : { wireType: VARINT, packable: true, write: (value, w) => w.uint32(unsigned(value)), read: (r) => r.uint32(), zero: zeroNumber, isZero: isZeroNumber };
    }
    case "FIXED_SIGNED":
      return {
        wireType: I32,
        packable: true,
        write: (value, w) => w.fixed32(inRange(check(value))),
        read: (r) => inRange(r.fixed32() | 0),
        zero: zeroNumber,
        isZero: isZeroNumber,
      };
    default:
      return {
        wireType: VARINT,
        packable: true,
        write: (value, w) => w.int32(inRange(check(value))),
        read: (r) => inRange(r.uint32() | 0),
        zero: zeroNumber,
        isZero: isZeroNumber,
        // the full int32 range needs no check on read
        fast: min === -2147483648 && max === 2147483647 ? Fast.int32 : Fast.none,
      };
  }
}

/** A long as a safe number or a bigint in the given range. */
function checkInt64(value: unknown, unsigned: boolean): number | bigint {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return fail(`expected long, got ${describe(value)}`);
    if (Number.isSafeInteger(value)) {
      if (unsigned && value < 0) fail("long out of range for an unsigned 64-bit field");
      return value;
    }
    value = BigInt(value);
  }
  if (typeof value !== "bigint") return fail(`expected long, got ${describe(value)}`);
  if (unsigned ? value < 0n || value > MAX_U64 : value < MIN_I64 || value > MAX_I64) fail("long out of range");
  return value;
}

function int64Type(numType: ProtoNumType | undefined): ValueType {
  switch (numType) {
    case "SIGNED":
      return {
        wireType: VARINT,
        packable: true,
        write: (value, w) => {
          const v = checkInt64(value, false);
          if (typeof v === "number" && v > -0x10000000000000 && v < 0x10000000000000) {
            const z = v >= 0 ? v * 2 : -v * 2 - 1;
            w.varint64(z >>> 0, Math.floor(z / TWO_32) >>> 0);
          } else {
            const b = BigInt(v);
            const [lo, hi] = split64((b << 1n) ^ (b >> 63n));
            w.varint64(lo, hi);
          }
        },
        read: (r) => {
          r.varint64();
          return r.zigzag64();
        },
        zero: zeroNumber,
        isZero: isZeroNumber,
      };
    case "UNSIGNED":
      return {
        wireType: VARINT,
        packable: true,
        write: (value, w) => {
          const [lo, hi] = split64(checkInt64(value, true));
          w.varint64(lo, hi);
        },
        read: (r) => {
          r.varint64();
          return r.unsigned64();
        },
        zero: zeroNumber,
        isZero: isZeroNumber,
      };
    case "FIXED":
      return {
        wireType: I64,
        packable: true,
        write: (value, w) => {
          const [lo, hi] = split64(checkInt64(value, true));
          w.fixed64(lo, hi);
        },
        read: (r) => {
          r.fixed64();
          return r.unsigned64();
        },
        zero: zeroNumber,
        isZero: isZeroNumber,
      };
    case "FIXED_SIGNED":
      return {
        wireType: I64,
        packable: true,
        write: (value, w) => {
          const [lo, hi] = split64(checkInt64(value, false));
          w.fixed64(lo, hi);
        },
        read: (r) => {
          r.fixed64();
          return r.signed64();
        },
        zero: zeroNumber,
        isZero: isZeroNumber,
      };
    default:
      return {
        wireType: VARINT,
        packable: true,
        write: (value, w) => {
          if (typeof value === "number" && Number.isSafeInteger(value)) return w.int64(value);
          const [lo, hi] = split64(checkInt64(value, false));
          w.varint64(lo, hi);
        },
        read: (r) => r.int64(),
        zero: zeroNumber,
        isZero: isZeroNumber,
        fast: Fast.int64,
      };
  }
}

const booleanType: ValueType = {
  wireType: VARINT,
  packable: true,
  write: (value, w) => {
    if (typeof value !== "boolean") fail(`expected boolean, got ${describe(value)}`);
    w.uint32(value ? 1 : 0);
  },
  read: (r) => {
    r.varint64();
    return (r.lo | r.hi) !== 0;
  },
  zero: () => false,
  isZero: (value) => value === false,
  fast: Fast.bool,
};

const stringType: ValueType = {
  wireType: LEN,
  packable: false,
  write: (value, w) => {
    if (typeof value !== "string") fail(`expected string, got ${describe(value)}`);
    w.string(value);
  },
  read: (r) => r.string(),
  zero: () => "",
  isZero: (value) => value === "",
  fast: Fast.string,
};

const blobType: ValueType = {
  wireType: LEN,
  packable: false,
  write: (value, w) => {
    if (!(value instanceof Uint8Array)) fail(`expected Uint8Array, got ${describe(value)}`);
    w.bytes(value);
  },
  read: (r) => r.bytes(),
  zero: () => new Uint8Array(0),
  isZero: (value) => value instanceof Uint8Array && value.length === 0,
  fast: Fast.bytes,
};

const floatType: ValueType = {
  wireType: I32,
  packable: true,
  write: (value, w) => {
    if (typeof value !== "number") fail(`expected number, got ${describe(value)}`);
    w.float(value);
  },
  read: (r) => r.float(),
  zero: zeroNumber,
  isZero: isZeroNumber,
  fast: Fast.float,
};

const doubleType: ValueType = {
  wireType: I64,
  packable: true,
  write: (value, w) => {
    if (typeof value !== "number") fail(`expected number, got ${describe(value)}`);
    w.double(value);
  },
  read: (r) => r.double(),
  zero: zeroNumber,
  isZero: isZeroNumber,
  fast: Fast.double,
};

const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;

const bigIntegerType: ValueType = {
  wireType: LEN,
  packable: false,
  write: (value, w) => {
    if (typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value))) return w.string(BigInt(value).toString());
    fail(`expected bigInteger, got ${describe(value)}`);
  },
  read: (r) => {
    const text = r.string();
    if (!INTEGER_TEXT.test(text)) fail("malformed bigInteger text");
    const n = BigInt(text);
    return n >= -9007199254740991n && n <= 9007199254740991n ? Number(n) : n;
  },
  zero: zeroNumber,
};

const bigDecimalType: ValueType = {
  wireType: LEN,
  packable: false,
  write: (value, w) => {
    if (BigDecimal.is(value)) return w.string(value.toString());
    if (typeof value === "number" || typeof value === "bigint" || typeof value === "string") {
      let decimal: BigDecimal;
      try {
        decimal = BigDecimal.from(value);
      } catch {
        return fail(`expected BigDecimal, got ${describe(value)}`);
      }
      return w.string(decimal.toString());
    }
    fail(`expected BigDecimal, got ${describe(value)}`);
  },
  read: (r) => {
    const text = r.string();
    try {
      return BigDecimal.from(text);
    } catch {
      return fail("malformed bigDecimal text");
    }
  },
  zero: () => BigDecimal.from("0"),
};

function closedEnumType(schema: EnumSchema | IntEnumSchema): ValueType {
  const numbers = enumNumbers(schema);
  const values = new Map<number, string | number>();
  for (const [value, number] of numbers) values.set(number, value);
  const zero = values.get(0);
  return {
    wireType: VARINT,
    packable: true,
    write: (value, w) => {
      const n = numbers.get(value as string | number);
      if (n === undefined)
        fail(typeof value === "string" || typeof value === "number" ? `value is not in enum ${schema.id}` : `expected enum value, got ${describe(value)}`);
      w.int32(n);
    },
    read: (r) => {
      const n = r.uint32() | 0;
      const v = values.get(n);
      return v !== undefined ? v : fail(`unknown number ${n} of enum ${schema.id}`);
    },
    zero: () => zero,
    isZero: (value) => numbers.get(value as string | number) === 0,
  };
}

/** The value type of a scalar or enum schema under a `@protoNumType`. */
export function scalarType(schema: Schema, numType: ProtoNumType | undefined): ValueType | undefined {
  switch (schema.kind) {
    case "boolean":
      return booleanType;
    case "string":
      return stringType;
    case "blob":
      return blobType;
    case "byte":
      return int32Type(-128, 127, "byte", numType);
    case "short":
      return int32Type(-32768, 32767, "short", numType);
    case "integer":
      return int32Type(-2147483648, 2147483647, "integer", numType);
    case "long":
      return int64Type(numType);
    case "float":
      return floatType;
    case "double":
      return doubleType;
    case "bigInteger":
      return bigIntegerType;
    case "bigDecimal":
      return bigDecimalType;
    case "enum":
      return isOpenEnum(schema) ? stringType : closedEnumType(schema);
    case "intEnum":
      return isOpenEnum(schema) ? int32Type(-2147483648, 2147483647, "integer", undefined) : closedEnumType(schema);
    default:
      return undefined;
  }
}
