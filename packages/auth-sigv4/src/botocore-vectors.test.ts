/**
 * C2: `sigv4()` against botocore, byte for byte. botocore is an
 * implementation of SigV4 independent of `@smithy/signature-v4` that
 * passes AWS's test suite; `scripts/botocore-sigv4.py` had it sign and
 * presign the requests there (our own cases: query and path encoding,
 * normalization, S3's unnormalized paths, repeated and untidy headers,
 * bodies, session tokens, a week's expiry) and wrote what it computed to
 * `__fixtures__/botocore-sigv4.json`.
 */
import { readFileSync } from "node:fs";
import type { HttpRequest } from "@anvil/core";
import { describe, expect, it } from "vitest";
import { sigv4 } from "./sigv4.js";
import { chainOf } from "./signing-suite.js";
import { contextFor, Things } from "./test-fixtures.js";

interface Vectors {
  readonly region: string;
  readonly timestamp: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken: string };
  readonly cases: readonly Vector[];
}

interface Vector {
  readonly name: string;
  readonly service: string;
  readonly method: string;
  readonly path: string;
  readonly query: readonly [string, string][];
  readonly headers: readonly [string, string][];
  readonly body: string | null;
  readonly token: boolean;
  readonly checksum: boolean;
  readonly header: { readonly canonicalRequest: string; readonly stringToSign: string; readonly headers: Readonly<Record<string, string>> };
  readonly presigned?: {
    readonly expiresIn: number;
    readonly canonicalRequest: string;
    readonly stringToSign: string;
    readonly path: string;
    readonly params: readonly [string, string][];
  };
}

const vectors: Vectors = JSON.parse(readFileSync(new URL("./__fixtures__/botocore-sigv4.json", import.meta.url), "utf8"));
const HOST = "example.amazonaws.com";
const endpoint = `https://${HOST}`;

/** The vector's request; a field given on several lines is one field, its values joined with commas. */
function requestOf(v: Vector, extra: Record<string, string> = {}): HttpRequest {
  const headers = new Headers(extra);
  for (const [name, value] of v.headers) headers.set(name, headers.has(name) ? `${headers.get(name)},${value}` : value);
  return { method: v.method, path: v.path, query: v.query, headers, body: v.body === null ? undefined : new TextEncoder().encode(v.body), host: HOST };
}

function schemeFor(v: Vector) {
  const { accessKeyId, secretAccessKey, sessionToken } = vectors.credentials;
  const s3 = v.service === "s3";
  return sigv4({
    region: vectors.region,
    signingName: v.service,
    credentials: v.token ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey },
    applyChecksum: s3 || v.checksum,
    uriEscapePath: !s3,
    now: () => new Date(vectors.timestamp),
  });
}

const byPair = (a: readonly [string, string], b: readonly [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

function paramsOf(url: string): [string, string][] {
  const search = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  return search.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    return [decodeURIComponent(pair.slice(0, eq)), decodeURIComponent(pair.slice(eq + 1))] as [string, string];
  });
}

describe("sigv4 against botocore", () => {
  it("C2: has the vectors", () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(25);
    expect(vectors.cases.filter((v) => v.presigned !== undefined).length).toBeGreaterThanOrEqual(18);
  });

  for (const v of vectors.cases) {
    const chain = chainOf({ secretAccessKey: vectors.credentials.secretAccessKey, region: vectors.region, service: v.service, timestamp: vectors.timestamp });

    it(`C2: ${v.name}: signs as botocore does, byte for byte`, async () => {
      // botocore's canonical request makes its string to sign; our Authorization's signature over that string
      // means our canonical request and string to sign are those bytes (the signer hashes both, shows neither).
      expect(chain.stringToSignOf(v.header.canonicalRequest)).toBe(v.header.stringToSign);
      const signed = await schemeFor(v).sign(requestOf(v), contextFor(Things, endpoint));
      const added: Record<string, string> = {};
      const own = requestOf(v).headers;
      signed.headers.forEach((value, name) => {
        if (!own.has(name)) added[name] = value;
      });
      expect(added).toEqual(v.header.headers);
      expect(/Signature=([0-9a-f]{64})$/.exec(added.authorization ?? "")?.[1]).toBe(chain.signatureOf(v.header.stringToSign));
    });

    const q = v.presigned;
    if (q === undefined) continue;
    it(`C2: ${v.name}: presigns as botocore does, byte for byte`, async () => {
      expect(chain.stringToSignOf(q.canonicalRequest)).toBe(q.stringToSign);
      // S3 presigns UNSIGNED-PAYLOAD, which the caller says with x-amz-content-sha256.
      const request = requestOf(v, v.service === "s3" ? { "x-amz-content-sha256": "UNSIGNED-PAYLOAD" } : {});
      const url = await schemeFor(v).presign(request, { endpoint, expiresIn: q.expiresIn });
      expect(url.slice(endpoint.length).split("?")[0]).toBe(q.path);
      const params = paramsOf(url);
      expect(params.toSorted(byPair)).toEqual(q.params.toSorted(byPair));
      expect(params.find(([name]) => name === "X-Amz-Signature")?.[1]).toBe(chain.signatureOf(q.stringToSign));
    });
  }
});
