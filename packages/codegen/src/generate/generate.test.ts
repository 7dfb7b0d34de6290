import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModel } from "@anvil/model";
import { NO_EXAMPLES } from "./fakes-file.js";
import { generate } from "./generate.js";
import { EXAMPLE_MODEL, generateInto, loadOrThrow, PACKAGE_ROOT, RICH_MODEL, scratchDir, typeCheck, WEATHER_MODEL } from "./test-support.js";

/** Type-level checks written next to the generated files: the interfaces agree with core's mapped types. */
const EXAMPLE_USAGE = `
import type { ClientOf, HandlersOf } from "@anvil/core";
import { NoSuchCity, Sky, type DailyForecast, type GetForecastInput } from "./example.weather.shapes.js";
import { GetCity, Weather } from "./weather.js";
import type { WeatherClient } from "./weather.client.js";
import type { GetCityHandler, WeatherHandler } from "./weather.server.js";

type Ctx = { readonly user: string };
export const asMapped: ClientOf<typeof Weather> = null as unknown as WeatherClient;
export const fromMapped: WeatherClient = null as unknown as ClientOf<typeof Weather>;
export const handlers: HandlersOf<typeof Weather, Ctx> = null as unknown as WeatherHandler<Ctx>;

export const handler: WeatherHandler<Ctx> = {
  getCurrentTime: () => ({ time: new Date(0) }),
  getCity: async ({ cityId }, ctx) => {
    if (cityId === "nowhere") throw new NoSuchCity({ message: ctx.user, cityId });
    return { name: cityId, coordinates: { latitude: 1, longitude: 2 } };
  },
  listCities: () => ({ items: [] }),
  getForecast: (input: GetForecastInput) => ({ days: [{ date: new Date(0), highC: input.days ?? 3, lowC: 0, sky: Sky.CLEAR }] }),
};
export const one: GetCityHandler<Ctx> = handler;
export const day: DailyForecast = { date: new Date(0), highC: 1, lowC: 0, sky: "RAIN" };
// @ts-expect-error: not a Sky
export const badSky: DailyForecast = { date: new Date(0), highC: 1, lowC: 0, sky: "FOG" };
// @ts-expect-error: exactOptionalPropertyTypes: an optional member is absent, never undefined
export const badOptional: GetForecastInput = { cityId: "x", days: undefined };
export const op: typeof GetCity = Weather.operations.getCity;
`;

/** The README's handler example, verbatim in spirit: it must compile. */
const README_USAGE = `
import { NoSuchCity, Sky } from "./example.weather.shapes.js";
import type { WeatherHandler } from "./weather.server.js";

export const handler: WeatherHandler<{ user: string }> = {
  getCurrentTime: () => ({ time: new Date() }),
  getCity: async ({ cityId }) => {
    throw new NoSuchCity({ message: \`no city \${cityId}\`, cityId });
  },
  listCities: () => ({ items: [] }),
  getForecast: ({ days = 3 }) => ({ days: [{ date: new Date(), highC: days, lowC: 0, sky: Sky.CLEAR }] }),
};
`;

const RICH_USAGE = `
import type { ClientOf, HandlersOf, UnionValue } from "@anvil/core";
import { BigDecimal } from "@anvil/core";
import { Colour, Mood, NotFound, Size, Throttled, type ItemData, type Shape, type Tree, type _Object } from "./test.store.shapes.js";
import { Store } from "./store.js";
import type { StoreClient } from "./store.client.js";
import type { StoreHandler } from "./store.server.js";
import { Gadgets } from "./gadgets.js";
import type { GadgetsClient } from "./gadgets.client.js";

export const asMapped: ClientOf<typeof Store> = null as unknown as StoreClient;
export const fromMapped: StoreClient = null as unknown as ClientOf<typeof Store>;
export const handlers: HandlersOf<typeof Store> = null as unknown as StoreHandler;
export const gadgets: ClientOf<typeof Gadgets> = null as unknown as GadgetsClient;
export const unsafeNames: [GadgetsClient["_then"], GadgetsClient["_constructor"], GadgetsClient["___proto__"]] = [() => Promise.resolve({}), () => Promise.resolve({}), () => Promise.resolve({})];
// @ts-expect-error: no \`then\` method: a client is not a thenable
export const noThen: GadgetsClient["then"] = null;

export const item: ItemData = {
  itemId: "a",
  name: "n",
  quantity: 10n,
  views: 3,
  cost: BigDecimal.from("1.5"),
  colour: Colour.RED,
  size: Size.LARGE,
  mood: "CURIOUS",
  nickname: null,
  metadata: { any: [1, "two", null] },
  shape: { $case: "circle", value: 1 },
  tree: { value: "root", children: [{ value: "leaf" }], next: { $case: "end", value: {} } },
  sparseList: [1, null],
  picture: new Uint8Array([1]),
  released: new Date(0),
  kind: "t2.micro",
  default: "d",
  constructor: 1,
};
export const mood: Mood = Mood.HAPPY;
export const unknownCase: Shape = { $case: "$unknown", name: "triangle", value: 3 };
export const link: UnionValue<{ tree: Tree; end: Record<string, never> }> = { $case: "tree", value: { value: "x" } };
export const reserved: _Object = { key: "k" };
export const thrown: NotFound = new NotFound({ message: "gone" });
export const retry: boolean = Throttled.is(thrown);
export const expr: import("./test.store.shapes.js").Expr = { $case: "not", value: { $case: "all", value: [{ $case: "lit", value: 1 }] } };
export const nested: import("./test.store.shapes.js").Nested = [[[]]];
export const nestedMap: import("./test.store.shapes.js").NestedMap = { a: { b: {} } };
// @ts-expect-error: a closed enum rejects other values
export const badColour: Colour = "blue";

export const handler: Pick<StoreHandler, "download" | "subscribe"> = {
  download: () => ({ body: (async function* () { yield new Uint8Array([1]); })() }),
  subscribe: async ({ events }) => {
    if (events) for await (const e of events) if (e.$case === "hello") void e.value.who;
    return { events: (async function* () { yield { $case: "update" as const, value: { payload: new Uint8Array() } }; })() };
  },
};
`;

