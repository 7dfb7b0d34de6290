/** `sigv4()` in a real client: `@anvil/client-core` over awsJson1_0, with a fake transport. */
import { createClient, type Transport, type TransportRequest } from "@anvil/client-core";
import type { HttpResponse } from "@anvil/core";
import { awsJson1_0 } from "@anvil/protocol-awsjson";
import { describe, expect, it } from "vitest";
import { sigv4 } from "./index.js";
import { EXAMPLE_CREDENTIALS, Things } from "./test-fixtures.js";

/** Answers 503 then 200, recording the requests. */
function flakyTransport(): Transport & { readonly seen: TransportRequest[] } {
  const seen: TransportRequest[] = [];
  return {
    seen,
    async send(request: TransportRequest): Promise<HttpResponse> {
      seen.push(request);
      if (seen.length === 1) return { status: 503, headers: new Headers(), body: undefined };
      const body = new TextEncoder().encode('{"id":"a"}');
      return { status: 200, headers: new Headers({ "content-type": "application/x-amz-json-1.0" }), body };
    },
  };
}

describe("sigv4 in a client", () => {
  it("signs every attempt afresh, with the service's signing name", async () => {
    const transport = flakyTransport();
    let calls = 0;
    const client = createClient(Things, {
      endpoint: "https://things.example.com",
      protocols: [awsJson1_0()],
      transport,
      auth: [sigv4({ region: "us-west-2", credentials: async () => (calls++, EXAMPLE_CREDENTIALS) })],
      sleep: async () => {},
    });
    expect(await client.getThing({ id: "a" })).toEqual({ id: "a" });
    expect(transport.seen).toHaveLength(2);
    for (const seen of transport.seen) {
      expect(seen.headers.get("authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-west-2\/things\/aws4_request, /);
    }
    expect(calls).toBe(2);
  });

  it("is required for a SigV4 service: the client refuses to be made without it", () => {
    expect(() => createClient(Things, { endpoint: "https://things.example.com", protocols: [awsJson1_0()] })).toThrow(
      /signs getThing with aws\.auth#sigv4.*sigv4\(\{ region \}\)\] from @anvil\/auth-sigv4/,
    );
  });
});
