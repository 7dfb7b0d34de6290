import { describe, expect, it } from "vitest";
import { loadModel, type ValidationEvent } from "../index.js";
import { IGNORED_ALLOY_TRAIT, SIMPLE_REST_JSON_STREAMING } from "./rest-json-rules.js";

/** Loads one IDL file (line 1 is `$version`, so the text's first line is line 2). */
const load = (text: string) => loadModel({ sources: [{ file: "svc.smithy", text: `$version: "2.0"\n${text}` }] }).events;
const withId = (events: readonly ValidationEvent[], id: string) =>
  events
    .filter((e) => e.id === id)
    .map((e) => ({ severity: e.severity, shapeId: e.shapeId, at: `${e.location?.file}:${e.location?.line}:${e.location?.column}` }));

const USES = `namespace ex
use alloy#simpleRestJson
use alloy#discriminated
use alloy#untagged
use alloy#jsonUnknown
use aws.protocols#restJson1
use aws.protocols#awsJson1_1
`;

describe("AnvilSimpleRestJson.Streaming: simpleRestJson defines no streaming", () => {
  const OPERATIONS = `@http(method: "PUT", uri: "/upload")
operation Upload {
    input := {
        @httpPayload
        body: Body
    }
}
@http(method: "GET", uri: "/watch")
operation Watch {
    output := {
        @httpPayload
        events: Events
    }
}
@http(method: "POST", uri: "/nested")
operation Nested {
    input := { wrapper: Wrapper }
}
structure Wrapper {
    inner: Body
}
@streaming
blob Body
@streaming
union Events {
    tick: Tick
}
structure Tick {}
`;

  it.each([
    ["alone", "@simpleRestJson"],
    ["beside restJson1", "@restJson1 @simpleRestJson"],
  ])("is an error at each member reaching a @streaming blob or union, %s", (_name, protocols) => {
    const events = load(`${USES}${protocols}\nservice S { operations: [Upload, Watch, Nested] }\n${OPERATIONS}`);
    expect(withId(events, SIMPLE_REST_JSON_STREAMING)).toEqual([
      { severity: "ERROR", shapeId: "ex#UploadInput$body", at: "svc.smithy:15:9" },
      { severity: "ERROR", shapeId: "ex#WatchOutput$events", at: "svc.smithy:22:9" },
      { severity: "ERROR", shapeId: "ex#Wrapper$inner", at: "svc.smithy:30:5" },
    ]);
    const messages = events.filter((e) => e.id === SIMPLE_REST_JSON_STREAMING).map((e) => e.message);
    expect(messages[0]).toMatch(
      /^Operation `ex#Upload` streams: its input member `body` targets the @streaming blob `ex#Body`, but service `ex#S` declares alloy#simpleRestJson, which defines no streaming.*: move the operation to a service without @simpleRestJson/,
    );
    expect(messages[1]).toContain("its output member `events` targets the @streaming union (an event stream) `ex#Events`");
    expect(messages[2]).toContain("its member `ex#Wrapper$inner`, reached from its input, targets the @streaming blob `ex#Body`");
    expect(messages.every((m) => m.includes("restJson1, which the service also declares") === protocols.includes("restJson1"))).toBe(true);
  });

  it("says nothing of a restJson1 service, nor of a simpleRestJson service without streaming", () => {
    const events = load(
      `${USES}@restJson1\nservice Streams { operations: [Upload, Watch, Nested] }\n@simpleRestJson\nservice Plain { operations: [Ping] }\n@http(method: "GET", uri: "/ping")\noperation Ping { output := { body: Blob } }\n${OPERATIONS}`,
    );
    expect(withId(events, SIMPLE_REST_JSON_STREAMING)).toEqual([]);
    expect(events.filter((e) => e.severity === "ERROR")).toEqual([]);
  });

  it("reports a member shared by several operations once per service", () => {
    const events = load(`${USES}@simpleRestJson\nservice S { operations: [Put1, Put2] }
@http(method: "PUT", uri: "/1")
operation Put1 { input: Shared }
@http(method: "PUT", uri: "/2")
operation Put2 { input: Shared }
@input
structure Shared { @httpPayload body: Body }
@streaming
blob Body`);
    expect(withId(events, SIMPLE_REST_JSON_STREAMING).map((e) => e.shapeId)).toEqual(["ex#Shared$body"]);
  });
});

