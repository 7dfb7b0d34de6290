// Fuzz target: URI labels and query strings on the server's way in. A
// request target (path and query, as Node hands it over) is split and its
// query parsed as the Node adapter does, then routed and read by
// @anvil/server's dispatcher with restJson1: the router's segment matching
// and percent-decoding, labels of every scalar type (greedy ones
// included), query parameters, lists of them, @httpQueryParams, and the
// constraints checked before the handler. Every request must be answered
// (never a rejected promise): a 2xx, or a 4xx in restJson1's error format
// (the typed rejection); a 5xx or an internal error is a failure.
import { arbitraryFor, mutated } from "@anvil/codec-contract";
import { createClient, noRetry } from "@anvil/client-core";
import { HttpHeaders } from "@anvil/core";
import {
  boolean,
  byte,
  double,
  enumeration,
  float,
  integer,
  list,
  long,
  map,
  member,
  operation,
  service,
  short,
  string,
  struct,
  timestamp,
} from "@anvil/core/codegenv1";
import { parseQuery } from "@anvil/core/protocol";
import { restJson1 } from "@anvil/protocol-restjson";
import { createDispatcher } from "@anvil/server";
import fc from "fast-check";

const Color = enumeration("fuzz.uri#Color", [
  { name: "RED", value: "red" },
  { name: "GREEN", value: "green" },
]);
const Strings = list("fuzz.uri#Strings", member("member", string));
const Integers = list("fuzz.uri#Integers", member("member", integer));
const Booleans = list("fuzz.uri#Booleans", member("member", boolean));
const Times = list("fuzz.uri#Times", member("member", timestamp));
const Colors = list("fuzz.uri#Colors", member("member", Color));
const Params = map("fuzz.uri#Params", member("key", string), member("value", string));
const Ok = struct("fuzz.uri#Ok", [member("ok", boolean, { required: true }), member("echo", string)]);

const op = (name, method, uri, members) =>
  operation(`fuzz.uri#${name}`, {
    input: struct(`fuzz.uri#${name}Input`, members),
    output: Ok,
    traits: { http: { method, uri, code: 200 } },
  });

/** A service whose routes bind a label of every scalar type and every kind of query parameter. */
const Uris = service("fuzz.uri#Uris", {
  version: "1",
  protocols: ["aws.protocols#restJson1"],
  operations: {
    getThing: op("GetThing", "GET", "/things/{id}", [
      member("id", string, { required: true, httpLabel: true, length: { min: 1, max: 32 }, pattern: "^[a-z0-9-]+$" }),
      member("q", string, { httpQuery: "q" }),
      member("n", integer, { httpQuery: "n", range: { min: 0, max: 100 } }),
      member("d", double, { httpQuery: "d" }),
      member("f", float, { httpQuery: "f" }),
      member("on", boolean, { httpQuery: "on" }),
      member("since", timestamp, { httpQuery: "since" }),
      member("color", Color, { httpQuery: "color" }),
    ]),
    getVersion: op("GetVersion", "GET", "/things/{id}/versions/{version}/at/{when}", [
      member("id", string, { required: true, httpLabel: true }),
      member("version", long, { required: true, httpLabel: true }),
      member("when", timestamp, { required: true, httpLabel: true }),
    ]),
    getEpoch: op("GetEpoch", "GET", "/epochs/{seconds}/{httpDate}", [
      member("seconds", timestamp, { required: true, httpLabel: true, timestampFormat: "epoch-seconds" }),
      member("httpDate", timestamp, { required: true, httpLabel: true, timestampFormat: "http-date" }),
    ]),
    getSmall: op("GetSmall", "GET", "/small/{b}/{s}/{on}/{color}", [
      member("b", byte, { required: true, httpLabel: true }),
      member("s", short, { required: true, httpLabel: true }),
      member("on", boolean, { required: true, httpLabel: true }),
      member("color", Color, { required: true, httpLabel: true }),
    ]),
    getFile: op("GetFile", "GET", "/files/{key+}/meta", [
      member("key", string, { required: true, httpLabel: true }),
      member("version", string, { httpQuery: "version" }),
    ]),
    search: op("Search", "GET", "/search", [
      member("tags", Strings, { httpQuery: "tag" }),
      member("limits", Integers, { httpQuery: "limit" }),
      member("flags", Booleans, { httpQuery: "flag" }),
      member("times", Times, { httpQuery: "at" }),
      member("colors", Colors, { httpQuery: "color" }),
      member("rest", Params, { httpQueryParams: true }),
    ]),
    putThing: op("PutThing", "PUT", "/things/{id}/flags/{name}", [
      member("id", string, { required: true, httpLabel: true }),
      member("name", string, { required: true, httpLabel: true }),
      member("value", string, { httpQuery: "value" }),
    ]),
    deleteThing: op("DeleteThing", "DELETE", "/things/{id}", [member("id", string, { required: true, httpLabel: true })]),
  },
});

/** Handlers that touch what they were given and answer. */
const handlers = Object.fromEntries(
  Object.keys(Uris.operations).map((key) => [
    key,
    (input) => ({ ok: true, echo: JSON.stringify(input, (_k, v) => (typeof v === "bigint" ? String(v) : v)).slice(0, 64) }),
  ]),
);