describe("generate", () => {
  it("writes type-correct code for the example and the rich fixture (strict, exactOptionalPropertyTypes)", () => {
    const dir = scratchDir("typecheck");
    const example = generateInto(dir, loadOrThrow([WEATHER_MODEL]), { client: true, generateFakes: true });
    const rich = generateInto(dir, loadOrThrow([RICH_MODEL]), { client: true, generateFakes: true });
    expect([...example.events, ...rich.events].filter((e) => e.severity === "ERROR")).toEqual([]);
    writeFileSync(join(dir, "example-usage.ts"), EXAMPLE_USAGE);
    writeFileSync(join(dir, "rich-usage.ts"), RICH_USAGE);
    writeFileSync(join(dir, "readme-usage.ts"), README_USAGE);
    const files = [...example.files, ...rich.files].map((f) => join(dir, f.path));
    const usage = ["example-usage.ts", "rich-usage.ts", "readme-usage.ts"].map((f) => join(dir, f));
    expect(typeCheck([...files, ...usage])).toEqual([]);
  }, 120_000);

  it("writes the same bytes on every run", () => {
    const first = generate(loadOrThrow([RICH_MODEL]), { client: true });
    const second = generate(loadOrThrow([RICH_MODEL]), { client: true });
    expect(second.files).toEqual(first.files);
  });

  it("names each namespace's shapes file and each service's files in kebab case, and heads them with the generator's version and options", () => {
    const { files } = generate(loadOrThrow([RICH_MODEL]), { client: true });
    expect(files.map((f) => f.path)).toEqual([
      "smithy.api.shapes.ts",
      "test.legacy.shapes.ts",
      "test.other.shapes.ts",
      "test.store.shapes.ts",
      "gadgets.ts",
      "gadgets.server.ts",
      "gadgets.client.ts",
      "store.ts",
      "store.server.ts",
      "store.client.ts",
    ]);
    const version = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
    for (const f of files) expect(f.text.split("\n")[0]).toBe(`// @generated by @anvil/codegen v${version} (server, client). DO NOT EDIT.`);
    expect(files[3]!.text.split("\n")[1]).toBe("// test.store: the shapes the generated services use (types, schemas and error classes).");
    expect(files[7]!.text.split("\n")[1]).toBe("// test.store#Store: the service descriptor and its operations.");
    const only = generate(loadOrThrow([RICH_MODEL]), { server: false, generateFakes: true, services: ["test.store#Store"] });
    expect(only.files[0]!.text.split("\n")[0]).toBe(`// @generated by @anvil/codegen v${version} (fakes, services: test.store#Store). DO NOT EDIT.`);
  });

  // The generator itself uses @anvil/dynamic and @anvil/model; what it writes must not.
  it.each([
    ["the rich fixture", RICH_MODEL],
    ["the example", EXAMPLE_MODEL],
  ])("writes files that import only @anvil/core/codegenv1 (and a client file, @anvil/client-core), besides each other: %s", (_name, path) => {
    const { files } = generate(loadOrThrow([path]), { client: true, generateFakes: true });
    for (const f of files) {
      // Import and re-export declarations start a line; no dynamic import or require anywhere.
      const specifiers = [...f.text.matchAll(/^(?:(?:import|export)\b[^;]*?\bfrom\s*|import\s*)"([^"]+)";$/gm)].map((m) => m[1]);
      expect(specifiers.length).toBeGreaterThan(0);
      expect(f.text).not.toMatch(/\bimport\s*\(|\brequire\s*\(/);
      // The runtime through its versioned entry point only: code generated today keeps working with newer runtimes.
      // Paginators and waiters: only the client file takes them from the client runtime, which a client's program has installed.
      const allowed = /^(@anvil\/core\/codegenv1|\.\/[a-z-]+(\.server|\.client)?\.js|\.\/[a-z0-9_.]+\.shapes\.js)$/;
      const clientRuntime = /^@anvil\/client-core(\/waiters)?$/;
      for (const s of specifiers) expect(allowed.test(s!) || (f.path.endsWith(".client.ts") && clientRuntime.test(s!)), `${f.path} imports ${s}`).toBe(true);
    }
  });

  it.each([
    [{ server: false, client: false }, ["smithy.api.shapes.ts", "test.legacy.shapes.ts", "test.other.shapes.ts", "test.store.shapes.ts", "store.ts"]],
    [{}, ["smithy.api.shapes.ts", "test.legacy.shapes.ts", "test.other.shapes.ts", "test.store.shapes.ts", "store.ts", "store.server.ts"]],
    [
      { client: true, server: false },
      ["smithy.api.shapes.ts", "test.legacy.shapes.ts", "test.other.shapes.ts", "test.store.shapes.ts", "store.ts", "store.client.ts"],
    ],
  ])("honours the surfaces asked for: %j", (options, expected) => {
    const { files } = generate(loadOrThrow([RICH_MODEL]), { ...options, services: ["test.store#Store"] });
    expect(files.map((f) => f.path)).toEqual(expected);
  });

  it("embeds the model, when asked, as a JSON AST module that imports nothing and loads back to the same model", async () => {
    const model = loadOrThrow([EXAMPLE_MODEL]);
    const { files } = generate(model, { embedModel: true });
    const file = files.find((f) => f.path === "model.ts")!;
    expect(files.at(-1)).toBe(file);
    expect(file.text.split("\n")[0]).toMatch(/\(server, model\)\. DO NOT EDIT\.$/);
    expect(file.text).not.toMatch(/^\s*import\b|\bimport\s*\(|\brequire\s*\(/m);
    const dir = scratchDir("embed-model");
    writeFileSync(join(dir, "model.ts"), file.text);
    const { MODEL } = (await import(join(dir, "model.ts"))) as { MODEL: { file: string; text: string } };
    const loaded = loadModel({ sources: [MODEL] });
    expect(loaded.events.filter((e) => e.severity === "ERROR")).toEqual([]);
    const ids = (m: typeof model) => [...m.shapes.keys()].sort();
    expect(ids(loaded.model)).toEqual(ids(model));
    expect(generate(loaded.model, {}).files).toEqual(generate(model, {}).files);
    expect(generate(model, {}).files.some((f) => f.path === "model.ts")).toBe(false);
  });

  it("warns about each operation without @examples at its own file:line:col, and about nothing else", () => {
    const { files, events } = generate(loadOrThrow([WEATHER_MODEL]), { generateFakes: true });
    expect(files.map((f) => f.path)).toContain("weather.fakes.ts");
    const file = readdirSync(WEATHER_MODEL).find((f) => f.endsWith(".smithy"))!;
    const lines = readFileSync(join(WEATHER_MODEL, file), "utf8").split("\n");
    const lineOf = (name: string) => lines.findIndex((l) => l.startsWith(`operation ${name} `)) + 1;
    // GetCity has an example; the other three have outputs and none (in the service's order).
    expect(events.filter((e) => e.id.startsWith("CodegenFakes"))).toEqual(
      ["GetCurrentTime", "ListCities", "GetForecast"].map((name) => ({
        severity: "WARNING",
        id: NO_EXAMPLES,
        message: `operation \`example.weather#${name}\` has no @examples: its fake answers a synthesized output (add @examples for realistic answers)`,
        shapeId: `example.weather#${name}`,
        location: { file: join(WEATHER_MODEL, file), line: lineOf(name), column: 1 },
      })),
    );
  });

  it("lets @suppress and suppressions metadata silence the warning about an operation without @examples", () => {
    const dir = scratchDir("gen-suppress");
    const model = (metadata: string, trait: string) => {
      writeFileSync(
        join(dir, "s.smithy"),
        `$version: "2"\n${metadata}namespace test.ex\nuse aws.protocols#restJson1\n@restJson1\nservice S { version: "1", operations: [A, B] }\n` +
          `@http(method: "GET", uri: "/a")\n@readonly\n${trait}operation A { output := { n: Integer } }\n@http(method: "GET", uri: "/b")\n@readonly\noperation B { output := { n: Integer } }\n`,
      );
      const { events } = generate(loadOrThrow([join(dir, "s.smithy")]), { generateFakes: true });
      return events.filter((e) => e.id === NO_EXAMPLES).map((e) => [e.shapeId, e.severity]);
    };
    expect(model("", '@suppress(["CodegenFakes"])\n')).toEqual([
      ["test.ex#A", "SUPPRESSED"],
      ["test.ex#B", "WARNING"],
    ]);
    expect(model('metadata suppressions = [{ id: "CodegenFakes.NoExamples", namespace: "test.ex" }]\n', "")).toEqual([
      ["test.ex#A", "SUPPRESSED"],
      ["test.ex#B", "SUPPRESSED"],
    ]);
  });

  it("notes an example its fake leaves out, pointing to the model's warning rather than repeating it", () => {
    const file = join(scratchDir("gen-example"), "ex.smithy");
    writeFileSync(
      file,
      `$version: "2"\nnamespace test.ex\nuse aws.protocols#restJson1\n@restJson1\nservice S { version: "1", operations: [Get] }\n` +
        `@http(method: "GET", uri: "/x")\n@readonly\n@examples([{ title: "one", output: { n: "many" } }])\noperation Get { output := { n: Integer } }\n`,
    );
    const loaded = loadModel({ paths: [file] });
    expect(loaded.events.filter((e) => e.id === "ExamplesTrait").map((e) => e.message)).toEqual([
      expect.stringMatching(/^Example "one": output at n: .*`many`$/),
    ]);
    const { events } = generate(loaded.model, { generateFakes: true });
    const leftOut = events.filter((e) => e.id === "CodegenFakes" && e.shapeId === "test.ex#Get");
    expect(leftOut.map(({ severity, message }) => ({ severity, message }))).toContainEqual({
      severity: "NOTE",
      message: 'the fake of `test.ex#Get` leaves example "one" out (the ExamplesTrait warning on the operation says why)',
    });
    expect(events.some((e) => e.message.includes("many"))).toBe(false);
  });

  it("reports an unknown service, naming the ones there are", () => {
    const { files, events } = generate(loadOrThrow([WEATHER_MODEL]), { services: ["example.weather#Nope"] });
    expect(files).toEqual([]);
    expect(events[0]!.message).toBe("no service `example.weather#Nope` in the model (services: example.weather#Weather)");
  });

  it("escapes names TypeScript or the runtime takes, and renames on collision with a located warning", () => {
    const { model } = loadModel({
      sources: [
        {
          file: "names.smithy",
          text: `$version: "2.0"
namespace ex
service Svc { operations: [Op] }
operation Op { input: Promise, output: OpSchemaHolder }
structure Promise { a: PromiseSchema, b: Foo, c: FooSchema }
string PromiseSchema
structure Foo {}
enum FooSchema { A }
@output
structure OpSchemaHolder {}
`,
        },
      ],
    });
    const { files, events } = generate(model, {});
    const text = files[0]!.text;
    expect(text).toContain("export interface _Promise {");
    expect(text).toContain("export const _PromiseSchema: StructSchema<_Promise>");
    expect(text).toContain("export type PromiseSchema = string;");
    // The enum keeps its own name; the derived schema name of `Foo` gives way.
    expect(text).toContain("export const FooSchema = {");
    expect(text).toContain("export const FooSchema2: StructSchema<Foo>");
    expect(events).toEqual([
      expect.objectContaining({
        severity: "WARNING",
        id: "CodegenName",
        shapeId: "ex#Foo",
        message: "schema `FooSchema` is taken in the generated code; it is named `FooSchema2`",
        location: expect.objectContaining({ file: "names.smithy", line: 7, column: 1 }),
      }),
    ]);
    const dir = scratchDir("names");
    generateInto(dir, model, { client: true });
    expect(typeCheck(["svc.ts", "svc.server.ts", "svc.client.ts"].map((f) => join(dir, f)))).toEqual([]);
  });

  it.each([
    ["Timestamp", `"yesterday"`, "a timestamp value must be epoch seconds or RFC 3339 text"],
    ["Blob", `"!!"`, "invalid base64 blob value"],
    ["BigDecimal", `"lots"`, "a bigDecimal value must be a finite decimal number"],
  ])("reports a bad @default (%s %s) with the shape and its file:line:col", (type, value, reason) => {
    const { model } = loadModel({
      sources: [
        {
          file: "bad.smithy",
          text: `$version: "2.0"
namespace ex
service Svc { operations: [Op] }
operation Op { input := {
    when: ${type} = ${value}
} }
`,
        },
      ],
      validate: false,
    });
    const { events } = generate(model, {});
    expect(events).toContainEqual({
      severity: "ERROR",
      id: "CodegenTrait",
      message: `@default of \`ex#OpInput$when\`: ${reason}`,
      shapeId: "ex#OpInput$when",
      location: expect.objectContaining({ file: "bad.smithy", line: 5, column: 5 }),
    });
  });
});
