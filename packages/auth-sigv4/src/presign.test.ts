import type { AuthCall, HttpRequest } from "@anvil/core";
import { describe, expect, it } from "vitest";
import { sigv4 } from "./sigv4.js";
import { AUGUST_30, EXAMPLE_CREDENTIALS, request, Things } from "./test-fixtures.js";
import { sigv4Verifier } from "./verify.js";

const WEEK = 604_800;
const endpoint = "https://example.amazonaws.com";
const scheme = () => sigv4({ region: "us-east-1", signingName: "things", credentials: EXAMPLE_CREDENTIALS, now: AUGUST_30 });

/** A presigned URL as the server receives it. */
function received(url: string): HttpRequest {
  const parsed = new URL(url);
  return request({ path: parsed.pathname, query: [...parsed.searchParams], headers: new Headers({ host: parsed.host }) });
}

async function verifiedAt(url: string, at: number): Promise<unknown> {
  const req = received(url);
  const call: AuthCall = { service: Things, operation: Things.operations.getThing, protocol: "aws.protocols#awsJson1_0", request: req };
  return sigv4Verifier({ secretOf: () => EXAMPLE_CREDENTIALS.secretAccessKey, now: () => new Date(at) }).verify(req, undefined, call);
}

describe("sigv4 presign", () => {
  it("C2: presigns for 7 days (604 800 s) at most, and the URL holds until then", async () => {
    const url = await scheme().presign(request({ path: "/things/a%20b", query: [["view", "full"]] }), { endpoint, expiresIn: WEEK });
    expect(url).toMatch(/^https:\/\/example\.amazonaws\.com\/things\/a%20b\?view=full&.*X-Amz-Expires=604800&/);
    const signedAt = AUGUST_30().getTime();
    expect(await verifiedAt(url, signedAt + WEEK * 1000)).toEqual({ accessKeyId: "AKIDEXAMPLE" });
    expect(await verifiedAt(url, signedAt + WEEK * 1000 + 1000)).toBeUndefined();
  });

  it.each([WEEK + 1, 0, -1, 1.5, Number.NaN])("C2: refuses expiresIn %s with a RangeError before signing", async (expiresIn) => {
    let credentialsAsked = false;
    const strict = sigv4({
      region: "us-east-1",
      signingName: "things",
      credentials: () => ((credentialsAsked = true), EXAMPLE_CREDENTIALS),
    });
    const presigned = strict.presign(request(), { endpoint, expiresIn });
    await expect(presigned).rejects.toBeInstanceOf(RangeError);
    await expect(presigned).rejects.toThrow(/^sigv4 presign: expiresIn must be a whole number of seconds from 1 to 604800 \(7 days\), got /);
    expect(credentialsAsked).toBe(false);
  });

  it("moves x-amz-* headers into the query, and signs S3's UNSIGNED-PAYLOAD as the payload, not as a parameter", async () => {
    const s3 = sigv4({ region: "us-east-1", signingName: "s3", uriEscapePath: false, credentials: EXAMPLE_CREDENTIALS, now: AUGUST_30 });
    const headers = new Headers({ "x-amz-content-sha256": "UNSIGNED-PAYLOAD", "x-amz-meta-owner": "me" });
    const url = new URL(await s3.presign(request({ path: "/bucket/my%20key", headers }), { endpoint: "https://s3.amazonaws.com" }));
    expect(url.pathname).toBe("/bucket/my%20key");
    expect(url.searchParams.has("x-amz-content-sha256")).toBe(false);
    expect(url.searchParams.get("x-amz-meta-owner")).toBe("me");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("3600");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
    // The signature is over UNSIGNED-PAYLOAD: with the body's hash instead it differs.
    const hashed = new URL(
      await s3.presign(request({ path: "/bucket/my%20key", headers: new Headers({ "x-amz-meta-owner": "me" }) }), { endpoint: "https://s3.amazonaws.com" }),
    );
    expect(hashed.searchParams.get("X-Amz-Signature")).not.toBe(url.searchParams.get("X-Amz-Signature"));
  });

  it("needs a signing name", async () => {
    const nameless = sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS });
    await expect(nameless.presign(request(), { endpoint })).rejects.toThrow(/no signing name; pass signingName/);
    const url = await nameless.presign(request(), { endpoint, signingName: "things" });
    expect(url).toContain("%2Fus-east-1%2Fthings%2Faws4_request");
  });
});