/** Request targets the restJson1 client writes for values generated from each operation's input. */
async function clientTargets() {
  const targets = [];
  const transport = {
    async send(request) {
      targets.push([request.method, `${request.url.pathname}${request.url.search}`]);
      return { status: 200, headers: new Headers({ "content-type": "application/json" }), body: '{"ok":true}' };
    },
  };
  const client = createClient(Uris, { endpoint: "http://fuzz.test", protocols: [restJson1()], transport, retry: noRetry });
  for (const [key, op] of Object.entries(Uris.operations)) {
    for (const input of fc.sample(arbitraryFor(op.input, { maxDepth: 2, maxLength: 3 }), { numRuns: 60, seed: 3 })) {
      try {
        await client[key](input);
      } catch {
        // The client refused the value (an empty label, say): not a seed.
      }
    }
  }
  return targets;
}

/** Path segments and query parts that matter to routers and percent-decoders. */
const SEGMENTS = [
  "things",
  "versions",
  "at",
  "files",
  "meta",
  "search",
  "small",
  "epochs",
  "flags",
  "",
  ".",
  "..",
  "%",
  "%2",
  "%zz",
  "%2F",
  "%2f",
  "%00",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%AF",
  "%F4%90%80%80",
  "+",
  "%20",
  "é",
  "\u{1F600}",
  "a".repeat(300),
];
const QUERY_NAMES = ["q", "n", "d", "f", "on", "since", "color", "tag", "limit", "flag", "at", "version", "value", "x", "", "%", "a%zz", "__proto__"];
const VALUES = [
  "",
  "0",
  "-0",
  "1",
  "-1",
  "128",
  "-129",
  "32768",
  "2147483648",
  "9007199254740993",
  "9223372036854775808",
  "1e400",
  "-1e400",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "1.5",
  "true",
  "false",
  "TRUE",
  "1970-01-01T00:00:00Z",
  "2024-02-30T00:00:00Z",
  "9999-12-31T23:59:59.999Z",
  "1985-04-12T23:20:50.52Z",
  "Tue, 29 Apr 2014 18:30:38 GMT",
  "1515531081.123",
  "-62135596801",
  "red",
  "RED",
  "%",
  "%zz",
  "%E0%A4%A",
  "+",
  "a+b",
  "%2B",
  "\u0000",
];

export const uri = {
  decoder: "@anvil/server dispatcher + restJson1: request-target split, query parsing, routing, labels and query parameters of every type",
  typed: "a 4xx answer (restJson1's error body)",
  async: true,
  async setup() {
    let internal;
    const dispatch = createDispatcher({
      service: Uris,
      protocols: [restJson1().server],
      handlers,
      onInternalError: (error) => (internal = error),
    });
    const seeds = await clientTargets();
    const text = (bytes) => Buffer.from(bytes).toString("latin1");
    const built = fc
      .tuple(
        fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.constantFrom(...VALUES.map(encodeURIComponent)), fc.string({ maxLength: 8 })), { maxLength: 7 }),
        fc.array(fc.tuple(fc.constantFrom(...QUERY_NAMES), fc.oneof(fc.constantFrom(...VALUES), fc.constantFrom(...VALUES.map(encodeURIComponent)))), {
          maxLength: 5,
        }),
        fc.boolean(),
      )
      .map(([segments, query, withQuery]) => `/${segments.join("/")}${withQuery ? `?${query.map(([n, v]) => `${n}=${v}`).join("&")}` : ""}`);
    const target = fc.oneof(
      { arbitrary: fc.constantFrom(...seeds.map(([, t]) => t)), weight: 1 },
      {
        arbitrary: mutated(
          seeds.map(([, t]) => Buffer.from(t, "latin1")),
          false,
        ).map(text),
        weight: 3,
      },
      { arbitrary: built, weight: 3 },
      {
        arbitrary: fc.constantFrom(
          "",
          "*",
          "/",
          "//",
          "?",
          "/?",
          "/things/",
          "/things//",
          "/files/meta",
          "/files//meta",
          "http://h/things/x",
          "/search?&&&",
          "/search?=&=",
          "/search?tag",
        ),
        weight: 1,
      },
    );
    const method = fc.constantFrom("GET", "GET", "GET", "PUT", "DELETE", "POST", "get", "HEAD", "OPTIONS");
    return {
      seeds: seeds.length,
      arbitrary: fc.record({ method, target }),
      async run({ method, target }) {
        const q = target.indexOf("?");
        const request = {
          method,
          path: q < 0 ? target : target.slice(0, q),
          query: q < 0 ? [] : parseQuery(target.slice(q + 1)),
          headers: new HttpHeaders(),
          body: undefined,
        };
        internal = undefined;
        const response = await dispatch(request);
        if (internal !== undefined || response.status >= 500) {
          const body = typeof response.body === "string" ? response.body : response.body instanceof Uint8Array ? Buffer.from(response.body).toString() : "";
          throw new Error(`answered ${response.status}${internal ? ` (internal error: ${internal?.stack ?? internal})` : ""}: ${body.slice(0, 200)}`);
        }
        if (response.status >= 400) throw new Rejected(response.status);
        return response.status;
      },
      isTyped: (error) => error instanceof Rejected,
      describe: ({ method, target }) => `${method} ${JSON.stringify(target).slice(0, 400)}`,
    };
  },
};

/** A 4xx answer: the request refused in the protocol's own error format, as it should be. */
class Rejected extends Error {
  constructor(status) {
    super(`answered ${status}`);
    this.status = status;
  }
}
