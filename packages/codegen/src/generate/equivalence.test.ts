/**
 * Generated schema constants must be the schemas `@anvil/dynamic` builds from
 * the same model, so codecs and protocols treat generated and dynamic
 * services alike. This imports the generated modules and compares every
 * schema reachable from each service, field by field, for the example, the
 * rich fixture and the protocol test models of the conformance corpus.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BigDecimal, type MemberSchema, type OperationSchema, type Schema, type ServiceSchema } from "@anvil/core";
import * as builders from "@anvil/core/codegenv1";
import { schemasFromModel } from "@anvil/dynamic";
import { serviceFakeTables } from "../serve.js";
import { EXAMPLE_MODEL, generateInto, loadOrThrow, PACKAGE_ROOT, RICH_MODEL, scratchDir, typeCheck } from "./test-support.js";

const SHARED = new Set<unknown>(Object.values(builders));

/** A plain, comparable picture of a runtime value (trait values, defaults). */
function plain(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.getTime() };
  if (value instanceof Uint8Array) return { $bytes: [...value], frozen: Object.isFrozen(value) };
  if (BigDecimal.is(value)) return { $decimal: value.toString() };
  if (typeof value === "bigint") return { $bigint: value.toString() };
  if (typeof value === "number" && Number.isNaN(value)) return { $nan: true };
  if (Array.isArray(value)) return { $array: value.map(plain), frozen: Object.isFrozen(value) };
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = plain((value as Record<string, unknown>)[key]);
    return { $object: out, frozen: Object.isFrozen(value) };
  }
  return value;
}

/** Traits without the frozen flag at their top level: trait objects themselves need not be frozen. */
function traits(value: object): unknown {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    out[key] = key === "default" ? plain(v) : strip(plain(v));
  }
  return out;
}

/** Drops `frozen` marks (outside defaults, frozenness is not part of the contract). */
function strip(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const v = value as { $array?: unknown[]; $object?: Record<string, unknown> };
  if (v.$array) return { $array: v.$array.map(strip) };
  if (v.$object) return { $object: Object.fromEntries(Object.entries(v.$object).map(([k, x]) => [k, strip(x)])) };
  return value;
}

function memberPicture(m: MemberSchema): unknown {
  return { name: m.name, target: m.target.id, shared: SHARED.has(m.target), traits: traits(m.traits) };
}

/** Every data schema reachable from a service, by id. */
function shapesOf(service: ServiceSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const visit = (s: Schema) => {
    if (Object.hasOwn(out, s.id)) return;
    const picture: Record<string, unknown> = { kind: s.kind, traits: traits(s.traits), shared: SHARED.has(s) };
    out[s.id] = picture;
    let members: readonly MemberSchema[] = [];
    if (s.kind === "structure" || s.kind === "union") members = s.members;
    else if (s.kind === "list") members = [s.member];
    else if (s.kind === "map") members = [s.key, s.value];
    if (s.kind === "enum" || s.kind === "intEnum") picture.values = s.values.map((v) => ({ ...v }));
    picture.members = members.map(memberPicture);
    for (const m of members) visit(m.target);
  };
  for (const op of Object.values(service.operations)) {
    visit(op.input);
    visit(op.output);
    op.errors.forEach(visit);
  }
  service.errors.forEach(visit);
  return out;
}

function operationPicture(op: OperationSchema): unknown {
  return { id: op.id, name: op.name, input: op.input.id, output: op.output.id, errors: op.errors.map((e) => e.id), traits: traits(op.traits) };
}

/** The picture of a service: its fields, operations and every data schema it reaches. */
function servicePicture(s: ServiceSchema): unknown {
  const operations: Record<string, unknown> = {};
  for (const [key, op] of Object.entries(s.operations)) operations[key] = operationPicture(op);
  return {
    id: s.id,
    name: s.name,
    version: s.version,
    protocols: [...s.protocols],
    auth: [...s.auth],
    errors: s.errors.map((e) => e.id),
    traits: traits(s.traits),
    operations,
    shapes: shapesOf(s),
  };
}

/** The service descriptor a generated service file exports, not its base (the same service without operations). */
function serviceExport(generated: Record<string, unknown>): ServiceSchema | undefined {
  const services = Object.entries(generated).filter(([, v]) => (v as ServiceSchema | undefined)?.kind === "service");
  return (services.find(([name]) => !name.endsWith("Base")) ?? services[0])?.[1] as ServiceSchema | undefined;
}

