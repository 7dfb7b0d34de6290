// Fuzz target: @anvil/auth-sigv4's verifier, which parses the Authorization
// header (or a presigned query), canonicalises the request as received and
// signs it again. Seeds are requests signed by the client's sigv4() scheme:
// odd paths and query strings, repeated parameters, headers with runs of
// spaces, bodies or none; some moved into a presigned query. Inputs change
// them in one to three places (a header's or the path's bytes, a query
// pair, the method, the body, an added header, the clock). The verifier must
// answer an identity or undefined (the typed refusal, a 401) and never
// throw; a seed left as it was must be let in.
import { mutation } from "@anvil/codec-contract";
import { sigv4, sigv4Verifier } from "@anvil/auth-sigv4";
import { HttpHeaders } from "@anvil/core";
import { member, operation, service, string, struct } from "@anvil/core/codegenv1";
import fc from "fast-check";

const CREDENTIALS = { accessKeyId: "AKIDFUZZ", secretAccessKey: "fuzz/secret+KEY" };
const SIGNED_AT = new Date("2026-01-15T12:34:56Z");

const Signed = service("fuzz.sigv4#Signed", {
  version: "1",
  protocols: ["aws.protocols#awsJson1_0"],
  auth: ["aws.auth#sigv4"],
  traits: { "aws.auth#sigv4": { name: "fuzz" } },
  operations: {
    put: operation("fuzz.sigv4#Put", { input: struct("fuzz.sigv4#PutInput", [member("id", string)]), output: struct("fuzz.sigv4#PutOutput", []) }),
  },
});

const PATH_PARTS = ["", "a", "b c", "%20", "%2F", "é", "\u{1F600}", "..", ".", "~", "a+b", "*", "%", "%zz", "x=y", "caf%C3%A9"];
const QUERY_PARTS = ["", "a", "A", "b c", "é", "%", "=", "&", "+", "~", "X-Amz-Date", "x-amz-signature", "\u{1F600}"];
const HEADER_VALUES = ["", "a", " a ", "a  b   c", "a,b", "\t", "é", "text/plain; charset=utf-8"];

/** A request to sign: method, path, query, headers, body. */
const unsigned = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
  path: fc.array(fc.constantFrom(...PATH_PARTS), { maxLength: 4 }).map((parts) => `/${parts.map((p) => encodeURIComponent(p)).join("/")}`),
  query: fc.array(fc.tuple(fc.constantFrom(...QUERY_PARTS), fc.constantFrom(...QUERY_PARTS)), { maxLength: 4 }),
  headers: fc.dictionary(fc.constantFrom("content-type", "x-amz-target", "x-custom", "x-amz-meta-a", "user-agent"), fc.constantFrom(...HEADER_VALUES), {
    maxKeys: 3,
  }),
  body: fc.option(fc.uint8Array({ maxLength: 48 }), { nil: undefined }),
});

/** What an input changes in a request: which part, and how. */
const change = fc.oneof(
  fc.record({
    part: fc.constantFrom("authorization", "x-amz-date", "x-amz-content-sha256", "host", "x-amz-security-token", "content-type", "path"),
    bytes: mutation(false),
  }),
  fc.record({ part: fc.constant("query"), index: fc.nat(), bytes: mutation(false) }),
  fc.record({ part: fc.constant("method"), method: fc.constantFrom("GET", "POST", "get", "") }),
  fc.record({ part: fc.constant("body"), body: fc.option(fc.uint8Array({ maxLength: 48 }), { nil: undefined }) }),
  fc.record({ part: fc.constant("add"), name: fc.constantFrom("x-extra", "authorization", "x-amz-date", "host"), value: fc.constantFrom(...HEADER_VALUES) }),
  fc.record({ part: fc.constant("drop"), name: fc.constantFrom("authorization", "x-amz-date", "host", "x-amz-content-sha256", "content-type") }),
  fc.record({ part: fc.constant("clock"), minutes: fc.constantFrom(-16, -14, 14, 16, 60 * 24 * 8) }),
);

const latin1 = (bytes) => Buffer.from(bytes).toString("latin1");
/** Header values as a server could receive them: no CR, LF or NUL, no spaces at either end (Node trims them). */
const headerText = (bytes) =>
  latin1(bytes)
    .replace(/[\r\n\0]/g, "")
    .trim();

