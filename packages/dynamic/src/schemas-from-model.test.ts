import { BigDecimal, isMemberOptional } from "@anvil/core";
import { NO_TRAITS } from "@anvil/core/protocol";
import type { EnumSchema, ListSchema, MapSchema, OperationSchema, Schema, StructSchema, UnionSchema } from "@anvil/core";
import * as core from "@anvil/core/codegenv1";
import { loadModel } from "@anvil/model";
import type { Model } from "@anvil/model";
import { describe, expect, it } from "vitest";
import { schemasFromModel } from "./index.js";

function load(text: string): Model {
  const { model, events } = loadModel({ sources: [{ file: "t.smithy", text }] });
  const errors = events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
  expect(errors.map((e) => e.message)).toEqual([]);
  return model;
}

const SHAPES = `
$version: "2"
namespace t

use alloy#discriminated
use alloy#untagged
use alloy#openEnum
use alloy#nullable
use alloy.proto#protoIndex
use alloy.proto#protoNumType

/// A city id.
@length(min: 1, max: 64)
@pattern("^[a-z]+$")
string CityId

@sensitive
string Secret

@mediaType("image/png")
blob Png

@range(min: -9223372036854775808, max: 9223372036854775807)
long BigRange

@timestampFormat("epoch-seconds")
timestamp Epoch

enum Color {
    RED
    GREEN = "green"
}

@openEnum
intEnum Level {
    LOW = 1
    HIGH = 10
}

@uniqueItems
list Names { member: String }

@sparse
list SparseNames { member: String }

map Counts { key: String, value: Integer }

@sparse
map SparseCounts { key: CityId, value: Integer }

structure Node {
    @required
    name: String
    children: NodeList
}

list NodeList { member: Node }

@discriminated("type")
union Shape {
    circle: Circle
    square: Square
    nothing: Unit
}

structure Circle { radius: Double }
structure Square { side: Double }

@untagged
union Loose { s: String, i: Integer }

structure Everything {
    @required @jsonName("the_string") @protoIndex(1)
    str: String
    bool: Boolean
    blob: Blob
    byte: Byte
    short: Short
    int: Integer
    long: Long
    float: Float
    double: Double
    bigInt: BigInteger
    bigDec: BigDecimal
    ts: Timestamp
    @timestampFormat("http-date")
    httpDate: Timestamp
    doc: Document
    color: Color
    level: Level
    names: Names
    counts: Counts
    node: Node
    shape: Shape
    city: CityId
    @clientOptional @required
    png: Png
    @nullable
    maybe: String
    @protoNumType("UNSIGNED")
    unsigned: Integer
    @deprecated
    old: String
    primitive: PrimitiveInteger = 0
}

structure Defaults {
    str: String = "hi"
    bool: Boolean = true
    byte: Byte = 1
    int: Integer = 42
    long: Long = 9007199254740993
    float: Float = 1.5
    double: Double = 2.25
    bigInt: BigInteger = 123456789012345678901234567890
    bigDec: BigDecimal = 1.25
    tsNum: Timestamp = 1700000000
    tsText: Epoch = "2020-01-02T03:04:05.678Z"
    blob: Blob = "aGVsbG8="
    // A document default is a scalar or an empty list or object (Smithy's rule).
    doc: Document = {}
    color: Color = "green"
    level: Level = 10
    names: Names = []
    counts: Counts = {}
    @addedDefault
    added: Integer = 0
}
`;

describe("schemasFromModel: enum values", () => {
  it("carry @protoIndex and @internal from their members", () => {
    const model = load(`$version: "2"
namespace t
use alloy.proto#protoIndex
enum Color {
  @protoIndex(4)
  RED = "red"
  @internal
  GREEN = "green"
}`);
    const color = schemasFromModel(model).shape("t#Color") as EnumSchema;
    expect(color.values).toEqual([
      { name: "RED", value: "red", protoIndex: 4 },
      { name: "GREEN", value: "green", internal: true },
    ]);
  });
});

