import { blob, member, operation, string, struct, unit } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { DEFAULT_BODY_LIMIT } from "@anvil/core/protocol";
import { defaultBodyLimit } from "./body-limit.js";

const withPayload = (max: number | undefined, target: typeof blob | typeof string = blob) =>
  operation("ex#Upload", {
    input: struct("ex#UploadInput", [member<unknown>("body", target, { httpPayload: true, ...(max === undefined ? {} : { length: { max } }) })]),
    output: unit,
  });

describe("defaultBodyLimit", () => {
  it("is 1 MiB, or the @length maximum of an @httpPayload blob when larger", () => {
    expect(defaultBodyLimit(withPayload(undefined))).toBe(DEFAULT_BODY_LIMIT);
    expect(defaultBodyLimit(withPayload(1000))).toBe(DEFAULT_BODY_LIMIT);
    expect(defaultBodyLimit(withPayload(6_291_456))).toBe(6_291_456);
  });

  it("does not grow for a text payload or a body member", () => {
    expect(defaultBodyLimit(withPayload(10_000_000, string))).toBe(DEFAULT_BODY_LIMIT);
    const bodyMember = operation("ex#Put", { input: struct("ex#PutInput", [member("data", blob, { length: { max: 10_000_000 } })]), output: unit });
    expect(defaultBodyLimit(bodyMember)).toBe(DEFAULT_BODY_LIMIT);
  });
});