describe("generated schemas equal @anvil/dynamic's", () => {
  it.each([
    ["the example model", EXAMPLE_MODEL, { "example.weather#Weather": "weather.ts" }],
    ["the rich fixture", RICH_MODEL, { "test.store#Store": "store.ts", "test.other#Gadgets": "gadgets.ts" }],
  ])("for %s", async (_name, path, services: Record<string, string>) => {
    const model = loadOrThrow([path]);
    const dir = scratchDir("equivalence");
    generateInto(dir, model, { server: false });
    const dynamic = schemasFromModel(model);
    for (const [id, file] of Object.entries(services)) {
      const generated = (await import(join(dir, file))) as Record<string, unknown>;
      const descriptor = serviceExport(generated);
      expect(descriptor?.id).toBe(id);
      expect(servicePicture(descriptor!)).toStrictEqual(servicePicture(dynamic.service(id)));
      // Its base is the same service without operations, which the descriptor is built from.
      const base = generated[`${descriptor!.name}Base`] as ServiceSchema;
      expect(base.operations).toEqual({});
      expect({ ...base, operations: descriptor!.operations, errors: base.errors }).toStrictEqual({ ...descriptor, errors: descriptor!.errors });
    }
  });

  it("shares the core's prelude schemas and builds each declared schema once", async () => {
    const dir = scratchDir("identity");
    generateInto(dir, loadOrThrow([RICH_MODEL]), { server: false });
    const shapes = (await import(join(dir, "test.store.shapes.ts"))) as Record<string, any>;
    const store = (await import(join(dir, "store.ts"))) as Record<string, any>;
    expect(shapes.PingOutputSchema.members[0].target).toBe(builders.boolean);
    expect(shapes.TreeSchema.members[1].target).toBe(shapes.ForestSchema);
    expect(shapes.ForestSchema.member.target).toBe(shapes.TreeSchema);
    expect(store.Store.operations.getItem.errors).toContain(shapes.NotFoundSchema);
    expect(new shapes.NotFound({ message: "gone" })).toBeInstanceOf(builders.errorClass(shapes.NotFoundSchema));
  });

  it("declares a shape two services use once: one schema, one error class", async () => {
    const dir = scratchDir("shared");
    generateInto(dir, loadOrThrow([EXAMPLE_MODEL]), { server: false });
    const weather = (await import(join(dir, "weather.ts"))) as Record<string, any>;
    const grpc = (await import(join(dir, "weather-grpc.ts"))) as Record<string, any>;
    const shapes = (await import(join(dir, "example.weather.shapes.ts"))) as Record<string, any>;
    expect(grpc.WeatherGrpc.operations.getCity.output).toBe(weather.Weather.operations.getCity.output);
    expect(grpc.WeatherGrpc.operations.getCity.errors).toContain(shapes.NoSuchCitySchema);
    expect(weather.Weather.operations.getCity.errors).toContain(shapes.NoSuchCitySchema);
  });
});

// Real-world models: the Smithy and alloy protocol test models of the shared
// conformance corpus (when it is present). Every service generates without
// errors (fakes included), type-checks, its schemas equal `@anvil/dynamic`'s,
// and its generated fake tables equal those `anvil serve --fake` builds.
const corpus = process.env.ANVIL_CORPUS || join(PACKAGE_ROOT, "..", "..", "..", "shared", "conformance");
const aws = join(corpus, "protocol-tests", "smithy-aws-protocol-tests", "model");
const smithy = join(corpus, "protocol-tests", "smithy-protocol-tests", "model");

function smithyFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => (statSync(join(dir, f)).isDirectory() ? smithyFiles(join(dir, f)) : f.endsWith(".smithy") ? [join(dir, f)] : []));
}

const suites: [string, () => string[]][] = [
  ["aws restJson1", () => [join(aws, "restJson1"), join(aws, "shared-types.smithy"), join(aws, "aws-config.smithy")]],
  ["aws awsJson1_0", () => [join(aws, "awsJson1_0"), join(aws, "shared-types.smithy"), join(aws, "aws-config.smithy")]],
  ["aws awsJson1_1", () => [join(aws, "awsJson1_1"), join(aws, "shared-types.smithy"), join(aws, "aws-config.smithy")]],
  ["smithy rpcv2Cbor", () => [join(smithy, "rpcv2Cbor"), join(smithy, "shared-types.smithy")]],
  ["alloy simpleRestJson", () => smithyFiles(join(corpus, "protocol-tests", "alloy"))],
];

describe.skipIf(!existsSync(aws))(`protocol test models of the corpus (skipped when ${corpus} is absent)`, () => {
  it.each(suites)(
    "%s: generates, type-checks and matches dynamic schemas",
    async (_name, paths) => {
      const model = loadOrThrow(paths());
      const dir = scratchDir("corpus");
      const { files, events } = generateInto(dir, model, { client: true, generateFakes: true });
      expect(events.filter((e) => e.severity === "ERROR")).toEqual([]);
      expect(files.length).toBeGreaterThan(0);
      expect(typeCheck(files.map((f) => join(dir, f.path)))).toEqual([]);
      const dynamic = schemasFromModel(model);
      // The fake tables compiled into code are the ones `anvil serve --fake` builds from the model.
      expect(files.some((f) => f.path.endsWith(".fakes.ts"))).toBe(true);
      for (const f of files.filter((x) => x.path.endsWith(".fakes.ts"))) {
        const generated = (await import(join(dir, f.path))) as Record<string, unknown>;
        const tables = Object.entries(generated).find(([name]) => name.endsWith("Fakes"))![1];
        expect(strip(plain(tables))).toStrictEqual(strip(plain(serviceFakeTables(model, dynamic.service(f.service!)))));
      }
      for (const f of files.filter((x) => x.service !== undefined && !/\.(server|client|fakes)\.ts$/.test(x.path))) {
        const generated = (await import(join(dir, f.path))) as Record<string, unknown>;
        const descriptor = serviceExport(generated)!;
        expect(servicePicture(descriptor)).toStrictEqual(servicePicture(dynamic.service(f.service!)));
      }
    },
    180_000,
  );
});