describe("schemasFromModel: shapes", () => {
  const model = load(SHAPES);
  const schemas = schemasFromModel(model);

  it("caches per model and per id", () => {
    expect(schemasFromModel(model)).toBe(schemas);
    expect(schemas.shape("t#Everything")).toBe(schemas.shape("t#Everything"));
    expect(schemas.shape("t#Node")).toBe(schemas.shape("t#Node"));
    const node = schemas.shape("t#Node") as StructSchema;
    const list = node.members[1]!.target as ListSchema;
    expect(list).toBe(schemas.shape("t#NodeList"));
    expect(list.member.target).toBe(node);
  });

  it("maps prelude scalars without extra traits to the core constants", () => {
    const cases: [string, Schema][] = [
      ["smithy.api#String", core.string],
      ["smithy.api#Boolean", core.boolean],
      ["smithy.api#Blob", core.blob],
      ["smithy.api#Byte", core.byte],
      ["smithy.api#Short", core.short],
      ["smithy.api#Integer", core.integer],
      ["smithy.api#Long", core.long],
      ["smithy.api#Float", core.float],
      ["smithy.api#Double", core.double],
      ["smithy.api#BigInteger", core.bigInteger],
      ["smithy.api#BigDecimal", core.bigDecimal],
      ["smithy.api#Timestamp", core.timestamp],
      ["smithy.api#Document", core.document],
      ["smithy.api#Unit", core.unit],
    ];
    for (const [id, expected] of cases) expect(schemas.shape(id), id).toBe(expected);
  });

  it("builds prelude scalars with traits as their own scalars", () => {
    const p = schemas.shape("smithy.api#PrimitiveInteger");
    expect(p).not.toBe(core.integer);
    expect(p).toMatchObject({ kind: "integer", id: "smithy.api#PrimitiveInteger", traits: { default: 0 } });
    expect(schemas.shape("smithy.api#PrimitiveBoolean").traits.default).toBe(false);
  });

  it("builds every data shape type", () => {
    const kinds: [string, string][] = [
      ["t#CityId", "string"],
      ["t#Png", "blob"],
      ["t#BigRange", "long"],
      ["t#Epoch", "timestamp"],
      ["t#Color", "enum"],
      ["t#Level", "intEnum"],
      ["t#Names", "list"],
      ["t#Counts", "map"],
      ["t#Node", "structure"],
      ["t#Shape", "union"],
    ];
    for (const [id, kind] of kinds) expect(schemas.shape(id), id).toMatchObject({ kind, id });
  });

  it("takes enum and intEnum values from @enumValue, defaulting to the member name", () => {
    expect(schemas.shape("t#Color")).toMatchObject({
      values: [
        { name: "RED", value: "RED" },
        { name: "GREEN", value: "green" },
      ],
    });
    expect(schemas.shape("t#Level")).toMatchObject({
      values: [
        { name: "LOW", value: 1 },
        { name: "HIGH", value: 10 },
      ],
      traits: { openEnum: true },
    });
  });

  it("maps shape traits to typed fields, leaving documentation out", () => {
    expect(schemas.shape("t#CityId").traits).toEqual({ length: { min: 1, max: 64 }, pattern: "^[a-z]+$" });
    expect(schemas.shape("t#Secret").traits).toEqual({ sensitive: true });
    expect(schemas.shape("t#Png").traits).toEqual({ mediaType: "image/png" });
    expect(schemas.shape("t#Epoch").traits).toEqual({ timestampFormat: "epoch-seconds" });
    expect(schemas.shape("t#BigRange").traits).toEqual({ range: { min: -9223372036854775808n, max: 9223372036854775807n } });
    expect(schemas.shape("t#Names").traits).toEqual({ uniqueItems: true });
    expect(schemas.shape("t#SparseNames").traits).toEqual({ sparse: true });
    expect(schemas.shape("t#SparseCounts").traits).toEqual({ sparse: true });
    expect(schemas.shape("t#Shape").traits).toEqual({ discriminated: "type" });
    expect(schemas.shape("t#Loose").traits).toEqual({ untagged: true });
  });

  it("gives members their own traits, merged with the target's on access", () => {
    const s = schemas.shape("t#Everything") as StructSchema;
    const m = (name: string) => s.members.find((x) => x.name === name)!;
    expect(m("str").traits).toEqual({ required: true, jsonName: "the_string", protoIndex: 1 });
    expect(m("httpDate").traits).toEqual({ timestampFormat: "http-date" });
    expect(m("city").traits).toEqual({ length: { min: 1, max: 64 }, pattern: "^[a-z]+$" });
    expect(m("png").traits).toEqual({ required: true, clientOptional: true, mediaType: "image/png" });
    expect(isMemberOptional(m("png"), "client")).toBe(true);
    expect(isMemberOptional(m("png"), "server")).toBe(false);
    expect(m("maybe").traits).toEqual({ nullable: true });
    expect(m("unsigned").traits).toEqual({ protoNumType: "UNSIGNED" });
    // `@deprecated` is for docs and editors: read from the model, not carried.
    expect(m("old").traits).toEqual(NO_TRAITS);
    expect(m("primitive").target).toBe(schemas.shape("smithy.api#PrimitiveInteger"));
    expect(m("bool").target).toBe(core.boolean);
    expect(m("names").target).toBe(schemas.shape("t#Names"));
    expect(s.members.map((x) => x.name)).toEqual([
      "str",
      "bool",
      "blob",
      "byte",
      "short",
      "int",
      "long",
      "float",
      "double",
      "bigInt",
      "bigDec",
      "ts",
      "httpDate",
      "doc",
      "color",
      "level",
      "names",
      "counts",
      "node",
      "shape",
      "city",
      "png",
      "maybe",
      "unsigned",
      "old",
      "primitive",
    ]);
  });

  it("builds map keys and values, and union variants including Unit", () => {
    const map = schemas.shape("t#SparseCounts") as MapSchema;
    expect(map.key.name).toBe("key");
    expect(map.key.target).toBe(schemas.shape("t#CityId"));
    expect(map.value.target).toBe(core.integer);
    const u = schemas.shape("t#Shape") as UnionSchema;
    expect(u.members.map((m) => m.name)).toEqual(["circle", "square", "nothing"]);
    expect(u.members[2]!.target).toBe(core.unit);
  });

  it("converts defaults of every type to runtime values", () => {
    const s = schemas.shape("t#Defaults") as StructSchema;
    const d = Object.fromEntries(s.members.map((m) => [m.name, m.traits.default]));
    expect(d.str).toBe("hi");
    expect(d.bool).toBe(true);
    expect(d.byte).toBe(1);
    expect(d.int).toBe(42);
    expect(d.long).toBe(9007199254740993n);
    expect(d.float).toBe(1.5);
    expect(d.double).toBe(2.25);
    expect(d.bigInt).toBe(123456789012345678901234567890n);
    expect(BigDecimal.is(d.bigDec) && d.bigDec.toString()).toBe("1.25");
    expect(d.tsNum).toEqual(new Date(1_700_000_000_000));
    expect(d.tsText).toEqual(new Date("2020-01-02T03:04:05.678Z"));
    expect(d.blob).toEqual(new TextEncoder().encode("hello"));
    expect(d.doc).toEqual({});
    expect(Object.isFrozen(d.doc)).toBe(true);
    expect(d.color).toBe("green");
    expect(d.level).toBe(10);
    expect(d.names).toEqual([]);
    expect(d.counts).toEqual({});
    expect(s.members.find((m) => m.name === "added")!.traits).toEqual({ default: 0, custom: { "smithy.api#addedDefault": {} } });
    for (const m of s.members) expect(isMemberOptional(m, "server"), m.name).toBe(false);
  });

  it("turns an IDL 1.0 set into a list with uniqueItems", () => {
    const { model: m1 } = loadModel({ sources: [{ file: "s.smithy", text: `$version: "1.0"\nnamespace s\nset Tags {\n member: String\n}\n` }] });
    const tags = schemasFromModel(m1).shape("s#Tags") as ListSchema;
    expect(tags).toMatchObject({ kind: "list", id: "s#Tags", traits: { uniqueItems: true } });
    expect(tags.member.target).toBe(core.string);
  });

  it("carries @alloy#uuidFormat, also to members targeting alloy#UUID", () => {
    const m = schemasFromModel(load(`$version: "2"\nnamespace u\nstructure Ids { id: alloy#UUID }`));
    expect(m.shape("alloy#UUID").traits).toEqual({ uuidFormat: true });
    expect((m.shape("u#Ids") as StructSchema).members[0]!.traits).toEqual({ uuidFormat: true });
  });

  it("throws a message with context for unknown ids and non-data shapes", () => {
    expect(() => schemas.shape("t#Nope")).toThrow(/^schemasFromModel: `t#Nope` is not a shape/);
    expect(() => schemas.shape("smithy.api#required")).not.toThrow(); // a trait shape is still a structure
    expect(() => schemas.operation("t#Node")).toThrow(/not an operation/);
    expect(() => schemas.service("t#Node")).toThrow(/not a service/);
  });
});

