import { describe, expect, expectTypeOf, it } from "vitest";
import type { ByteStream, ByteStreamInput } from "../values/streams.js";
import type { ClientOf, HandlersOf, InputOf, OutputOf, Sendable } from "./mapped-types.js";
import { enumeration, integer, list, member, operation, service, string, struct, type timestamp, union, unit, withOperations } from "./builders.js";
import type { StructSchema, UnionValue, ValueOf } from "./schema.js";

interface Node {
  name: string;
  children?: Node[];
}

const NodeSchema: StructSchema<Node> = struct("ex#Node", [member("name", string, { required: true }), member("children", () => NodeList)]);
const NodeList = list("ex#NodeList", member("member", NodeSchema));

describe("builders", () => {
  it("resolve recursive member targets lazily", () => {
    expect(NodeSchema.members[1]!.target).toBe(NodeList);
    expect(NodeList.member.target).toBe(NodeSchema);
  });

  it("merge a member's traits over its target's, member winning", () => {
    const Name = { ...string, id: "ex#Name", traits: { pattern: "^[a-z]+$", sensitive: true } } as typeof string;
    const m = member("name", Name, { pattern: "^x", jsonName: "n" });
    expect(m.traits).toEqual({ pattern: "^x", sensitive: true, jsonName: "n" });
    expect(m.traits).toBe(m.traits);
  });

  it("freeze what they build", () => {
    expect(Object.isFrozen(NodeSchema)).toBe(true);
    expect(Object.isFrozen(NodeSchema.members)).toBe(true);
    expect(Object.isFrozen(enumeration("ex#E", [{ name: "A", value: "a" }]).values)).toBe(true);
  });

  it("build operations and services whose inputs resolve on first access", () => {
    const Input = struct<{ id: string }>("ex#GetInput", [member("id", string, { required: true, httpLabel: true })]);
    const Get = operation("ex#Get", { input: () => Input, output: () => unit, traits: { http: { method: "GET", uri: "/x/{id}", code: 200 } } });
    const Svc = service("ex#Svc", { version: "1", operations: { get: Get }, protocols: ["aws.protocols#restJson1"] });
    expect(Get.name).toBe("Get");
    expect(Get.input).toBe(Input);
    expect(Svc.name).toBe("Svc");
    expect(Svc.operations.get).toBe(Get);
    expect(Svc.errors).toEqual([]);
  });

  it("give a service other operations, keeping the rest of it and reading its errors only when asked", () => {
    let resolved = 0;
    const Oops = struct("ex#Oops", [], { error: "client" });
    const Get = operation("ex#Get", { input: unit, output: unit });
    const Put = operation("ex#Put", { input: unit, output: unit });
    const Base = service("ex#Svc", {
      version: "2",
      operations: {},
      protocols: ["aws.protocols#restJson1"],
      auth: ["smithy.api#httpBearerAuth"],
      errors: [() => (resolved++, Oops)],
      traits: { "ex#custom": true },
    });
    const OnlyGet = withOperations(Base, { get: Get });
    expect(resolved).toBe(0);
    expect(OnlyGet).toMatchObject({
      kind: "service",
      id: "ex#Svc",
      name: "Svc",
      version: "2",
      protocols: Base.protocols,
      auth: Base.auth,
      traits: Base.traits,
    });
    expect(OnlyGet.operations).toEqual({ get: Get });
    expect(Object.isFrozen(OnlyGet) && Object.isFrozen(OnlyGet.operations)).toBe(true);
    expect(OnlyGet.errors).toEqual([Oops]);
    expect(withOperations(OnlyGet, { get: Get, put: Put }).operations).toEqual({ get: Get, put: Put });
    expect(Base.operations).toEqual({});
    expectTypeOf<ClientOf<typeof OnlyGet>>().toEqualTypeOf<{ readonly get: ClientOf<typeof OnlyGet>["get"] }>();
  });
});

describe("types", () => {
  it("carry value types through schemas, operations and services", () => {
    expectTypeOf<ValueOf<typeof NodeSchema>>().toEqualTypeOf<Node>();
    expectTypeOf<ValueOf<typeof timestamp>>().toEqualTypeOf<Date>();
    expectTypeOf<ValueOf<typeof integer>>().toEqualTypeOf<number>();
    const Get = operation<{ id: string }, { n: number }>("ex#Get", { input: struct("ex#I", []), output: struct("ex#O", []) });
    const Svc = service("ex#Svc", { operations: { get: Get } });
    expectTypeOf<InputOf<typeof Get>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<OutputOf<typeof Get>>().toEqualTypeOf<{ n: number }>();
    expectTypeOf<ClientOf<typeof Svc>["get"]>().parameter(0).toEqualTypeOf<{ id: string }>();
    expectTypeOf<ReturnType<ClientOf<typeof Svc>["get"]>>().toEqualTypeOf<Promise<{ n: number }>>();
    expectTypeOf<ReturnType<HandlersOf<typeof Svc>["get"]>>().toEqualTypeOf<Promise<{ n: number }> | { n: number }>();
  });

  it("let clients send, and handlers answer, streaming blobs as whole bytes or text too", () => {
    interface Put {
      key: string;
      body: ByteStream;
      note?: string;
    }
    interface Got {
      size: number;
      body?: ByteStream;
    }
    expectTypeOf<Sendable<Put>>().toEqualTypeOf<{ key: string; body: ByteStreamInput; note?: string }>();
    expectTypeOf<Sendable<Got>>().toEqualTypeOf<{ size: number; body?: ByteStreamInput }>();
    expectTypeOf<Sendable<Record<string, never>>>().toEqualTypeOf<Record<string, never>>();
    const Transfer = operation<Put, Got>("ex#Transfer", { input: struct("ex#I", []), output: struct("ex#O", []) });
    const Svc = service("ex#Svc", { operations: { transfer: Transfer } });
    expectTypeOf<ClientOf<typeof Svc>["transfer"]>().toBeCallableWith({ key: "k", body: new Uint8Array(1) });
    expectTypeOf<ClientOf<typeof Svc>["transfer"]>().toBeCallableWith({ key: "k", body: "text" });
    expectTypeOf<ReturnType<ClientOf<typeof Svc>["transfer"]>>().toEqualTypeOf<Promise<Got>>();
    // The handler reads a stream, and may answer with bytes.
    expectTypeOf<HandlersOf<typeof Svc>["transfer"]>().parameter(0).toEqualTypeOf<Put>();
    const handler: HandlersOf<typeof Svc>["transfer"] = () => ({ size: 2, body: Uint8Array.of(1, 2) });
    expect(handler({ key: "k", body: new ReadableStream() }, undefined)).toEqual({ size: 2, body: Uint8Array.of(1, 2) });
  });

  it("type union values as tagged cases with an unknown variant", () => {
    type Shape = UnionValue<{ circle: number; square: string }>;
    const u = union<Shape>("ex#U", [member("circle", integer), member("square", string)]);
    expectTypeOf<ValueOf<typeof u>>().toEqualTypeOf<Shape>();
    const check = (v: Shape) => {
      if (v.$case === "circle") expectTypeOf(v.value).toEqualTypeOf<number>();
      if (v.$case === "$unknown") expectTypeOf(v.name).toEqualTypeOf<string>();
    };
    check({ $case: "circle", value: 1 });
  });
});