/** The query pairs of a header-signed request moved into a presigned URL's query (as a presigner would, with the header's signature). */
function presigned(request) {
  const auth = request.headers.get("authorization");
  const fields = Object.fromEntries(
    auth
      .slice("AWS4-HMAC-SHA256 ".length)
      .split(",")
      .map((f) => f.trim().split("=")),
  );
  const headers = new HttpHeaders(request.headers);
  headers.delete("authorization");
  headers.delete("x-amz-date");
  return {
    ...request,
    headers,
    query: [
      ...request.query,
      ["X-Amz-Algorithm", "AWS4-HMAC-SHA256"],
      ["X-Amz-Credential", fields.Credential],
      ["X-Amz-Date", request.headers.get("x-amz-date")],
      ["X-Amz-Expires", "300"],
      ["X-Amz-SignedHeaders", fields.SignedHeaders],
      ["X-Amz-Signature", fields.Signature],
    ],
  };
}

/** A request with one change made. */
function changed(request, c, clock) {
  const headers = new HttpHeaders(request.headers);
  const out = { ...request, headers };
  switch (c.part) {
    case "path":
      out.path = latin1(c.bytes(Buffer.from(request.path, "latin1")));
      break;
    case "query": {
      if (request.query.length === 0) break;
      const i = c.index % request.query.length;
      out.query = request.query.map(([n, v], j) => (j === i ? [n, latin1(c.bytes(Buffer.from(v)))] : [n, v]));
      break;
    }
    case "method":
      out.method = c.method;
      break;
    case "body":
      out.body = c.body;
      break;
    case "add":
      headers.append(c.name, c.value);
      break;
    case "drop":
      headers.delete(c.name);
      break;
    case "clock":
      clock.minutes = c.minutes;
      break;
    default: {
      const value = headers.get(c.part) ?? "";
      headers.set(c.part, headerText(c.bytes(Buffer.from(value, "latin1"))));
    }
  }
  return out;
}

export const sigv4Target = {
  decoder: "@anvil/auth-sigv4 sigv4Verifier: Authorization header and presigned-query parsing, canonical request, signature check",
  typed: "undefined (refused: a 401)",
  async: true,
  async setup() {
    const scheme = sigv4({ region: "us-east-1", credentials: CREDENTIALS, now: () => SIGNED_AT });
    const context = { service: Signed, operation: Signed.operations.put, endpoint: new URL("https://fuzz.us-east-1.amazonaws.com") };
    const seeds = [];
    for (const r of fc.sample(unsigned, { numRuns: 200, seed: 9 })) {
      const request = { method: r.method, path: r.path, query: r.query, headers: new HttpHeaders(r.headers), body: r.body };
      const signed = await scheme.sign(request, context);
      // The server receives the Host the client sent.
      signed.headers.set("host", "fuzz.us-east-1.amazonaws.com");
      seeds.push(signed);
      if (seeds.length % 4 === 0) seeds.push(presigned(signed));
    }
    const clock = { minutes: 0 };
    /** The request an input stands for (setting the clock). */
    const build = ({ seed, changes }) => {
      clock.minutes = 0;
      let request = seeds[seed];
      for (const c of changes) request = changed(request, c, clock);
      return request;
    };
    const verifier = sigv4Verifier({
      secretOf: (id) => (id === CREDENTIALS.accessKeyId ? CREDENTIALS.secretAccessKey : undefined),
      now: () => new Date(SIGNED_AT.getTime() + clock.minutes * 60_000),
    });
    return {
      seeds: seeds.length,
      arbitrary: fc.record({ seed: fc.nat({ max: seeds.length - 1 }), changes: fc.array(change, { maxLength: 3 }) }),
      async run(input) {
        const request = build(input);
        const body = request.body instanceof Uint8Array ? request.body : undefined;
        const identity = await verifier.verify(request, body, {
          service: Signed,
          operation: Signed.operations.put,
          protocol: "aws.protocols#awsJson1_0",
          request,
        });
        // A signed request as it was signed is let in (the presigned seeds carry a header signature: refused).
        const untouched = input.changes.length === 0 && !request.query.some(([n]) => n === "X-Amz-Signature");
        if (untouched && identity?.accessKeyId !== CREDENTIALS.accessKeyId) throw new Error("a request signed by the client's sigv4() was refused");
        if (identity === undefined) throw new Refused();
        return identity;
      },
      isTyped: (error) => error instanceof Refused,
      describe: (input) => {
        const r = build(input);
        const body = r.body === undefined ? "no body" : `body ${Buffer.from(r.body).toString("hex")}`;
        const query = r.query.map((p) => p.join("=")).join("&");
        const headers = [...r.headers].map(([n, v]) => `${n}: ${JSON.stringify(v)}`).join("; ");
        return `${JSON.stringify(r.method)} ${JSON.stringify(r.path)}${query ? ` ?${JSON.stringify(query)}` : ""} [${headers}] ${body}, clock ${clock.minutes} min`;
      },
    };
  },
};

/** The verifier's refusal (it answered undefined), as the harness counts it. */
class Refused extends Error {
  constructor() {
    super("refused");
  }
}