const SERVICE = `
$version: "2"
namespace w

use aws.protocols#restJson1
use aws.auth#sigv4
use smithy.protocols#rpcv2Cbor

/// The weather service.
@restJson1
@rpcv2Cbor
@sigv4(name: "weather")
@httpBearerAuth
@paginated(inputToken: "nextToken", outputToken: "nextToken")
service Weather {
    version: "2024-06-01"
    operations: [GetForecast, Ping]
    resources: [City]
    errors: [ServiceUnavailable]
}

resource City {
    identifiers: { cityId: String }
    read: GetCity
    list: ListCities
    operations: [ReportCity]
}

@readonly
@http(method: "GET", uri: "/forecast/{cityId}")
@auth([sigv4])
operation GetForecast {
    input := {
        @required
        @httpLabel
        cityId: String

        @httpQuery("units")
        units: String

        @httpHeader("X-Trace")
        trace: String

        @idempotencyToken
        token: String
    }
    output := {
        @httpResponseCode
        code: Integer

        @httpPayload
        body: Blob
    }
    errors: [NoSuchCity]
}

@optionalAuth
@endpoint(hostPrefix: "{region}.")
@httpChecksumRequired
@requestCompression(encodings: ["gzip"])
@idempotent
@http(method: "PUT", uri: "/ping", code: 204)
@tags(["internal"])
@rateLimited(perMinute: 60)
@examples([{ title: "A ping" }])
@smithy.test#httpRequestTests([
    { id: "PingRequest", protocol: restJson1, method: "PUT", uri: "/ping" }
])
operation Ping {}

/// A trait of the service's own: schemas carry it, for middleware to read.
@trait(selector: "operation")
structure rateLimited {
    perMinute: Integer
}

@readonly
@http(method: "GET", uri: "/cities/{cityId}")
operation GetCity {
    input := {
        @required @httpLabel
        cityId: String
    }
    output := { name: String }
}

@readonly
@paginated(items: "cities", pageSize: "pageSize")
@http(method: "GET", uri: "/cities")
operation ListCities {
    input := {
        @httpQuery("next") nextToken: String
        @httpQuery("size") pageSize: Integer
    }
    output := {
        nextToken: String
        cities: CityList
    }
}

list CityList { member: String }

@http(method: "POST", uri: "/cities/{cityId}/report")
operation ReportCity {
    input := {
        @required @httpLabel
        cityId: String
    }
}

@error("client")
@httpError(404)
structure NoSuchCity {
    @required
    message: String
}

@error("server")
@retryable(throttling: true)
@httpError(503)
structure ServiceUnavailable {
    message: String
}

@smithy.rules#endpointRuleSet({ version: "1.0", parameters: {}, rules: [] })
@smithy.rules#endpointTests({ version: "1.0", testCases: [{ documentation: "none", expect: { error: "no rules" } }] })
service Other {
    operations: [Ping]
}
`;

