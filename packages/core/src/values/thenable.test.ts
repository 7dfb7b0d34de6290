import { describe, expect, it } from "vitest";
import { isThenable } from "./thenable.js";

describe("isThenable", () => {
  it("is true of promises and other thenables, objects or functions", () => {
    expect(isThenable(Promise.resolve(1))).toBe(true);
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what is tested
    const thenable = { then: () => undefined };
    expect(isThenable(thenable)).toBe(true);
    expect(isThenable(Object.assign(() => undefined, thenable))).toBe(true);
  });

  it("is false of values to use as they are", () => {
    // biome-ignore lint/suspicious/noThenProperty: a `then` that is not a function is what is tested
    const notCallable = { then: 1 };
    for (const value of [undefined, null, 0, "then", true, {}, notCallable, [], new Headers()]) expect(isThenable(value)).toBe(false);
  });
});
