import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { flattenMixins, loadModel, modelToJsonAst, nodeEquals, type ValidationEvent } from "./index.js";

const idl = (text: string, file = "test.smithy") => loadModel({ sources: [{ file, text: `$version: "2.0"\n${text}` }] });
const errors = (events: readonly ValidationEvent[]) => events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
const messages = (events: readonly ValidationEvent[]) => errors(events).map((e) => e.message);

describe("loadModel: resolution", () => {
  it("resolves relative ids: use, then namespace, then prelude", () => {
    const { model, events } = loadModel({
      sources: [
        { file: "a.smithy", text: `$version: "2.0"\nnamespace a\nuse b#Shared\nstructure S { x: Shared, y: Local, z: String, w: Later }\nstring Local` },
        { file: "b.smithy", text: `$version: "2.0"\nnamespace b\nstring Shared` },
        { file: "c.smithy", text: `$version: "2.0"\nnamespace a\nstring Later\nstring String` },
      ],
    });
    expect(errors(events)).toEqual([]);
    const s = model.getShape("a#S")!;
    expect([...s.members.values()].map((m) => m.target)).toEqual(["b#Shared", "a#Local", "a#String", "a#Later"]);
  });

  it("reports an unresolved member target with its location", () => {
    const { events } = idl(`namespace ex\nstructure S {\n    x: Missing\n}`);
    const e = errors(events).find((ev) => ev.id === "Target")!;
    expect(e.message).toContain("ex#Missing");
    expect(e.location).toMatchObject({ file: "test.smithy", line: 4 });
  });

  it("merges identical duplicate shapes and rejects conflicting ones", () => {
    const same = loadModel({ sources: [0, 1].map((i) => ({ file: `${i}.smithy`, text: `$version: "2.0"\nnamespace ex\n@length(min: 1)\nstring S` })) });
    expect(errors(same.events)).toEqual([]);
    expect(same.events.some((e) => e.severity === "NOTE" && e.message.startsWith("Ignoring duplicate"))).toBe(true);
    const conflict = loadModel({
      sources: [
        { file: "a.smithy", text: `$version: "2.0"\nnamespace ex\nstring S` },
        { file: "b.smithy", text: `$version: "2.0"\nnamespace ex\ninteger S` },
      ],
    });
    expect(messages(conflict.events).some((m) => m.startsWith("Conflicting shape definition for `ex#S`"))).toBe(true);
  });
});

