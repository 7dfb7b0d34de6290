import { describe, expect, it } from "vitest";
import { member, string, struct } from "../schema/builders.js";
import { BigDecimal, canonicalDecimalText } from "./big-decimal.js";
import { fillIdempotencyTokens } from "./idempotency.js";
import { collectBytes, concatBytes, readWholeBody, type WholeBody } from "./streams.js";
import { setDataKey } from "./data-key.js";

describe("BigDecimal", () => {
  it("keeps the exact text", () => {
    expect(BigDecimal.from("1.000000000000000000001").toString()).toBe("1.000000000000000000001");
    expect(BigDecimal.from(2n ** 70n).toString()).toBe("1180591620717411303424");
    expect(JSON.stringify({ d: BigDecimal.from("1.50") })).toBe('{"d":"1.50"}');
  });

  it.each([
    ["1.0", "1", 0],
    ["1.5", "1.49999999999999999999", 1],
    ["-2", "1", -1],
    ["1e3", "999.999", 1],
    ["0.000", "-0", 0],
    ["-1.5", "-1.25", -1],
    ["123456789012345678901234567890", "1.2345678901234567890123456789e29", 0],
  ] as const)("compares %s with %s exactly", (a, b, expected) => {
    expect(BigDecimal.from(a).compare(b)).toBe(expected);
  });

  it("rejects text that is not a decimal", () => {
    expect(() => BigDecimal.from("1.2.3")).toThrow(RangeError);
    expect(() => BigDecimal.from(Number.NaN)).toThrow(RangeError);
  });

  it("has one canonical text per number, for hashing", () => {
    for (const t of ["1.50", "15e-1", "+1.5", "0.15e1"]) expect(canonicalDecimalText(t)).toBe("15e-1");
    expect(canonicalDecimalText("-0.000")).toBe("0");
    expect(canonicalDecimalText("-1200")).toBe("-12e2");
  });

  it("is recognised by brand", () => {
    expect(BigDecimal.is(BigDecimal.from("1"))).toBe(true);
    expect(BigDecimal.is({ text: "1" })).toBe(false);
  });
});

describe("idempotency tokens", () => {
  const Input = struct<{ token?: string; name: string }>("ex#In", [member("token", string, { idempotencyToken: true }), member("name", string)]);

  it("are filled in when absent, on a copy", () => {
    const input: { token?: string; name: string } = { name: "x" };
    const out = fillIdempotencyTokens(Input, input);
    expect(out.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(input).toEqual({ name: "x" });
    expect(fillIdempotencyTokens(Input, { name: "x" } as { token?: string; name: string }).token).not.toBe(out.token);
  });

  it("come from the given source", () => {
    let n = 0;
    const next = (): string => `token-${++n}`;
    expect(fillIdempotencyTokens(Input, { name: "x" }, next).token).toBe("token-1");
    expect(fillIdempotencyTokens(Input, { name: "x" }, next).token).toBe("token-2");
    expect(fillIdempotencyTokens(Input, { token: "mine", name: "x" }, next).token).toBe("mine");
    expect(n).toBe(2);
  });

  it("are kept when given, and structures without them pass through untouched", () => {
    const input = { token: "mine", name: "x" };
    expect(fillIdempotencyTokens(Input, input)).toBe(input);
    const Plain = struct<{ a?: string }>("ex#Plain", [member("a", string)]);
    const plain = { a: "x" };
    expect(fillIdempotencyTokens(Plain, plain)).toBe(plain);
  });
});

describe("byte streams", () => {
  it("collect async iterables, web streams, bytes and strings", async () => {
    async function* chunks() {
      yield new Uint8Array([1, 2]);
      yield new Uint8Array([3]);
    }
    expect(await collectBytes(chunks())).toEqual(new Uint8Array([1, 2, 3]));
    const web = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array([4]));
        c.close();
      },
    });
    expect(await collectBytes(web)).toEqual(new Uint8Array([4]));
    expect(await collectBytes("hi")).toEqual(new TextEncoder().encode("hi"));
  });

  it("read whole under a limit: in one piece from a WholeBody, chunk by chunk from any stream, refused once over", async () => {
    const tooLarge = (limit: number) => new RangeError(`over ${limit}`);
    let pulled = 0;
    async function* chunks() {
      for (let i = 0; i < 10; i++) {
        pulled++;
        yield new Uint8Array([i, i]);
      }
    }
    expect(await readWholeBody(chunks(), 20, tooLarge)).toEqual(new Uint8Array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9]));
    pulled = 0;
    await expect(readWholeBody(chunks(), 5, tooLarge)).rejects.toThrow("over 5");
    expect(pulled).toBe(3); // reading stopped at the chunk that passed the limit

    const asked: number[] = [];
    const whole: WholeBody = {
      readWhole: (limit, refuse) => (asked.push(limit), limit < 3 ? Promise.reject(refuse(limit)) : Promise.resolve(new Uint8Array([1, 2, 3]))),
      [Symbol.asyncIterator]: () => chunks()[Symbol.asyncIterator](),
    };
    expect(await readWholeBody(whole, 3, tooLarge)).toEqual(new Uint8Array([1, 2, 3]));
    await expect(readWholeBody(whole, 2, tooLarge)).rejects.toThrow("over 2");
    expect(asked).toEqual([3, 2]);
  });

  it("concatenate chunks, with or without the total size", () => {
    const a = new Uint8Array([1, 2]);
    expect(concatBytes([a])).toBe(a);
    expect(concatBytes([])).toEqual(new Uint8Array(0));
    expect(concatBytes([a, new Uint8Array([3])])).toEqual(new Uint8Array([1, 2, 3]));
    expect(concatBytes([a, new Uint8Array([3])], 3)).toEqual(new Uint8Array([1, 2, 3]));
  });
});

describe("setDataKey", () => {
  it("stores __proto__ as an own data property, not a prototype", () => {
    const o: Record<string, unknown> = {};
    setDataKey(o, "__proto__", { polluted: true });
    setDataKey(o, "a", 1);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
