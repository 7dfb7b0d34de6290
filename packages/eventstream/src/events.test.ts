import { describe, expect, it } from "vitest";
import { errorClass, ModeledError, SerializationError, type UnionValue, UnmodeledError, ValidationError } from "@anvil/core";
import { compileEventStream } from "./events.js";
import type { EventHeaderValue, EventMessage } from "./message.js";
import { Overheated, plainJson, Telemetry } from "./test-fixtures.js";

const serde = compileEventStream(Telemetry, plainJson);
const utf8 = new TextEncoder();
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const s = (value: string): EventHeaderValue => ({ type: "string", value });

describe("compileEventStream", () => {
  it("is compiled once per union and payload codec", () => {
    expect(compileEventStream(Telemetry, plainJson)).toBe(serde);
  });

  it("writes @eventHeader members as typed headers after the framing headers, with no body", () => {
    const at = new Date(1730384114000);
    const message = serde.encode({
      $case: "reading",
      value: { flag: true, tiny: 1, small: 2, count: 3, big: 4294967294, tag: utf8.encode("foo"), label: "L", at },
    });
    expect(message.headers).toEqual({
      ":message-type": s("event"),
      ":event-type": s("reading"),
      flag: { type: "boolean", value: true },
      tiny: { type: "byte", value: 1 },
      small: { type: "short", value: 2 },
      count: { type: "integer", value: 3 },
      big: { type: "long", value: 4294967294 },
      tag: { type: "binary", value: utf8.encode("foo") },
      label: s("L"),
      at: { type: "timestamp", value: at },
    });
    expect(Object.keys(message.headers).slice(0, 2)).toEqual([":message-type", ":event-type"]);
    expect(message.body.byteLength).toBe(0);
  });

  it.each<[string, UnionValue, string, string]>([
    ["a blob payload as raw bytes", { $case: "chunk", value: { data: utf8.encode("bar") } }, "application/octet-stream", "bar"],
    ["a string payload as UTF-8 text", { $case: "note", value: { text: "hi" } }, "text/plain", "hi"],
    ["a structure payload with the codec", { $case: "located", value: { source: "s", point: { x: 1, y: 2 } } }, "application/json", '{"x":1,"y":2}'],
    [
      "the members that are not headers as one structure",
      { $case: "loose", value: { source: "s", note: "n", n: 1 } },
      "application/json",
      '{"note":"n","n":1}',
    ],
  ])("writes %s", (_label, event, contentType, body) => {
    const message = serde.encode(event);
    expect(message.headers[":content-type"]).toEqual(s(contentType));
    expect(text(message.body)).toBe(body);
  });

  it("writes an @error variant as an exception message", () => {
    const message = serde.encode({ $case: "overheated", value: { message: "hot", celsius: 90 } });
    expect(message.headers).toEqual({ ":message-type": s("exception"), ":exception-type": s("overheated"), ":content-type": s("application/json") });
    expect(JSON.parse(text(message.body))).toEqual({ message: "hot", celsius: 90 });
  });

  it.each<[string, UnionValue]>([
    ["headers", { $case: "reading", value: { flag: false, big: 2n ** 60n, at: new Date(0) } }],
    ["a blob payload", { $case: "chunk", value: { data: utf8.encode("bytes") } }],
    ["a string payload", { $case: "note", value: { text: "hi" } }],
    ["a header and a structure payload", { $case: "located", value: { source: "s", point: { x: 1, y: 2 } } }],
    ["a header and implicit payload members", { $case: "loose", value: { source: "s", note: "n", n: 1 } }],
    ["an empty event", { $case: "note", value: {} }],
  ])("reads back what it writes: %s", (_label, event) => {
    expect(serde.decode(serde.encode(event))).toEqual(event);
  });

  it("reads an exception message as the modeled error, an instance of its class", () => {
    const message = serde.encode({ $case: "overheated", value: { message: "hot", celsius: 90 } });
    const error = catchError(() => serde.decode(message));
    expect(error).toBeInstanceOf(errorClass(Overheated));
    expect(error).toMatchObject({ message: "hot", celsius: 90, $shapeId: "test.events#Overheated" });
  });

  it("reads an error message as an UnmodeledError with its code and message", () => {
    const error = catchError(() => serde.decode(msg({ ":message-type": s("error"), ":error-code": s("internal-error"), ":error-message": s("boom") })));
    expect(UnmodeledError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: "internal-error", message: "boom" });
  });

  it("reads an exception the union does not name as an UnmodeledError", () => {
    const error = catchError(() => serde.decode(msg({ ":message-type": s("exception"), ":exception-type": s("reading") })));
    expect(UnmodeledError.is(error)).toBe(true);
    expect((error as UnmodeledError).code).toBe("reading");
  });

  it("reads an event the union does not name as the $unknown variant", () => {
    const message = msg({ ":message-type": s("event"), ":event-type": s("future") });
    expect(serde.decode(message)).toEqual({ $case: "$unknown", name: "future", value: message });
  });

  it.each<[string, Record<string, EventHeaderValue>, RegExp]>([
    ["no :message-type", { ":event-type": s("note") }, /no :message-type/],
    ["a binary :message-type", { ":message-type": { type: "binary", value: utf8.encode("event") }, ":event-type": s("note") }, /is a binary/],
    ["an unknown :message-type", { ":message-type": s("gossip") }, /unknown :message-type/],
    ["no :event-type", { ":message-type": s("event") }, /no :event-type/],
    ["a binary :event-type", { ":message-type": s("event"), ":event-type": { type: "binary", value: utf8.encode("note") } }, /is a binary/],
    ["a header of the wrong type", { ":message-type": s("event"), ":event-type": s("reading"), flag: s("yes") }, /flag is a string, expected a boolean/],
  ])("rejects a message with %s as a SerializationError", (_label, headers, reason) => {
    const error = catchError(() => serde.decode(msg(headers)));
    expect(error).toBeInstanceOf(SerializationError);
    expect((error as Error).message).toMatch(reason);
  });

  it("rejects a text payload that is not UTF-8, values a header cannot hold and unknown variants", () => {
    expect(() => serde.decode(msg({ ":message-type": s("event"), ":event-type": s("note") }, Uint8Array.of(0xff)))).toThrow(SerializationError);
    expect(() => serde.encode({ $case: "reading", value: { flag: "yes" } })).toThrow(SerializationError);
    expect(() => serde.encode({ $case: "nope", value: {} } as unknown as UnionValue)).toThrow(SerializationError);
  });

  it.each<[string, unknown, Record<string, EventHeaderValue>]>([
    [
      "a modeled error the union names: its exception",
      new (errorClass(Overheated))({ message: "hot" }),
      { ":message-type": s("exception"), ":exception-type": s("overheated"), ":content-type": s("application/json") },
    ],
    [
      "an unmodeled error: its code and message",
      new UnmodeledError("Throttled", "slow down"),
      { ":message-type": s("error"), ":error-code": s("Throttled"), ":error-message": s("slow down") },
    ],
    [
      "a modeled error of another shape: its code and message",
      new ModeledError({ ...Overheated, id: "x#Other" }, { message: "m" }),
      { ":message-type": s("error"), ":error-code": s("Other"), ":error-message": s("m") },
    ],
    [
      "anything else: nothing about it",
      new Error("secret"),
      { ":message-type": s("error"), ":error-code": s("InternalFailure"), ":error-message": s("Internal failure") },
    ],
    [
      "a validation error: nothing about it",
      new ValidationError([]),
      { ":message-type": s("error"), ":error-code": s("InternalFailure"), ":error-message": s("Internal failure") },
    ],
    [
      "bytes that do not decode (a malformed message of the caller's own stream): what is wrong",
      new SerializationError("decode event stream: frame of 9 bytes is too short"),
      { ":message-type": s("error"), ":error-code": s("SerializationException"), ":error-message": s("decode event stream: frame of 9 bytes is too short") },
    ],
  ])("ends a failed stream with %s", (_label, error, headers) => {
    expect(serde.encodeError(error).headers).toEqual(headers);
  });
});

function msg(headers: Record<string, EventHeaderValue>, body: Uint8Array = new Uint8Array(0)): EventMessage {
  return { headers, body };
}

function catchError(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}