describe("AnvilRestJson1.IgnoredAlloyTrait: alloy JSON traits on shapes only restJson1 services use", () => {
  const SHAPES = `@http(method: "POST", uri: "/draw")
operation Draw {
    input := {
        shape: Shape
        loose: Loose
        either: Either
    }
}
@discriminated("kind")
union Shape {
    circle: Circle
}
structure Circle {}
structure Loose {
    @jsonUnknown
    extra: Extra
}
map Extra {
    key: String
    value: Document
}
@untagged
union Either {
    n: Integer
    s: String
}
`;

  it("warns at each trait-bearing shape or member, naming it and suggesting simpleRestJson", () => {
    const events = load(`${USES}@restJson1\n@awsJson1_1\nservice Api { operations: [Draw] }\n${SHAPES}`);
    expect(withId(events, IGNORED_ALLOY_TRAIT).sort((a, b) => a.at.localeCompare(b.at))).toEqual([
      { severity: "WARNING", shapeId: "ex#Shape", at: "svc.smithy:21:1" },
      { severity: "WARNING", shapeId: "ex#Loose$extra", at: "svc.smithy:27:5" },
      { severity: "WARNING", shapeId: "ex#Either", at: "svc.smithy:34:1" },
    ]);
    const message = events.find((e) => e.id === IGNORED_ALLOY_TRAIT && e.shapeId === "ex#Shape")!.message;
    expect(message).toBe(
      "`ex#Shape` has @alloy#discriminated, which only alloy#simpleRestJson honours: service `ex#Api`, which uses it, declares restJson1 and not simpleRestJson, " +
        "so the trait has no effect (restJson1 writes and reads the union as an object keyed by the member name, without a discriminator field). " +
        "Declare @simpleRestJson on the service (beside or instead of restJson1) for alloy's JSON, or remove the trait",
    );
    expect(events.filter((e) => e.severity === "ERROR")).toEqual([]);
  });

  it.each([
    ["the service declares simpleRestJson too", `@restJson1 @simpleRestJson\nservice Api { operations: [Draw] }`],
    ["a simpleRestJson service uses the shapes too", `@restJson1\nservice Api { operations: [Draw] }\n@simpleRestJson\nservice Simple { operations: [Draw] }`],
    ["the service declares no restJson1", `@awsJson1_1\nservice Api { operations: [Draw] }`],
    ["no service uses the shapes", `@restJson1\nservice Api {}`],
  ])("says nothing when %s", (_name, services) => {
    expect(withId(load(`${USES}${services}\n${SHAPES}`), IGNORED_ALLOY_TRAIT)).toEqual([]);
  });

  it("names every restJson1-only service using the shape, and is suppressible", () => {
    const two = load(`${USES}@restJson1\nservice A { operations: [Draw] }\n@restJson1\nservice B { operations: [Draw] }\n${SHAPES}`);
    expect(two.find((e) => e.id === IGNORED_ALLOY_TRAIT)!.message).toContain("services `ex#A`, `ex#B`, which use it, declare restJson1");
    const suppressed = load(
      `metadata suppressions = [{ id: "AnvilRestJson1", namespace: "ex" }]\n${USES}@restJson1\nservice A { operations: [Draw] }\n${SHAPES}`,
    );
    expect(suppressed.filter((e) => e.id === IGNORED_ALLOY_TRAIT).map((e) => e.severity)).toEqual(["SUPPRESSED", "SUPPRESSED", "SUPPRESSED"]);
  });
});
