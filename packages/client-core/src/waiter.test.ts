/**
 * The waiter's workflow, backoff and JMESPath data model, driven by an
 * operation function and a clock whose sleep only moves it on. Generated
 * waiters against real servers on three protocols are tested in
 * `@anvil/codegen` (paginators-waiters.test.ts).
 */
import { BigDecimal, UnmodeledError } from "@anvil/core";
import { blob, document, list, long, map, member, operation, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { jmespathValue } from "./jmespath-data.js";
import { waitUntil, type WaiterDefinition } from "./waiter.js";
import { WaiterError } from "./waiter-error.js";

const Thing = struct("ex#Thing", [
  member("name", string),
  member("status", string),
  member("at", timestamp),
  member("bytes", blob),
  member("big", long),
  member("shape", union("ex#Shape", [member("circle", struct("ex#Circle", [member("r", long)])), member("square", long)])),
  member("tags", map("ex#Tags", member("key", string), member("value", string))),
  member("extra", document),
  member("items", list("ex#Items", member("member", string))),
]);
const GetThing = operation("ex#GetThing", {
  input: struct("ex#GetThingInput", [member("name", string)]),
  output: struct("ex#GetThingOutput", [member("thing", Thing)]),
  traits: {
    custom: {
      "smithy.waiters#waitable": {
        ThingReady: { acceptors: [{ state: "success", matcher: { output: { path: "thing.status", expected: "ready", comparator: "stringEquals" } } }] },
      },
    },
  },
});

function clock(random = 0.5) {
  const state = { t: 0, sleeps: [] as number[] };
  return { state, clock: { now: () => state.t, random: () => random, sleep: async (ms: number) => void (state.sleeps.push(ms), (state.t += ms)) } };
}

const never: WaiterDefinition = {
  name: "Never",
  acceptors: [{ state: "success", matcher: { output: { path: "thing.status", expected: "never", comparator: "stringEquals" } } }],
};

describe("backoff", () => {
  it("follows the specification: doubling ceilings up to maxDelay, jitter from minDelay, the last delay cut to reach maxWaitTime", async () => {
    const { state, clock: c } = clock(1); // the top of every range: the ceilings themselves
    const error = await waitUntil(GetThing, never, async () => ({ thing: { status: "busy" } }), {}, { maxWaitTime: 300, clock: c }).catch((e) => e);
    expect(WaiterError.is(error) && error.state).toBe("timeout");
    const delays = state.sleeps.map((ms) => ms / 1000);
    // 2, 4, 8, 16, 32, 64 (doubling from minDelay), then maxDelay 120: 246 s; 54 s are left, 54 - 120 <= 2, so the last waits them all.
    expect(delays).toEqual([2, 4, 8, 16, 32, 64, 120, 54]);
    expect(state.t).toBe(300_000);
    expect(error.attempts).toBe(9);
  });

  it("jitters between minDelay and the ceiling", async () => {
    const { state, clock: c } = clock(0);
    await waitUntil(GetThing, never, async () => ({ thing: {} }), {}, { maxWaitTime: 9, clock: c }).catch(() => undefined);
    // Always minDelay, until less than minDelay would be left after a delay.
    expect(state.sleeps).toEqual([2000, 2000, 2000, 3000]);
  });

  it("refuses options out of range", async () => {
    const call = async () => ({});
    await expect(waitUntil(GetThing, never, call, {}, { maxWaitTime: 0 })).rejects.toThrow(RangeError);
    await expect(waitUntil(GetThing, never, call, {}, { maxWaitTime: 10, minDelay: 5, maxDelay: 2 })).rejects.toThrow(RangeError);
  });
});

describe("acceptors", () => {
  it("reads a named waiter from the operation's schema", async () => {
    let n = 0;
    const result = await waitUntil(
      GetThing,
      "ThingReady",
      async () => ({ thing: { status: ++n >= 3 ? "ready" : "busy" } }),
      {},
      { maxWaitTime: 60, clock: clock().clock },
    );
    expect(result).toEqual({ state: "success", attempts: 3, output: { thing: { status: "ready" } } });
    await expect(waitUntil(GetThing, "Nope", async () => ({}), {}, { maxWaitTime: 1 })).rejects.toThrow(/no such waiter.*ThingReady/);
  });

  it("match an unmodeled error's code by errorType, an absolute id by its name", async () => {
    const waiter: WaiterDefinition = { name: "Gone", acceptors: [{ state: "success", matcher: { errorType: "aws.api#ResourceNotFoundException" } }] };
    const error = new UnmodeledError("ResourceNotFoundException", "gone");
    const result = await waitUntil(GetThing, waiter, () => Promise.reject(error), {}, { maxWaitTime: 60, clock: clock().clock });
    expect(result).toEqual({ state: "success", attempts: 1, error });
  });

  it("refuse an expression that does not compile, naming the acceptor", async () => {
    const bad: WaiterDefinition = {
      name: "Bad",
      acceptors: [{ state: "success", matcher: { output: { path: "thing.[", expected: "x", comparator: "stringEquals" } } }],
    };
    await expect(waitUntil(GetThing, bad, async () => ({}), {}, { maxWaitTime: 1 })).rejects.toThrow(
      /waiter Bad: acceptor 1's path is not a JMESPath expression/,
    );
  });

  it("let an expression that fails on the data (a function given the wrong type) match nothing", async () => {
    const waiter: WaiterDefinition = {
      name: "Typed",
      acceptors: [{ state: "success", matcher: { output: { path: "length(thing.big) > `0`", expected: "true", comparator: "booleanEquals" } } }],
    };
    const error = await waitUntil(GetThing, waiter, async () => ({ thing: { big: 3 } }), {}, { maxWaitTime: 3, clock: clock().clock }).catch((e) => e);
    expect(error.state).toBe("timeout");
  });
});

describe("the JMESPath data model", () => {
  it("is Smithy's: unions as one-key objects, timestamps in epoch seconds, blobs in base64, every number a number", () => {
    const value = jmespathValue(GetThing.output, {
      thing: {
        name: "a",
        at: new Date("2024-01-01T00:00:01.500Z"),
        bytes: Uint8Array.of(1, 2, 3),
        big: 2n ** 60n,
        shape: { $case: "circle", value: { r: 2 } },
        tags: { constructor: "x" },
        extra: { n: 1n, d: BigDecimal.from("1.5"), list: [null, "s"] },
        items: ["i"],
      },
      $metadata: { httpStatus: 200 },
    });
    expect(JSON.parse(JSON.stringify(value))).toEqual({
      thing: {
        name: "a",
        at: 1704067201.5,
        bytes: "AQID",
        big: 2 ** 60,
        shape: { circle: { r: 2 } },
        tags: { constructor: "x" },
        extra: { n: 1, d: 1.5, list: [null, "s"] },
        items: ["i"],
      },
    });
    expect(Object.getPrototypeOf((value as { thing: object }).thing)).toBe(null);
  });

  it("keeps an unknown union variant under its wire name", () => {
    const shape = Thing.members.find((m) => m.name === "shape")!.target;
    expect({ ...(jmespathValue(shape, { $case: "$unknown", name: "hexagon", value: { side: 1 } }) as object) }).toEqual({ hexagon: expect.anything() });
  });
});
