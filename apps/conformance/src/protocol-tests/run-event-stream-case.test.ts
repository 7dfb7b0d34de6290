import { describe, expect, it } from "vitest";
import type { ClientProtocol, HttpResponse, ServerProtocol } from "@anvil/core";
import { encodeEventMessage } from "@anvil/eventstream";
import { loadModel, type Model } from "@anvil/model";
import { restJson1 } from "@anvil/protocol-restjson";
import { extractProtocolTests, type EventStreamCase } from "./cases.js";
import { messageProblems, runClientEventStreamCase, runServerEventStreamCase } from "./run-event-stream-case.js";

// A frame the "bytes" cases carry, made with our own encoder.
const PING_BYTES = Buffer.from(
  encodeEventMessage({
    headers: { ":message-type": { type: "string", value: "event" }, ":event-type": { type: "string", value: "ping" }, seq: { type: "integer", value: 7 } },
    body: new Uint8Array(0),
  }),
).toString("base64");

const IDL = String.raw`
$version: "2.0"
namespace test.streams

use aws.protocols#restJson1
use smithy.test#eventStreamTests

@restJson1
service Chat {
    operations: [Talk]
}

@http(method: "POST", uri: "/talk")
@eventStreamTests([
    {
        id: "SendsAndReads"
        protocol: restJson1
        initialRequestParams: { room: "r1" }
        initialRequest: { method: "POST", uri: "/talk", headers: { "x-room": "r1" } }
        events: [
            {
                type: "request"
                params: { say: { who: "ann", text: "hi" } }
                headers: { ":message-type": { string: "event" }, ":event-type": { string: "say" }, who: { string: "ann" } }
                forbidHeaders: ["seq"]
                requireHeaders: [":content-type"]
                body: "hi"
                bodyMediaType: "text/plain"
            }
        ]
    }
    {
        id: "ReadsBytes"
        protocol: restJson1
        initialResponseParams: { topic: "t" }
        initialResponse: { code: 200, headers: { "x-topic": "t" } }
        events: [
            {
                type: "response"
                params: { ping: { seq: 7 } }
                headers: { ":message-type": { string: "event" }, ":event-type": { string: "ping" }, seq: { integer: 7 } }
                bytes: "${PING_BYTES}"
            }
        ]
    }
    {
        id: "RejectsTheError"
        protocol: restJson1
        events: [
            {
                type: "response"
                params: { rude: { message: "no" } }
                headers: { ":message-type": { string: "exception" }, ":exception-type": { string: "rude" }, ":content-type": { string: "application/json" } }
                body: "{\"message\":\"no\"}"
                bodyMediaType: "application/json"
            }
        ]
        expectation: { failure: { errorId: Rude } }
        appliesTo: "client"
    }
    {
        id: "RejectsNoMessageType"
        protocol: restJson1
        events: [
            {
                type: "request"
                headers: { ":event-type": { string: "ping" } }
            }
        ]
        expectation: { failure: {} }
        appliesTo: "server"
    }
])
operation Talk {
    input := {
        @httpHeader("x-room")
        room: String

        @httpPayload
        lines: Lines
    }
    output := {
        @httpHeader("x-topic")
        topic: String

        @httpPayload
        lines: Lines
    }
}

@streaming
union Lines {
    say: Say
    ping: Ping
    rude: Rude
}

structure Say {
    @eventHeader
    who: String

    @eventPayload
    text: String
}

structure Ping {
    @eventHeader
    seq: Integer
}

@error("client")
structure Rude {
    message: String
}
`;

function load(): Model {
  const { model, events } = loadModel({ sources: [{ file: "chat.smithy", text: IDL }] });
  const errors = events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join("\n"));
  return model;
}

const model = load();
const cases = new Map(extractProtocolTests(model).cases.map((c) => [c.id, c as EventStreamCase]));
const caseNamed = (id: string): EventStreamCase => cases.get(id)!;
const { client, server } = restJson1();

describe("event-stream cases against restJson1", () => {
  it.each([["SendsAndReads"], ["ReadsBytes"], ["RejectsTheError"]])("client: %s passes", async (id) => {
    expect(await runClientEventStreamCase(client, model, caseNamed(id))).toEqual([]);
  });

  it.each([["SendsAndReads"], ["ReadsBytes"], ["RejectsNoMessageType"]])("server: %s passes", async (id) => {
    expect(await runServerEventStreamCase(server, model, caseNamed(id))).toEqual([]);
  });
});

describe("event-stream cases find what is wrong", () => {
  it("a written event that differs from the case's headers and body", async () => {
    const wrong: ServerProtocol = {
      ...server,
      async serializeResponse(operation, output, context) {
        const o = output as Record<string, unknown>;
        async function* changed() {
          for await (const e of o["lines"] as AsyncIterable<{ $case: string; value: Record<string, unknown> }>) yield { ...e, value: { seq: 8 } };
        }
        return server.serializeResponse(operation, { ...o, lines: changed() }, context);
      },
    };
    expect(await runServerEventStreamCase(wrong, model, caseNamed("ReadsBytes"))).toEqual(["response message 0 header seq: expected integer 7, got integer 8"]);
  });

  it("an initial response read differently", async () => {
    const wrong: ClientProtocol = {
      ...client,
      async deserializeResponse(operation, response: HttpResponse, context) {
        const output = (await client.deserializeResponse(operation, response, context)) as Record<string, unknown>;
        return { ...output, topic: "other" };
      },
    };
    const problems = await runClientEventStreamCase(wrong, model, caseNamed("ReadsBytes"));
    expect(problems).toEqual(['initial response /topic: expected "t", got "other"']);
  });

  it("a failure case that succeeds", async () => {
    const c = { ...caseNamed("RejectsTheError"), expectation: { failure: { errorId: "test.streams#Rude" } } } as EventStreamCase;
    const lenient: ClientProtocol = {
      ...client,
      async deserializeResponse() {
        return { lines: (async function* () {})() };
      },
    };
    expect(await runClientEventStreamCase(lenient, model, c)).toEqual([
      "expected a failure (test.streams#Rude), got success with: response stream: expected 1 events, got 0",
    ]);
  });

  it("a failure with another error than the case names, or an untyped one", async () => {
    const c = { ...caseNamed("RejectsTheError"), expectation: { failure: { errorId: "test.streams#Other" } } } as EventStreamCase;
    expect(await runClientEventStreamCase(client, model, c)).toEqual(["expected the error test.streams#Other, got Rude: no"]);
    const crashing: ClientProtocol = {
      ...client,
      async deserializeResponse() {
        throw new TypeError("oops");
      },
    };
    expect(await runClientEventStreamCase(crashing, model, caseNamed("RejectsTheError"))).toEqual(["expected a typed error, got TypeError: oops"]);
  });

  it("message checks: typed header values, forbidden and required names, the body", () => {
    const event = caseNamed("SendsAndReads").events[0]!;
    const problems = messageProblems(event, {
      headers: {
        ":message-type": { type: "string", value: "event" },
        ":event-type": { type: "string", value: "say" },
        who: { type: "binary", value: Uint8Array.of(1) },
        seq: { type: "integer", value: 1 },
      },
      body: new TextEncoder().encode("bye"),
    });
    expect(problems).toEqual([
      "header who: expected string ann, got binary 0x01",
      "header seq: forbidden, present",
      "header :content-type: required, missing",
      'body: expected "hi", got "bye"',
    ]);
  });
});
