/**
 * The paginator over an operation function. Generated paginators against
 * real servers on three protocols are tested in `@anvil/codegen`
 * (paginators-waiters.test.ts).
 */
import { list, member, operation, string, struct } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { paginate, PaginationError } from "./paginate.js";

const op = (paginated: Record<string, string>) =>
  operation("ex#List", {
    input: struct("ex#ListInput", [member("token", string)]),
    output: struct("ex#ListOutput", [member("names", list("ex#Names", member("member", string)))]),
    traits: { paginated },
  });

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

describe("paginate", () => {
  it("refuses an operation without both tokens", () => {
    expect(() => paginate(op({ items: "names" }), async () => ({}), {})).toThrow(PaginationError);
  });

  it("treats a map token by content, whatever the order of its keys", async () => {
    const tokens = [
      { a: "1", b: "2" },
      { b: "2", a: "1" },
    ];
    let i = 0;
    const error = await collect(paginate(op({ inputToken: "start", outputToken: "last" }), async () => ({ last: tokens[i++] }), {})).catch((e) => e);
    expect(PaginationError.is(error) && error.code).toBe("RepeatedToken");
    expect(i).toBe(2);
  });

  it("detects a cycle, not only the same token twice in a row", async () => {
    const next = ["a", "b", "a"];
    let i = 0;
    const error = await collect(paginate(op({ inputToken: "token", outputToken: "next" }), async () => ({ next: next[i++] }), {})).catch((e) => e);
    expect(error.code).toBe("RepeatedToken");
  });

  it("sets a nested input token without touching the caller's input, and a `__proto__` key as data", async () => {
    const seen: unknown[] = [];
    const input = { query: { token: "first" } };
    const pages = ["t2", undefined];
    let i = 0;
    await collect(paginate(op({ inputToken: "query.token", outputToken: "next" }), async (x) => (seen.push(x), { next: pages[i++] }), input));
    expect(seen).toEqual([{ query: { token: "first" } }, { query: { token: "t2" } }]);
    expect(input).toEqual({ query: { token: "first" } });
    let j = 0;
    const proto = await collect(
      paginate(op({ inputToken: "__proto__", outputToken: "next" }), async (x) => (seen.push(x), { next: j++ ? undefined : "p" }), {}),
    );
    expect(proto).toHaveLength(2);
    expect(Object.hasOwn(seen.at(-1)!, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  it("iterates again from the input each time", async () => {
    const calls: unknown[] = [];
    const pager = paginate(
      op({ inputToken: "token", outputToken: "next", items: "names" }),
      async (x: { token?: string }) => {
        calls.push(x);
        return x.token ? { names: ["b"] } : { names: ["a"], next: "2" };
      },
      {},
    );
    expect(await collect(pager.items())).toEqual(["a", "b"]);
    expect(await collect(pager.items())).toEqual(["a", "b"]);
    expect(calls).toHaveLength(4);
  });
});