describe("loadModel: traits", () => {
  it("applies traits with apply statements, including to members", () => {
    const { model, events } = idl(`namespace ex\nstructure S { a: String }\napply S @documentation("doc")\napply S$a {\n  @required\n  @jsonName("A")\n}`);
    expect(errors(events)).toEqual([]);
    expect(model.getShape("ex#S")!.traits.get("smithy.api#documentation")).toBe("doc");
    expect([...model.getMember("ex#S$a")!.traits.keys()]).toEqual(["smithy.api#required", "smithy.api#jsonName"]);
  });

  it("concatenates list traits applied twice and rejects other conflicts", () => {
    const ok = idl(`namespace ex\n@tags(["a"])\nstring S\napply S @tags(["b"])`);
    expect(ok.model.getShape("ex#S")!.traits.get("smithy.api#tags")).toEqual(["a", "b"]);
    const bad = idl(`namespace ex\n@documentation("a")\nstring S\napply S @documentation("b")`);
    expect(messages(bad.events).some((m) => m.startsWith("Conflicting `smithy.api#documentation` trait found on shape `ex#S`"))).toBe(true);
  });

  it("coerces annotation traits by their definition's type", () => {
    const { model } = idl(`namespace ex\n@trait\nlist listTrait { member: String }\n@listTrait\n@sensitive\nstring S`);
    const s = model.getShape("ex#S")!;
    expect(s.traits.get("ex#listTrait")).toEqual([]);
    expect(s.traits.get("smithy.api#sensitive")).toEqual({});
  });

  it("rejects unknown traits, or keeps them as warnings with allowUnknownTraits", () => {
    const text = `$version: "2.0"\nnamespace ex\n@ex#unknown(a: 1)\nstring S`;
    const strict = loadModel({ sources: [{ file: "t.smithy", text }] });
    expect(messages(strict.events).some((m) => m.startsWith("Unable to resolve trait `ex#unknown`"))).toBe(true);
    const lax = loadModel({ sources: [{ file: "t.smithy", text }], allowUnknownTraits: true });
    expect(errors(lax.events)).toEqual([]);
    expect(lax.model.getShape("ex#S")!.traits.get("ex#unknown")).toEqual({ a: 1 });
  });

  it("validates trait values against their definitions", () => {
    const { events } = idl(`namespace ex\n@length(min: "one")\nstring S`);
    const e = errors(events).find((ev) => ev.id === "TraitValue")!;
    expect(e.message).toBe(
      "Error validating trait `smithy.api#length`.min: Expected number value for long shape, `smithy.api#Long`; found string value, `one`",
    );
  });

  it("rejects traits applied where their selector does not allow them", () => {
    const { events } = idl(`namespace ex\n@idempotent\nstring S`);
    expect(errors(events).find((e) => e.id === "TraitTarget")?.message).toMatch(/^Trait `idempotent` cannot be applied to `ex#S`/);
  });

  it("fills in enum values and the Unit target of enum members", () => {
    const { model } = idl(`namespace ex\nenum E {\n  A\n  B = "b"\n}`);
    const e = model.getShape("ex#E")!;
    expect([...e.members.values()].map((m) => [m.target, m.traits.get("smithy.api#enumValue")])).toEqual([
      ["smithy.api#Unit", "A"],
      ["smithy.api#Unit", "b"],
    ]);
  });
});

describe("loadModel: mixins", () => {
  const text = `namespace ex
@mixin
@sensitive
structure Base { /// base id
  id: String }
structure Thing with [Base] { name: String }
apply Thing$id @required`;

  it("copies mixin members first and inherits traits", () => {
    const { model, events } = idl(text);
    expect(errors(events)).toEqual([]);
    const thing = model.getShape("ex#Thing")!;
    expect([...thing.members.keys()]).toEqual(["id", "name"]);
    expect(thing.traits.has("smithy.api#sensitive")).toBe(true);
    expect([...model.getMember("ex#Thing$id")!.traits.keys()]).toEqual(["smithy.api#documentation", "smithy.api#required"]);
  });

  it("writes the JSON AST unflattened and flattens on request", () => {
    const { model } = idl(text);
    const ast = modelToJsonAst(model);
    expect(ast.shapes["ex#Thing"]).toEqual({ type: "structure", mixins: [{ target: "ex#Base" }], members: { name: { target: "smithy.api#String" } } });
    expect(ast.shapes["ex#Thing$id"]).toEqual({ type: "apply", traits: { "smithy.api#required": {} } });
    const flat = modelToJsonAst(flattenMixins(model));
    expect(flat.shapes["ex#Base"]).toBeUndefined();
    expect(Object.keys((flat.shapes["ex#Thing"] as { members: object }).members)).toEqual(["id", "name"]);
  });

  it("detects mixin cycles and missing mixins", () => {
    const cyc = idl(`namespace ex\n@mixin\nstructure A with [B] {}\n@mixin\nstructure B with [A] {}`);
    expect(messages(cyc.events).filter((m) => m.startsWith("Unable to resolve mixins; cycles detected"))).toHaveLength(2);
    // Upstream lists a cycle as Tarjan's algorithm pops it, visiting shapes in Java
    // `HashMap<ShapeId>` order; by ShapeId.hashCode, ex#South comes first here.
    const ring = idl(
      ["North with [East]", "East with [South]", "South with [West]", "West with [North]"]
        .map((s) => `@mixin structure ${s} {}`)
        .join("\n")
        .replace(/^/, "namespace ex\n"),
    );
    const between = (shape: string) => ring.events.find((e) => e.shapeId === shape)?.message.replace(/^.*and /, "");
    expect(between("ex#North")).toBe("[ex#West, ex#East, ex#South]");
    expect(between("ex#South")).toBe("[ex#West, ex#North, ex#East]");
    const missing = idl(`namespace ex\nstructure A with [Nope] {}`);
    expect(messages(missing.events)).toContain("Cannot apply mixin to ex#A: ex#Nope not found");
  });
});

