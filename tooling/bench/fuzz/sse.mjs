// Fuzz target: @anvil/eventstream's Server-Sent Events reader (the WHATWG
// parser over a body in random chunks, then each message decoded into a
// union's events with restJson1's JSON codec, as restJson1 clients read
// `text/event-stream` answers). A modeled exception or an `error` message
// throws by design: those count as answers, not failures.
import { compileReader, compileWriter } from "@anvil/codec-json";
import { concat, mutated, preview } from "@anvil/codec-contract";
import { ModeledError, SerializationError, UnmodeledError } from "@anvil/core";
import { blob, integer, member, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { compileServerSentEvents, formatServerSentComment, formatServerSentEvent, readServerSentEventStream } from "@anvil/eventstream";
import fc from "fast-check";
import { cut, iterate } from "./chunks.mjs";

const Reading = struct("fuzz.sse#Reading", [
  member("station", string, { eventHeader: true }),
  member("celsius", integer),
  member("at", timestamp),
  member("raw", blob),
]);
const Note = struct("fuzz.sse#Note", [member("text", string, { eventPayload: true })]);
const Outage = struct("fuzz.sse#Outage", [member("message", string)], { error: "server" });
const Feed = union("fuzz.sse#Feed", [member("reading", Reading), member("note", Note), member("outage", Outage)], { streaming: true });
const json = { useJsonName: true, timestampFormat: "epoch-seconds" };
const serde = compileServerSentEvents(Feed, { reader: (s) => compileReader(s, json), writer: (s) => compileWriter(s, json) });
const utf8 = new TextEncoder();

export const sse = {
  decoder: "@anvil/eventstream readServerSentEventStream (WHATWG parser + JSON events), bodies in random chunks",
  typed: "SerializationError (a modeled exception or an error message: an answer)",
  async: true,
  setup() {
    const message = fc.oneof(
      fc.record({
        type: fc.constantFrom("reading", "note", "outage", "Outage", "error", "gust"),
        id: fc.string({ maxLength: 4 }),
        data: fc.string({ maxLength: 40 }),
      }),
      fc.constant({ type: "reading", data: '{"station":"n","celsius":3,"at":1717243200,"raw":"AQID"}' }),
      fc.constant({ type: "note", data: '{"text":"a\\nb"}' }),
    );
    const texts = fc
      .sample(fc.array(message, { maxLength: 4 }), { numRuns: 200, seed: 7 })
      .map((ms) => ms.map((m) => (/[\r\n\0]/.test(m.id ?? "") ? formatServerSentComment() : formatServerSentEvent(m))).join(""));
    const valid = texts.map((t) => utf8.encode(t));
    const edges = [
      "",
      "\uFEFF",
      "data",
      "data:\r",
      "\r\n\r\n",
      ":\n\n",
      "event: error\ndata: {}\n\n",
      "data: x\r",
      `data: ${"{".repeat(2000)}\n\n`,
      "retry: 99999999999999999999\n",
    ].map((t) => utf8.encode(t));
    const body = fc.oneof(
      { arbitrary: mutated(valid, true), weight: 3 },
      { arbitrary: fc.constantFrom(...valid).map((b) => concat(b, b)), weight: 1 },
      { arbitrary: fc.uint8Array({ maxLength: 80 }), weight: 1 },
      { arbitrary: fc.constantFrom(...edges), weight: 1 },
      { arbitrary: mutated(edges, true), weight: 1 },
    );
    return {
      seeds: edges.length,
      arbitrary: fc.record({ body, at: fc.array(fc.nat(), { maxLength: 6 }), max: fc.constantFrom(undefined, undefined, 64) }),
      async run({ body, at, max }) {
        let n = 0;
        for await (const event of readServerSentEventStream(iterate(cut(body, at)), serde, max === undefined ? {} : { maxMessageLength: max }))
          n += event.$case.length;
        return n;
      },
      isTyped: (error) => SerializationError.is(error) || ModeledError.isModeledError(error) || UnmodeledError.is(error),
      describe: ({ body, at, max }) => `message limit ${max ?? "default"}, cut at ${JSON.stringify(at)}: ${preview(body, 400)}`,
    };
  },
};
