import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sigv4 } from "./sigv4.js";
import { AUGUST_30, contextFor, EXAMPLE_CREDENTIALS, request, Things } from "./test-fixtures.js";

const signed = { ...Things, traits: { "aws.auth#sigv4": { name: "service" } } };

describe("sigv4", () => {
  it("signs AWS's get-vanilla example exactly", async () => {
    const scheme = sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS, applyChecksum: false, now: AUGUST_30 });
    const out = await scheme.sign(request(), contextFor(signed));
    expect(out.headers.get("x-amz-date")).toBe("20150830T123600Z");
    expect(out.headers.get("authorization")).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, " +
        "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    );
    expect(out.headers.has("host")).toBe(false); // the transport sends Host from the URL
  });

  it("hashes whole bodies and marks streamed ones unsigned", async () => {
    const scheme = sigv4({ region: "eu-west-1", credentials: EXAMPLE_CREDENTIALS, now: AUGUST_30 });
    const body = new TextEncoder().encode('{"id":"a"}');
    const whole = await scheme.sign(request({ method: "POST", body }), contextFor(signed));
    expect(whole.headers.get("x-amz-content-sha256")).toBe(createHash("sha256").update(body).digest("hex"));
    expect(whole.headers.get("authorization")).toMatch(/SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
    async function* stream() {
      yield body;
    }
    const streamed = await scheme.sign(request({ method: "POST", body: stream() }), contextFor(signed));
    expect(streamed.headers.get("x-amz-content-sha256")).toBe("UNSIGNED-PAYLOAD");
  });

  it("sends the session token and reads credentials from a provider", async () => {
    let calls = 0;
    const scheme = sigv4({ region: "us-east-1", credentials: async () => (calls++, { ...EXAMPLE_CREDENTIALS, sessionToken: "tok" }), now: AUGUST_30 });
    const out = await scheme.sign(request(), contextFor(signed));
    expect(out.headers.get("x-amz-security-token")).toBe("tok");
    expect(calls).toBe(1);
  });

  it("falls back to the standard AWS credential chain (here: the environment)", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "AKIDFROMENV", AWS_SECRET_ACCESS_KEY: "secret", AWS_SESSION_TOKEN: "envtoken" });
    try {
      const out = await sigv4({ region: "us-east-1", now: AUGUST_30 }).sign(request(), contextFor(signed));
      expect(out.headers.get("authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDFROMENV\/20150830\//);
      expect(out.headers.get("x-amz-security-token")).toBe("envtoken");
    } finally {
      for (const key of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  it("needs a signing name", async () => {
    const scheme = sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS });
    await expect(scheme.sign(request(), contextFor({ ...Things, traits: {} }))).rejects.toThrow(/has no @aws.auth#sigv4 name; pass signingName/);
  });

  it("takes the signing name given over the service's", async () => {
    const scheme = sigv4({ region: "us-east-1", signingName: "other", credentials: EXAMPLE_CREDENTIALS, now: AUGUST_30 });
    const out = await scheme.sign(request(), contextFor(signed));
    expect(out.headers.get("authorization")).toContain("/us-east-1/other/aws4_request");
  });
});