describe("schemasFromModel: operations and services", () => {
  const model = load(SERVICE);
  const schemas = schemasFromModel(model);
  const weather = schemas.service("w#Weather");

  it("keys operations by lower-camel-case name, including resource operations", () => {
    expect(Object.keys(weather.operations).sort()).toEqual(["getCity", "getForecast", "listCities", "ping", "reportCity"]);
    expect(weather).toMatchObject({ kind: "service", id: "w#Weather", name: "Weather", version: "2024-06-01" });
    expect(schemas.service("w#Weather")).toBe(weather);
  });

  it("lists protocols, auth schemes, errors and every service trait", () => {
    expect(weather.protocols).toEqual(["aws.protocols#restJson1", "smithy.protocols#rpcv2Cbor"]);
    expect(weather.auth).toEqual(["aws.auth#sigv4", "smithy.api#httpBearerAuth"]);
    expect(weather.errors).toEqual([schemas.shape("w#ServiceUnavailable")]);
    // Documentation is read from the model: the runtime never needs it.
    expect(weather.traits["smithy.api#documentation"]).toBeUndefined();
    expect(weather.traits["aws.auth#sigv4"]).toEqual({ name: "weather" });
    expect(weather.traits["aws.protocols#restJson1"]).toEqual({});
  });

  it("builds operation input, output, errors (operation's then service's) and traits", () => {
    const op = weather.operations.getForecast!;
    expect(op).toMatchObject({ kind: "operation", id: "w#GetForecast", name: "GetForecast" });
    expect(op.input).toBe(schemas.shape("w#GetForecastInput"));
    expect(op.output).toBe(schemas.shape("w#GetForecastOutput"));
    expect(op.errors.map((e) => e.id)).toEqual(["w#NoSuchCity", "w#ServiceUnavailable"]);
    expect(op.traits).toEqual({ http: { method: "GET", uri: "/forecast/{cityId}", code: 200 }, readonly: true, auth: ["aws.auth#sigv4"] });
    const input = Object.fromEntries(op.input.members.map((m) => [m.name, m.traits]));
    expect(input.cityId).toMatchObject({ required: true, httpLabel: true });
    expect(input.units).toMatchObject({ httpQuery: "units" });
    expect(input.trace).toMatchObject({ httpHeader: "X-Trace" });
    expect(input.token).toMatchObject({ idempotencyToken: true });
    const output = Object.fromEntries(op.output.members.map((m) => [m.name, m.traits]));
    expect(output.code).toMatchObject({ httpResponseCode: true });
    expect(output.body).toMatchObject({ httpPayload: true });
    // `@input` marks the shape's role in the model; no runtime reads it.
    expect(op.input.traits.custom).toBeUndefined();
  });

  it("maps the remaining operation traits, and Unit input and output to the core unit", () => {
    const ping = weather.operations.ping!;
    expect(ping.input).toBe(core.unit);
    expect(ping.output).toBe(core.unit);
    expect(ping.traits).toEqual({
      http: { method: "PUT", uri: "/ping", code: 204 },
      idempotent: true,
      endpointHostPrefix: "{region}.",
      httpChecksumRequired: true,
      requestCompression: ["gzip"],
      optionalAuth: true,
      custom: { "w#rateLimited": { perMinute: 60 } },
    });
  });

  it("leaves examples, tags and test cases out: they are read from the model", () => {
    const ping = weather.operations.ping!;
    expect(model.getShape("w#Ping")!.traits.has("smithy.test#httpRequestTests")).toBe(true);
    expect(model.getShape("w#Ping")!.traits.has("smithy.api#tags")).toBe(true);
    expect(Object.keys(ping.traits.custom ?? {})).toEqual(["w#rateLimited"]);
    // The endpoint rules are carried, their test cases (most of an AWS model's size) are not.
    expect(Object.keys(schemas.service("w#Other").traits)).toEqual(["smithy.rules#endpointRuleSet"]);
  });

  it("merges @paginated with the service's", () => {
    expect(weather.operations.listCities!.traits.paginated).toEqual({
      inputToken: "nextToken",
      outputToken: "nextToken",
      items: "cities",
      pageSize: "pageSize",
    });
  });

  it("shares operation schemas between service(), operation(id, service) and operation(id) when one service binds it", () => {
    expect(schemas.operation("w#GetForecast")).toBe(weather.operations.getForecast);
    expect(schemas.operation("w#GetForecast", "w#Weather")).toBe(weather.operations.getForecast);
    // Ping is bound by two services: without one, it carries no service errors.
    const bare = schemas.operation("w#Ping");
    expect(bare.errors).toEqual([]);
    expect(schemas.operation("w#Ping", "w#Other")).toBe(schemas.service("w#Other").operations.ping);
    expect(weather.operations.ping!.errors.map((e) => e.id)).toEqual(["w#ServiceUnavailable"]);
  });

  it("maps error traits", () => {
    expect(schemas.shape("w#NoSuchCity").traits).toEqual({ error: "client", httpError: 404 });
    expect(schemas.shape("w#ServiceUnavailable").traits).toEqual({ error: "server", httpError: 503, retryable: { throttling: true } });
  });

  it("lists every service of the model", () => {
    expect(schemas.services().map((s) => s.id)).toEqual(["w#Weather", "w#Other"]);
    expect(schemas.services()[0]).toBe(weather);
  });
});