describe("loadModel: JSON AST", () => {
  it("round-trips a model through the JSON AST", () => {
    const a = idl(
      `namespace ex\nservice S { version: "1", operations: [Op] }\n@http(method: "GET", uri: "/x/{id}")\noperation Op { input := { @required @httpLabel id: String }, output: Unit }`,
    );
    expect(errors(a.events)).toEqual([]);
    const json = JSON.stringify(modelToJsonAst(a.model));
    const b = loadModel({ sources: [{ file: "m.json", text: json }] });
    expect(errors(b.events)).toEqual([]);
    expect(modelToJsonAst(b.model)).toEqual(JSON.parse(json));
    expect(nodeEquals(modelToJsonAst(b.model) as never, JSON.parse(json))).toBe(true);
  });

  it("reports bad JSON AST documents clearly", () => {
    const cases: [string, string][] = [
      [`{"smithy": "999"}`, "Unsupported Smithy version number: 999"],
      [`{"smithy": "2.0", "shapes": "x"}`, "Expected `shapes` to be an object; found string"],
      [`{"smithy": "2.0", "shapes": {"Hi": {"type": "string"}}}`, "Invalid shape ID: Hi"],
      [`{"smithy": "2.0", "metadata": []}`, "Expected `metadata` to be an object; found array"],
      [`{"smithy": `, "Invalid JSON"],
    ];
    for (const [text, message] of cases) {
      const { events } = loadModel({ sources: [{ file: "m.json", text }] });
      expect(
        messages(events).some((m) => m.startsWith(message)),
        message,
      ).toBe(true);
    }
  });
});

