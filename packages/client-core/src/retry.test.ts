import { TransportError, UnmodeledError } from "@anvil/core";
import { createModeledError } from "@anvil/core/protocol";
import { describe, expect, it } from "vitest";
import { isIdempotent, noRetry, retryKindOf, standardRetry } from "./retry.js";
import { BusySchema, NotFoundSchema, Things, ThrottledSchema } from "./test-fixtures.js";

const status = (code: string, httpStatus: number) => new UnmodeledError(code, "x", { $metadata: { httpStatus } });

describe("retryKindOf", () => {
  it.each([
    ["@retryable(throttling)", createModeledError(ThrottledSchema, {}), "throttling"],
    ["@retryable", createModeledError(BusySchema, {}), "transient"],
    ["a modeled error that is not @retryable", createModeledError(NotFoundSchema, {}), undefined],
    ["a modeled error with a 503", createModeledError(NotFoundSchema, {}, { $metadata: { httpStatus: 503 } }), "transient"],
    ["429", status("Http429", 429), "throttling"],
    ["a throttling code", status("ThrottlingException", 400), "throttling"],
    ["500", status("Http500", 500), "transient"],
    ["504", status("Http504", 504), "transient"],
    ["501", status("Http501", 501), undefined],
    ["400", status("Http400", 400), undefined],
    ["gRPC UNAVAILABLE (a proxy's 502, a server shutting down)", status("UNAVAILABLE", 14), "transient"],
    ["gRPC INTERNAL", status("INTERNAL", 13), undefined],
    ["gRPC DEADLINE_EXCEEDED", status("DEADLINE_EXCEEDED", 4), undefined],
    ["a connection reset", new TransportError("ECONNRESET", "x"), "transient"],
    ["an abort", new TransportError("RequestAborted", "x"), undefined],
    ["a timeout", new TransportError("RequestTimeout", "x"), undefined],
    ["a plain Error", new Error("x"), undefined],
  ] as const)("%s → %s", (_name, error, kind) => {
    expect(retryKindOf(error)).toBe(kind);
  });
});

describe("isIdempotent", () => {
  it.each([
    ["getThing", true],
    ["putThing", true],
    ["createWithToken", true],
    ["createThing", false],
  ] as const)("%s → %s", (name, expected) => {
    expect(isIdempotent(Things.operations[name])).toBe(expected);
  });
});

describe("standardRetry", () => {
  const busy = createModeledError(BusySchema, {});
  const context = { operation: Things.operations.getThing, error: busy, attempt: 1, replayable: true };

  it("waits random() × min(max, base × 2^(attempt-1))", () => {
    const strategy = standardRetry({ maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 });
    expect([1, 2, 3, 4, 5].map((attempt) => strategy.retryDelay({ ...context, attempt }))).toEqual([50, 100, 200, 400, 500]);
  });

  it("spans the whole range with full jitter", () => {
    expect(standardRetry({ random: () => 0 }).retryDelay(context)).toBe(0);
    expect(standardRetry({ random: () => 0.9999 }).retryDelay(context)).toBe(99);
  });

  it("stops at maxAttempts, for unreplayable bodies and for non-idempotent sent requests", () => {
    const strategy = standardRetry({ maxAttempts: 2 });
    expect(strategy.retryDelay({ ...context, attempt: 2 })).toBeUndefined();
    expect(strategy.retryDelay({ ...context, replayable: false })).toBeUndefined();
    expect(strategy.retryDelay({ ...context, operation: Things.operations.createThing })).toBeUndefined();
    expect(strategy.retryDelay({ ...context, operation: Things.operations.createThing, error: new TransportError("ECONNREFUSED", "x") })).toBeTypeOf("number");
  });

  it("rejects a bad maxAttempts", () => {
    expect(() => standardRetry({ maxAttempts: 0 })).toThrow(/maxAttempts must be a positive integer/);
  });

  it("noRetry never retries", () => {
    expect(noRetry.retryDelay(context)).toBeUndefined();
  });
});
