import { describe, expect, it } from "vitest";
import * as b from "../codegen.js";
import { ModeledError, UnmodeledError, ValidationError } from "../errors/errors.js";
import { VALIDATION_EXCEPTION_ID } from "../protocol/error-type.js";
import type { OperationSchema } from "../schema/schema.js";
import { type FakeOperation, fakeCall, fakeClientCall } from "./answer.js";

// smithy.framework#ValidationException, as generated code declares it.
const FieldSchema = b.struct("smithy.framework#ValidationExceptionField", [
  b.member("path", b.string, { required: true }),
  b.member("message", b.string, { required: true }),
]);
const ValidationException = b.struct(
  "smithy.framework#ValidationException",
  [
    b.member("message", b.string, { required: true }),
    b.member("fieldList", b.list("smithy.framework#ValidationExceptionFieldList", b.member("member", FieldSchema))),
  ],
  { error: "client" },
);
const NotFound = b.struct("t#NotFound", [b.member("message", b.string)], { error: "client" });

const Input = b.struct("t#GetEntitlementsInput", [
  b.member("ProductCode", b.string, { required: true, length: { min: 1, max: 255 } }),
  b.member("MaxResults", b.integer, { range: { min: 1, max: 25 } }),
  b.member("ClientToken", b.string, { required: true, idempotencyToken: true }),
]);
const Output = b.struct("t#GetEntitlementsOutput", [b.member("Entitlements", b.string)]);

/** The same operation, with and without a modeled ValidationException (an operation's errors hold its service's). */
const modeled = b.operation("t#GetEntitlements", { input: Input, output: Output, errors: [NotFound, ValidationException] });
const unmodeled = b.operation("t#GetEntitlementsPlain", { input: Input, output: Output, errors: [NotFound] });

const FAKE: FakeOperation = {
  examples: [
    { title: "missing", input: { ProductCode: "gone" }, error: { shapeId: "t#NotFound", content: { message: "no such product" } } },
    { title: "ok", input: {}, output: { Entitlements: "some" } },
  ],
  output: { Entitlements: "some" },
  outputFrom: "ok",
};

async function rejection(operation: OperationSchema, input: unknown): Promise<unknown> {
  return fakeClientCall(operation, FAKE, input as never).then(
    (output) => {
      throw new Error(`resolved with ${JSON.stringify(output)}`);
    },
    (e: unknown) => e,
  );
}

describe("fakeClientCall: invalid input rejects as the client rejects the server's ValidationException", () => {
  it.each([
    ["a missing @required member", {}, "/ProductCode", "Member must not be null"],
    ["a @length violation", { ProductCode: "" }, "/ProductCode", "Member must have length between 1 and 255, inclusive"],
    ["a @range violation", { ProductCode: "p", MaxResults: 99 }, "/MaxResults", "Member must be between 1 and 25, inclusive"],
  ])("%s, with the modeled ValidationException", async (_title, input, path, constraint) => {
    const error = await rejection(modeled, input);
    expect(ModeledError.isModeledError(error)).toBe(true);
    const e = error as ModeledError & { fieldList: { path: string; message: string }[] };
    expect(e.$shapeId).toBe(VALIDATION_EXCEPTION_ID);
    expect(e.code).toBe("ValidationException");
    expect(e.$fault).toBe("client");
    expect(e.$metadata).toEqual({ httpStatus: 400 });
    expect(e.fieldList).toHaveLength(1);
    expect(e.fieldList[0]!.path).toBe(path);
    expect(e.fieldList[0]!.message).toContain(path);
    expect(e.fieldList[0]!.message).toContain(constraint);
    expect(e.message).toBe(`1 validation error detected. ${e.fieldList[0]!.message}`);
    expect(e.members()).toEqual({ message: e.message, fieldList: e.fieldList });
  });

  it.each([
    ["a missing @required member", {}, "/ProductCode"],
    ["a @length violation", { ProductCode: "" }, "/ProductCode"],
    ["a @range violation", { ProductCode: "p", MaxResults: 0 }, "/MaxResults"],
  ])("%s, as an UnmodeledError when nothing models ValidationException", async (_title, input, path) => {
    const error = await rejection(unmodeled, input);
    expect(UnmodeledError.is(error)).toBe(true);
    const e = error as UnmodeledError;
    expect(e.code).toBe("ValidationException");
    expect(e.$metadata).toEqual({ httpStatus: 400 });
    expect(e.message).toMatch(/^1 validation error detected\. Value .*at '\/\w+' failed to satisfy constraint/);
    expect(e.message).toContain(`'${path}'`);
    expect(e.bodyExcerpt).toBe(JSON.stringify({ message: e.message }));
    expect(ValidationError.is(error)).toBe(false);
  });

  it("lists every violation, not only the first", async () => {
    const error = (await rejection(modeled, { ProductCode: "", MaxResults: 30 })) as ModeledError & { fieldList: { path: string }[] };
    expect(error.fieldList.map((f) => f.path)).toEqual(["/ProductCode", "/MaxResults"]);
    expect(error.message).toMatch(/^2 validation errors detected\./);
  });

  it("answers valid input as fakeCall does: outputs and example errors", async () => {
    expect(await fakeClientCall(modeled, FAKE, { ProductCode: "p", MaxResults: 25 } as never)).toEqual({ Entitlements: "some" });
    expect(await fakeClientCall(unmodeled, FAKE, { ProductCode: "p" } as never)).toEqual({ Entitlements: "some" });
    const error = await rejection(modeled, { ProductCode: "gone" });
    expect(ModeledError.isModeledError(error)).toBe(true);
    expect((error as ModeledError).$shapeId).toBe("t#NotFound");
  });

  it("fills a left-out @idempotencyToken before validating, as a real client does", async () => {
    // ClientToken is @required, but a client never sends it missing.
    expect(await fakeClientCall(modeled, FAKE, { ProductCode: "p" } as never)).toEqual({ Entitlements: "some" });
  });

  it("leaves fakeCall (behind a server that already validated) as it was", async () => {
    expect(await fakeCall(modeled, FAKE, {} as never)).toEqual({ Entitlements: "some" });
  });
});
