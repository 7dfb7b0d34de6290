import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { member, string, struct } from "../schema/builders.js";
import {
  AnvilError,
  createModeledError,
  errorClass,
  ModeledError,
  ProtocolError,
  SerializationError,
  TransportError,
  UnmodeledError,
  ValidationError,
} from "./errors.js";

interface NoSuchCityMembers {
  message: string;
  cityId?: string;
}
const NoSuchCitySchema = struct<NoSuchCityMembers>("ex#NoSuchCity", [member("message", string, { required: true }), member("cityId", string)], {
  error: "client",
  httpError: 404,
});
const NoSuchCity = errorClass(NoSuchCitySchema);

describe("modeled errors", () => {
  it("carry shape id, fault, members and metadata", () => {
    const e = new NoSuchCity({ message: "no such city", cityId: "atlantis" }, { $metadata: { httpStatus: 404 } });
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(ModeledError);
    expect(e).toBeInstanceOf(NoSuchCity);
    expect(e.message).toBe("no such city");
    expect(e.name).toBe("NoSuchCity");
    expect(e.code).toBe("NoSuchCity");
    expect(e.$shapeId).toBe("ex#NoSuchCity");
    expect(e.$fault).toBe("client");
    expect(e.cityId).toBe("atlantis");
    expect(e.$metadata.httpStatus).toBe(404);
    expect(e.members()).toEqual({ message: "no such city", cityId: "atlantis" });
  });

  it("have one class per schema, shared with deserializers", () => {
    expect(errorClass(NoSuchCitySchema)).toBe(NoSuchCity);
    expect(createModeledError(NoSuchCitySchema, { message: "x" })).toBeInstanceOf(NoSuchCity);
    expect(NoSuchCity.name).toBe("NoSuchCity");
  });

  it("take their message from a member spelled Message (as AWS models spell it), then from the response, then the name", () => {
    const Throttled = errorClass(
      struct<{ Message?: string; retryAfter?: string }>("ex#Throttled", [member("Message", string), member("retryAfter", string)], { error: "client" }),
    );
    const e = new Throttled({ Message: "slow down", retryAfter: "5" });
    expect(e.message).toBe("slow down");
    expect(e.Message).toBe("slow down");
    expect(e.members()).toEqual({ Message: "slow down", retryAfter: "5" });
    // A response that sent `message` for the `Message` member: the error says it, the member stays absent.
    const fromWire = new Throttled({}, { message: "from the wire" });
    expect(fromWire.message).toBe("from the wire");
    expect(fromWire.members()).toEqual({});
    expect(new Throttled({}).message).toBe("Throttled");
    expect(new NoSuchCity({ message: "" }, { message: "fallback" }).message).toBe("fallback");
  });

  it("C4: are recognised by brand, not only instanceof", () => {
    const e = new NoSuchCity({ message: "x" });
    // What a copy of the class from another package instance looks like: same brand, other prototype.
    const foreign = Object.assign(Object.create(Error.prototype), e, { [Symbol.for("anvil.error.kind")]: "modeled" });
    expect(foreign instanceof ModeledError).toBe(false);
    expect(ModeledError.isModeledError(foreign)).toBe(true);
    expect(NoSuchCity.is(e)).toBe(true);
    expect(NoSuchCity.is(new Error("x"))).toBe(false);
    expect(AnvilError.isAnvilError(e)).toBe(true);
  });
});

describe("C4: two copies of the package", () => {
  it("recognise each other's errors by brand (instanceof cannot), and require() gets the copy import() got", async () => {
    // The built package, as an application installs it, and a second copy of it elsewhere (as a duplicated install has).
    const dist = new URL("../../dist/", import.meta.url);
    const other = mkdtempSync(join(tmpdir(), "anvil-core-copy-"));
    cpSync(fileURLToPath(dist), other, { recursive: true });
    const script = `
      import { createRequire } from "node:module";
      const a = await import(${JSON.stringify(new URL("index.js", dist).href)});
      const b = await import(${JSON.stringify(pathToFileURL(join(other, "index.js")).href)});
      const { member, string, struct } = await import(${JSON.stringify(new URL("codegenv1.js", dist).href)});
      const required = createRequire(import.meta.url)(${JSON.stringify(fileURLToPath(new URL("index.js", dist)))});
      const Thing = struct("ex#NoSuchThing", [member("message", string)], { error: "client" });
      const modeled = new (a.errorClass(Thing))({ message: "x" });
      const unmodeled = new a.UnmodeledError("Http502", "bad gateway");
      process.stdout.write(JSON.stringify({
        copies: a.UnmodeledError !== b.UnmodeledError,
        instanceofAcross: unmodeled instanceof b.UnmodeledError,
        unmodeled: [b.UnmodeledError.is(unmodeled), b.AnvilError.isAnvilError(unmodeled), b.SerializationError.is(unmodeled)],
        modeled: [b.errorClass(Thing).is(modeled), b.ModeledError.isModeledError(modeled), b.UnmodeledError.is(modeled)],
        requireSame: required.UnmodeledError === a.UnmodeledError && required.errorClass === a.errorClass,
      }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { timeout: 30_000 }).finally(() =>
      rmSync(other, { recursive: true, force: true }),
    );
    expect(JSON.parse(stdout)).toEqual({
      copies: true,
      instanceofAcross: false,
      unmodeled: [true, true, false],
      modeled: [true, true, false],
      requireSame: true,
    });
  });
});

describe("the other branches", () => {
  it.each([
    ["unmodeled", new UnmodeledError("InternalFailure", "boom", { bodyExcerpt: "<html>" }), UnmodeledError],
    ["validation", new ValidationError([{ path: "/a", message: "bad a" }]), ValidationError],
    ["serialization", new SerializationError("decode json: expected a number at /a", { path: "/a" }), SerializationError],
    ["protocol", new ProtocolError("UnsupportedMediaTypeException", 415, "unsupported content type"), ProtocolError],
    ["transport", new TransportError("ECONNRESET", "connection reset"), TransportError],
  ] as const)("%s errors are distinct and branded", (_kind, error, cls) => {
    expect(AnvilError.isAnvilError(error)).toBe(true);
    expect(cls.is(error)).toBe(true);
    for (const other of [UnmodeledError, ValidationError, SerializationError, ProtocolError, TransportError]) {
      if (other !== cls) expect(other.is(error)).toBe(false);
    }
    expect(ModeledError.isModeledError(error)).toBe(false);
  });

  it("validation errors keep every field", () => {
    const e = new ValidationError([
      { path: "/a", message: "bad a" },
      { path: "/b", message: "bad b" },
    ]);
    expect(e.fieldList).toHaveLength(2);
    expect(e.code).toBe("ValidationException");
  });

  it("protocol errors carry the status and the error type the protocol writes", () => {
    const e = new ProtocolError("NotAcceptableException", 406, "accept: application/json cannot be answered");
    expect([e.code, e.status, e.name]).toEqual(["NotAcceptableException", 406, "ProtocolError"]);
  });
});
