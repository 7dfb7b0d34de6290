/**
 * The request signer against `@smithy/signature-v4`, which signed requests
 * before it and still presigns: on random requests (paths to normalize and
 * escape, repeated and unsignable headers, untidy values, queries with
 * repeated names, bodies, session tokens, S3's unescaped paths), both give
 * the same headers byte for byte, on `node:crypto` and on WebCrypto.
 */
import { HttpHeaders, type HttpRequest } from "@anvil/core";
import { SignatureV4 } from "@smithy/signature-v4";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { platformHashes, smithySha256 } from "./sha256.js";
import { requestSigner, type SigningCredentials } from "./signer.js";

interface Case {
  readonly request: HttpRequest;
  readonly host: string;
  readonly service: string;
  readonly region: string;
  readonly date: Date;
  readonly credentials: SigningCredentials;
  readonly applyChecksum: boolean;
  readonly uriEscapePath: boolean;
  readonly streamedHash: string | undefined;
}

/**
 * What the scheme sent before: the request as a record (host first), signed
 * by @smithy/signature-v4, less `host`. The query's record has no
 * prototype: the scheme's had one, and signed a parameter named like one of
 * its members (`toString`, `valueOf`) wrongly.
 */
async function smithyHeaders(c: Case): Promise<[string, string][]> {
  const headers: Record<string, string> = { host: c.host };
  c.request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (c.streamedHash !== undefined) headers["x-amz-content-sha256"] = c.streamedHash;
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of c.request.query) {
    const existing = query[name];
    query[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  const signer = new SignatureV4({
    service: c.service,
    region: c.region,
    credentials: c.credentials,
    sha256: smithySha256(),
    applyChecksum: c.applyChecksum,
    uriEscapePath: c.uriEscapePath,
  });
  const signed = await signer.sign(
    {
      method: c.request.method,
      protocol: "https:",
      hostname: c.host,
      path: c.request.path,
      query,
      headers,
      body: c.request.body instanceof Uint8Array ? c.request.body : undefined,
    },
    { signingDate: c.date },
  );
  return Object.entries(signed.headers)
    .filter(([name]) => name !== "host")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

async function ourHeaders(c: Case, webCrypto: boolean): Promise<[string, string][]> {
  const signer = requestSigner({ region: c.region, applyChecksum: c.applyChecksum, uriEscapePath: c.uriEscapePath, ...(webCrypto ? { hashes: null } : {}) });
  const headers = await signer.sign(c.request, c.host, c.service, c.date, c.credentials, c.streamedHash);
  return [...headers.entries()];
}

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.constantFrom("", "a b", "%2F", "~-_.", "*()!'", "ü/é", "a+b=c&d"),
);
const segment = fc.oneof(fc.constantFrom(".", "..", "", "seg"), text);
const path = fc
  .tuple(fc.array(segment, { maxLength: 5 }), fc.boolean())
  .map(([segments, slash]) => `/${segments.join("/")}${slash && segments.length > 0 ? "/" : ""}`);
// `__proto__` is left out of names: the scheme gave @smithy/signature-v4 the query and headers as objects, which dropped that name.
const queryName = fc.oneof(fc.constantFrom("a", "A", "b", "X-Amz-Signature", "x-amz-signature", "list", "é"), text).filter((name) => name !== "__proto__");
const headerName = fc.oneof(
  fc.constantFrom(
    "content-type",
    "x-amz-target",
    "host",
    "date",
    "authorization",
    "x-amz-date",
    "x-amz-content-sha256",
    "x-amz-security-token",
    "user-agent",
    "connection",
    "expect",
    "proxy-authorization",
    "sec-fetch-mode",
    "x-amzn-trace-id",
    "a",
    "hosts",
    "zz-last",
    "X-Amz-Meta-Thing",
  ),
  fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/).filter((name) => name.toLowerCase() !== "__proto__"),
);
const headerValue = fc
  .array(fc.constantFrom("a", "b", " ", "  ", "\t", ",", "x=y", "é", "/"), { maxLength: 8 })
  .map((parts) => parts.join(""))
  .filter((value) => value.trim() !== "" || value === "");