describe("loadModel: Anvil rules", () => {
  it("requires HTTP labels to be bound and required", () => {
    const { events } = idl(`namespace ex\n@http(method: "GET", uri: "/x/{id}")\noperation Op { input := { id: String } }`);
    const ids = errors(events).filter((e) => e.id === "HttpLabelTrait");
    expect(ids.length).toBeGreaterThan(0);
  });

  it("requires @protoIndex on members reachable from gRPC operations, unique per message", () => {
    const { events } = idl(`namespace ex
use alloy.proto#grpc
use alloy.proto#protoIndex
@grpc
service S { operations: [Op] }
operation Op {
  input := { @protoIndex(1) a: String, @protoIndex(1) b: String, nested: Nested }
}
structure Nested { c: String }`);
    const grpc = errors(events)
      .filter((e) => e.id === "AnvilGrpc.ProtoIndex")
      .map((e) => e.shapeId);
    expect(grpc).toEqual(expect.arrayContaining(["ex#OpInput$b", "ex#OpInput$nested", "ex#Nested$c"]));
  });

  it("rejects @streaming blobs under gRPC", () => {
    const { events } = idl(`namespace ex
use alloy.proto#grpc
use alloy.proto#protoIndex
@grpc
service S { operations: [Op] }
operation Op { output := { @protoIndex(1) body: Body } }
@streaming
blob Body`);
    expect(errors(events).some((e) => e.id === "AnvilGrpc.StreamingBlob")).toBe(true);
  });

  it("warns, at the member, about a @streaming blob in a service that declares awsJson or rpcv2Cbor", () => {
    const { events } = idl(
      `namespace ex
use aws.protocols#awsJson1_1
use aws.protocols#restJson1
use smithy.protocols#rpcv2Cbor
@restJson1 @awsJson1_1 @rpcv2Cbor
service S { operations: [Upload] }
@http(method: "PUT", uri: "/upload")
operation Upload { input := { @httpPayload body: Body } }
@streaming
blob Body`,
      "upload.smithy",
    );
    const warnings = events.filter((e) => e.id === "AnvilProtocol.StreamingBlob");
    expect(warnings.map((e) => [e.severity, e.shapeId, e.location?.file])).toEqual([
      ["WARNING", "ex#UploadInput$body", "upload.smithy"],
      ["WARNING", "ex#UploadInput$body", "upload.smithy"],
    ]);
    expect(warnings.map((e) => e.message)).toEqual([
      expect.stringMatching(/`ex#Upload` has a @streaming blob \(input member `body`\), which the aws\.protocols#awsJson1_1 protocol/),
      expect.stringMatching(/`ex#Upload` .* the smithy\.protocols#rpcv2Cbor protocol/),
    ]);
  });
});

describe("loadModel: bad input never crashes", () => {
  const dir = mkdtempSync(join(tmpdir(), "anvil-model-"));

  it("reports unreadable paths and unsupported files", () => {
    writeFileSync(join(dir, "notes.txt"), "hi");
    const { events } = loadModel({ paths: [join(dir, "missing.smithy"), join(dir, "notes.txt")] });
    expect(messages(events)).toEqual([expect.stringContaining("ENOENT"), expect.stringContaining("expected a .smithy (IDL) or .json (JSON AST) file")]);
  });

  it.each([
    ["binary garbage", () => Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString("latin1")],
    ["a 10 MB single line", () => `$version: "2.0"\nnamespace ex\nstring S ${"x".repeat(10_000_000)}`],
    ["100,000-deep list nesting", () => `$version: "2.0"\nnamespace ex\nmetadata m = ${"[".repeat(100_000)}`],
    ["100,000-deep object nesting", () => `$version: "2.0"\nnamespace ex\n@tags(${"{a:".repeat(100_000)})\nstring S`],
    ["100,000-deep JSON", () => `{"smithy":"2.0","metadata":{"m":${"[".repeat(100_000)}}}`],
  ])("%s gives a clear error quickly", (_name, make) => {
    const text = make();
    const file = text.startsWith("{") ? "m.json" : "m.smithy";
    const started = performance.now();
    const { events } = loadModel({ sources: [{ file, text }] });
    expect(performance.now() - started).toBeLessThan(10_000); // a hang guard, not a speed test
    expect(errors(events).length).toBeGreaterThan(0);
  });
});

describe("bundled definitions", () => {
  it("the prelude and every bundled trait file load and validate with no errors", async () => {
    const { validateModel } = await import("./index.js");
    const { model, events } = loadModel({ validate: false });
    expect(errors(events)).toEqual([]);
    const all = validateModel(model, [], { includeBuiltins: true });
    expect(errors(all).map((e) => `${e.shapeId}: ${e.message}`)).toEqual([]);
  });

  it("are embedded as prelude/ and traits/ hold them (src/embedded-files.ts is current)", () => {
    const script = fileURLToPath(new URL("../scripts/embed-files.mjs", import.meta.url));
    const run = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("load with no file system (as on Workers and in browsers), and model files are then a clear error", () => {
    const runtime = process as { getBuiltinModule?: unknown };
    const getBuiltinModule = runtime.getBuiltinModule;
    runtime.getBuiltinModule = undefined;
    try {
      const { model, events } = idl('namespace ex\n@documentation("d")\nstructure S { @required a: String }');
      expect(errors(events)).toEqual([]);
      expect(model.getShape("ex#S")?.members.get("a")?.target).toBe("smithy.api#String");
      expect(messages(loadModel({ paths: ["model/"] }).events)).toEqual([expect.stringContaining("pass the models as `sources`")]);
    } finally {
      runtime.getBuiltinModule = getBuiltinModule;
    }
  });
});

describe("IDL 1.0", () => {
  it("gives members targeting unboxed primitives a zero default, as Smithy's upgrade does", () => {
    const { model, events } = loadModel({
      sources: [
        {
          file: "v1.smithy",
          text: `$version: "1.0"\nnamespace ex\nstructure S {\n a: PrimitiveInteger,\n b: Integer,\n c: MyInt,\n @box\n d: PrimitiveBoolean,\n e: PrimitiveBoolean\n}\ninteger MyInt`,
        },
      ],
    });
    expect(errors(events)).toEqual([]);
    const defaults = [...model.getShape("ex#S")!.members.values()].map((m) => m.traits.get("smithy.api#default"));
    expect(defaults).toEqual([0, undefined, 0, undefined, false]);
  });

  it("rejects @default in 1.0 files", () => {
    const { events } = loadModel({ sources: [{ file: "v1.smithy", text: `$version: "1.0"\nnamespace ex\nstructure S {\n @default(1)\n a: Integer\n}` }] });
    expect(messages(events)).toContain("The @default trait can only be used in Smithy 2.0 or later");
  });
});

describe("models in the style of the public AWS service models", () => {
  const fixture = join(import.meta.dirname, "__fixtures__", "aws-style-service.json");

  it("load with the bundled smithy.rules, smithy.waiters, aws.iam, aws.cloudformation and aws.endpoints traits", () => {
    const { model, events } = loadModel({ paths: [fixture] });
    expect(errors(events).map((e) => e.message)).toEqual([]);
    expect(model.getShape("com.example.notes#NotesService")?.traits.has("smithy.rules#endpointRuleSet")).toBe(true);
  });

  it("load an @endpointBdd rule set as newer AWS models write it (with its format version) without a warning", () => {
    const bdd = {
      version: "1.1",
      parameters: { Region: { type: "string", required: true, documentation: "Where to call." } },
      conditions: [{ fn: "isSet", argv: [{ ref: "Region" }] }],
      results: [{ type: "endpoint", endpoint: { url: "https://api.{Region}.example.com" } }],
      root: 2,
      nodeCount: 2,
      nodes: "AQIBAIKEr1+EhK9f",
    };
    const text = JSON.stringify({ smithy: "2.0", shapes: { "ex#Api": { type: "service", version: "1", traits: { "smithy.rules#endpointBdd": bdd } } } });
    const { events } = loadModel({ sources: [{ file: "m.json", text }] });
    expect(events.filter((e) => e.severity !== "NOTE").map((e) => e.message)).toEqual([]);
  });

  it("load with unknown traits as warnings when asked, values kept", () => {
    const text = JSON.stringify({
      smithy: "2.0",
      shapes: { "ex#S": { type: "string", traits: { "aws.somethingnew#fancy": { level: 3 } } } },
    });
    const strict = loadModel({ sources: [{ file: "m.json", text }] });
    expect(errors(strict.events)).toHaveLength(1);
    const lax = loadModel({ sources: [{ file: "m.json", text }], allowUnknownTraits: true });
    expect(errors(lax.events)).toEqual([]);
    expect(lax.events.find((e) => e.severity === "WARNING")?.message).toContain("aws.somethingnew#fancy");
    expect(lax.model.getShape("ex#S")!.traits.get("aws.somethingnew#fancy")).toEqual({ level: 3 });
  });
});

describe("messages", () => {
  it("suggest a similar shape name for a mistyped target", () => {
    const { events } = idl(`namespace ex\nstructure S {\n  a: Strin\n  b: Widgit\n}\nstructure Widget {}`);
    expect(messages(events)).toEqual([
      expect.stringMatching(/targets `ex#Strin`.*Did you mean `smithy\.api#String`\?$/),
      expect.stringMatching(/targets `ex#Widgit`.*Did you mean `ex#Widget`\?$/),
    ]);
  });
});

describe("node values", () => {
  it("keep `__proto__` keys as data through loading", () => {
    const { model, events } = idl(`metadata m = {"__proto__": {"polluted": true}}\nnamespace ex\n@tags(["x"])\nstring S`);
    expect(errors(events)).toEqual([]);
    const m = model.metadata.m as Record<string, unknown>;
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
    expect(Object.hasOwn(m, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