describe("schemasFromModel: operation key collisions", () => {
  it("keeps the shape name when the lower-camel-case key is taken", () => {
    const model = load(`
$version: "2"
namespace c
service S { operations: [getThing, GetThing] }
operation getThing {}
operation GetThing {}
`);
    const ops = schemasFromModel(model).service("c#S").operations as Record<string, OperationSchema>;
    expect(Object.keys(ops)).toEqual(["getThing", "GetThing"]);
    expect(ops.GetThing!.id).toBe("c#GetThing");
  });
});

describe("schemasFromModel: mixins and removed defaults", () => {
  it("includes mixin members and honours @default(null)", () => {
    const model = load(`
$version: "2"
namespace m

@mixin
structure Stamped {
    @required
    createdAt: Timestamp
}

structure Item with [Stamped] {
    name: String
    count: PrimitiveInteger = null
}
`);
    const item = schemasFromModel(model).shape("m#Item") as StructSchema;
    expect(item.members.map((x) => x.name)).toEqual(["createdAt", "name", "count"]);
    expect(item.members[0]!.traits).toEqual({ required: true });
    // The member removes the target's default: no default on the member itself; the target keeps its own.
    const count = item.members[2]!;
    expect(count.target).toBe(schemasFromModel(model).shape("smithy.api#PrimitiveInteger"));
    expect(count.target.traits.default).toBe(0);
    expect(count.traits.default).toBeUndefined();
    expect(isMemberOptional(count, "server")).toBe(true);
  });
});