const caseOf = (headersClass: "standard" | "anvil") =>
  fc
    .record({
      method: fc.constantFrom("GET", "POST", "PUT", "DELETE"),
      path,
      query: fc.array(fc.tuple(queryName, text), { maxLength: 6 }),
      headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 }),
      body: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
      host: fc.constantFrom("example.amazonaws.com", "localhost:8080", "127.0.0.1:1234"),
      service: fc.constantFrom("dynamodb", "s3", "execute-api"),
      region: fc.constantFrom("us-east-1", "eu-west-3"),
      date: fc.date({ min: new Date("1970-01-02T00:00:00Z"), max: new Date("9999-12-30T00:00:00Z"), noInvalidDate: true }),
      token: fc.option(fc.constantFrom("", "session-token", "tok/with+chars="), { nil: undefined }),
      applyChecksum: fc.boolean(),
      uriEscapePath: fc.boolean(),
      streamed: fc.constantFrom(undefined, "UNSIGNED-PAYLOAD", "STREAMING-AWS4-HMAC-SHA256-EVENTS"),
    })
    .map((r): Case => {
      const headers = headersClass === "standard" ? new Headers() : new HttpHeaders();
      for (const [name, value] of r.headers) headers.append(name, value);
      const body = r.streamed === undefined ? r.body : (async function* () {})();
      return {
        request: { method: r.method, path: r.path, query: r.query, headers, body },
        host: r.host,
        service: r.service,
        region: r.region,
        date: r.date,
        credentials: {
          accessKeyId: "AKIDEXAMPLE",
          secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
          ...(r.token === undefined ? {} : { sessionToken: r.token }),
        },
        applyChecksum: r.applyChecksum,
        uriEscapePath: r.uriEscapePath,
        streamedHash: r.streamed,
      };
    });

describe("requestSigner", () => {
  it("runs on node:crypto here", () => {
    expect(platformHashes()).toBeDefined();
  });

  for (const [hashes, webCrypto, runs] of [
    ["node:crypto", false, 400],
    ["WebCrypto", true, 100],
  ] as const) {
    for (const headersClass of ["standard", "anvil"] as const) {
      it(`signs as @smithy/signature-v4 does, on ${hashes}, from ${headersClass === "standard" ? "a standard Headers" : "core's HttpHeaders"}`, async () => {
        await fc.assert(
          fc.asyncProperty(caseOf(headersClass), async (c) => {
            expect(await ourHeaders(c, webCrypto)).toEqual(await smithyHeaders(c));
          }),
          { numRuns: runs },
        );
      });
    }
  }

  it("signs a text body as its UTF-8 bytes", async () => {
    const signer = requestSigner({ region: "us-east-1", applyChecksum: true, uriEscapePath: true });
    const credentials = { accessKeyId: "AKID", secretAccessKey: "secret" };
    const date = new Date("2024-01-01T00:00:00Z");
    const of = (body: string | Uint8Array) =>
      signer.sign({ method: "POST", path: "/", query: [], headers: new Headers(), body }, "h", "s", date, credentials, undefined);
    const asText = await of('{"name":"é"}');
    const asBytes = await of(new TextEncoder().encode('{"name":"é"}'));
    expect([...asText.entries()]).toEqual([...asBytes.entries()]);
  });

  it("refuses credentials that are not strings, as @smithy/signature-v4 did", () => {
    const signer = requestSigner({ region: "us-east-1", applyChecksum: true, uriEscapePath: true });
    const bad = { accessKeyId: "AKID" } as unknown as SigningCredentials;
    expect(() => signer.sign({ method: "GET", path: "/", query: [], headers: new Headers(), body: undefined }, "h", "s", new Date(), bad, undefined)).toThrow(
      "Resolved credential object is not valid",
    );
  });
});
