import { createHash } from "node:crypto";
import type { AuthCall, HttpRequest } from "@anvil/core";
import { SignatureV4 } from "@smithy/signature-v4";
import { describe, expect, it } from "vitest";
import { WebCryptoSha256 } from "./sha256.js";
import { sigv4 } from "./sigv4.js";
import { AUGUST_30, contextFor, EXAMPLE_CREDENTIALS, request, Things } from "./test-fixtures.js";
import { sigv4Verifier } from "./verify.js";

const call = (req: HttpRequest): AuthCall => ({ service: Things, operation: Things.operations.getThing, protocol: "aws.protocols#awsJson1_0", request: req });
const secrets: Record<string, string> = { [EXAMPLE_CREDENTIALS.accessKeyId]: EXAMPLE_CREDENTIALS.secretAccessKey };
const verifier = (now = AUGUST_30) => sigv4Verifier({ secretOf: (id) => secrets[id], now, region: "us-east-1" });
const body = new TextEncoder().encode('{"id":"a"}');

/** A request as the client's sigv4() scheme signs it, as the server receives it (Host back in its headers). */
async function signedRequest(init: Partial<HttpRequest> = {}, signedAt = AUGUST_30): Promise<HttpRequest> {
  const scheme = sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS, now: signedAt });
  const unsigned = request({
    method: "POST",
    path: "/",
    headers: new Headers({ "content-type": "application/x-amz-json-1.0", "x-amz-target": "Things.GetThing" }),
    body,
    ...init,
  });
  const out = await scheme.sign(unsigned, contextFor(Things));
  out.headers.set("host", "example.amazonaws.com");
  return out;
}

async function verified(req: HttpRequest, now = AUGUST_30): Promise<unknown> {
  const scheme = verifier(now);
  expect(scheme.carries(req)).toBe(true);
  return scheme.verify(req, req.body instanceof Uint8Array ? req.body : undefined, call(req));
}

describe("sigv4Verifier", () => {
  it("lets in a request signed with the right secret, naming its access key", async () => {
    expect(await verified(await signedRequest())).toEqual({ accessKeyId: "AKIDEXAMPLE" });
  });

  it("verifies AWS's get-vanilla example (header-signed, no payload hash header)", async () => {
    const req = request({
      headers: new Headers({
        host: "example.amazonaws.com",
        "x-amz-date": "20150830T123600Z",
        authorization:
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
      }),
    });
    const scheme = sigv4Verifier({ secretOf: (id) => secrets[id], now: AUGUST_30, signingName: "service" });
    expect(await scheme.verify(req, undefined, call(req))).toEqual({ accessKeyId: "AKIDEXAMPLE" });
  });

  it("refuses a tampered header, body, date or signature", async () => {
    const good = await signedRequest();
    const header = await signedRequest();
    header.headers.set("x-amz-target", "Things.DeleteThing");
    expect(await verified(header)).toBeUndefined();
    expect(await verified({ ...good, body: new TextEncoder().encode('{"id":"b"}') })).toBeUndefined();
    const date = await signedRequest();
    date.headers.set("x-amz-date", "20150830T123700Z");
    expect(await verified(date)).toBeUndefined();
    const signature = await signedRequest();
    signature.headers.set(
      "authorization",
      signature.headers.get("authorization")!.replace(/Signature=(.)/, (_, c: string) => `Signature=${c === "0" ? "1" : "0"}`),
    );
    expect(await verified(signature)).toBeUndefined();
  });

  it("refuses an unknown access key, another region or service, and a signing time outside ±15 minutes", async () => {
    const unknown = sigv4Verifier({ secretOf: () => undefined, now: AUGUST_30 });
    const req = await signedRequest();
    expect(await unknown.verify(req, body, call(req))).toBeUndefined();
    expect(await sigv4Verifier({ secretOf: (id) => secrets[id], now: AUGUST_30, region: "eu-west-1" }).verify(req, body, call(req))).toBeUndefined();
    expect(await sigv4Verifier({ secretOf: (id) => secrets[id], now: AUGUST_30, signingName: "other" }).verify(req, body, call(req))).toBeUndefined();
    const at = AUGUST_30().getTime();
    expect(await verified(req, () => new Date(at + 14 * 60_000))).toEqual({ accessKeyId: "AKIDEXAMPLE" });
    expect(await verified(req, () => new Date(at - 14 * 60_000))).toEqual({ accessKeyId: "AKIDEXAMPLE" });
    expect(await verified(req, () => new Date(at + 16 * 60_000))).toBeUndefined();
    expect(await verified(req, () => new Date(at - 16 * 60_000))).toBeUndefined();
  });

  it("accepts UNSIGNED-PAYLOAD for a streamed body, and refuses a hash it cannot check", async () => {
    async function* stream() {
      yield body;
    }
    const req = await signedRequest({ body: stream() });
    expect(req.headers.get("x-amz-content-sha256")).toBe("UNSIGNED-PAYLOAD");
    expect(await verifier().verify(req, undefined, call(req))).toEqual({ accessKeyId: "AKIDEXAMPLE" });
    const hashed = await signedRequest();
    const streamedHashed = { ...hashed, body: stream() };
    expect(await verifier().verify(streamedHashed, undefined, call(streamedHashed))).toBeUndefined();
  });

  it("verifies a presigned URL until it expires, and refuses it tampered", async () => {
    const signer = new SignatureV4({ service: "things", region: "us-east-1", credentials: EXAMPLE_CREDENTIALS, sha256: WebCryptoSha256 });
    const presigned = await signer.presign(
      {
        method: "GET",
        protocol: "https:",
        hostname: "example.amazonaws.com",
        path: "/things/a%20b",
        query: { view: "full" },
        headers: { host: "example.amazonaws.com" },
      },
      { signingDate: AUGUST_30(), expiresIn: 300 },
    );
    const query = Object.entries(presigned.query!).map(([k, v]) => [k, String(v)] as [string, string]);
    const req = request({ path: "/things/a%20b", query, headers: new Headers({ host: "example.amazonaws.com" }) });
    expect(verifier().carries(req)).toBe(true);
    const at = AUGUST_30().getTime();
    expect(await verified(req, () => new Date(at + 299_000))).toEqual({ accessKeyId: "AKIDEXAMPLE" });
    expect(await verified(req, () => new Date(at + 301_000))).toBeUndefined();
    const tampered = { ...req, query: req.query.map(([k, v]) => [k, k === "view" ? "summary" : v] as [string, string]) };
    expect(await verified(tampered)).toBeUndefined();
  });

  it("tells a request signed with SigV4 from one that is not", () => {
    expect(verifier().carries(request({ headers: new Headers({ authorization: "Bearer x" }) }))).toBe(false);
    expect(verifier().carries(request())).toBe(false);
  });

  it("hashes the body to check a declared payload hash", async () => {
    const req = await signedRequest();
    expect(req.headers.get("x-amz-content-sha256")).toBe(createHash("sha256").update(body).digest("hex"));
  });
});