describe("schemasFromModel: remaining trait mappings", () => {
  const { model } = loadModel({
    validate: false,
    sources: [
      {
        file: "r.smithy",
        text: `
$version: "2"
namespace r

use alloy#jsonUnknown
use alloy.proto#protoInlinedOneOf
use alloy.proto#protoWrapped

@streaming
union Events { tick: Tick }

structure Tick {
    @eventHeader id: String
    @eventPayload body: Blob
}

@streaming
@requiresLength
blob Upload

map StringMap { key: String, value: String }
map Unknowns { key: String, value: Document }

@protoInlinedOneOf
union OneOf { a: String }

structure In {
    @required @hostLabel region: String
    @httpPrefixHeaders("x-m-") meta: StringMap
    @httpQueryParams params: StringMap
    @jsonUnknown rest: Unknowns
    @protoWrapped wrapped: String
    @myTrait(level: 3) custom: String
}

@trait
structure myTrait { level: Integer }
`,
      },
    ],
  });
  const schemas = schemasFromModel(model);

  it.each<[string, string | undefined, object]>([
    ["r#Events", undefined, { streaming: true }],
    ["r#Tick", "id", { eventHeader: true }],
    ["r#Tick", "body", { eventPayload: true }],
    ["r#Upload", undefined, { streaming: true, requiresLength: true }],
    ["r#OneOf", undefined, { protoInlinedOneOf: true }],
    ["r#In", "region", { required: true, hostLabel: true }],
    ["r#In", "meta", { httpPrefixHeaders: "x-m-" }],
    ["r#In", "params", { httpQueryParams: true }],
    ["r#In", "rest", { jsonUnknown: true }],
    ["r#In", "wrapped", { protoWrapped: true }],
    ["r#In", "custom", { custom: { "r#myTrait": { level: 3 } } }],
  ])("%s %s", (id, memberName, expected) => {
    const s = schemas.shape(id);
    const traits = memberName === undefined ? s.traits : (s as StructSchema).members.find((m) => m.name === memberName)!.traits;
    expect(traits).toEqual(expected);
  });
});

describe("schemasFromModel: enum visibility and 1.0 enums", () => {
  it("marks @internal enum members, and reads 1.0 @enum strings as enums", () => {
    const model = loadModel({
      sources: [
        { file: "v2.smithy", text: `$version: "2"\nnamespace t\nenum E {\n  A\n  @internal\n  B\n}` },
        { file: "v1.smithy", text: `$version: "1.0"\nnamespace t\n@enum([{value: "x", name: "X"}, {value: "y", tags: ["internal"]}])\nstring Legacy` },
      ],
    }).model;
    const schemas = schemasFromModel(model);
    expect(schemas.shape("t#E")).toMatchObject({
      kind: "enum",
      values: [
        { name: "A", value: "A" },
        { name: "B", value: "B", internal: true },
      ],
    });
    expect(schemas.shape("t#Legacy")).toMatchObject({
      kind: "enum",
      values: [
        { name: "X", value: "x" },
        { name: "y", value: "y", internal: true },
      ],
    });
  });
});
