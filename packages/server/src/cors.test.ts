import { map, member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { type CorsOptions, createServer, fetchHandler } from "./index.js";
import { testProtocol } from "./test-protocol.js";

const GetThing = operation("example.cors#GetThing", {
  input: struct<{ id: string; tenant?: string; meta?: Record<string, string> }>("example.cors#GetThingInput", [
    member("id", string, { required: true, httpLabel: true }),
    member("tenant", string, { httpHeader: "X-Tenant" }),
    member("meta", map("example.cors#Meta", member("key", string), member("value", string)), { httpPrefixHeaders: "X-Meta-" }),
  ]),
  output: struct<{ etag?: string }>("example.cors#GetThingOutput", [member("etag", string, { httpHeader: "ETag" })]),
  traits: { http: { method: "GET", uri: "/things/{id}", code: 200 } },
});

function serve(traits: Record<string, unknown>, cors?: CorsOptions | boolean) {
  const Things = service("example.cors#Things", { operations: { getThing: GetThing }, protocols: ["test#json"], auth: ["smithy.api#httpBearerAuth"], traits });
  const server = createServer(Things, { protocols: [testProtocol("test#json")], ...(cors !== undefined ? { cors } : {}) })
    .register({ getThing: (input) => ({ etag: `"${input.id}"` }) })
    .mapService();
  return fetchHandler(server);
}

const preflight = (handle: ReturnType<typeof serve>, origin: string, method = "GET", headers = "x-tenant") =>
  handle(
    new Request("https://api.example.com/things/a", {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
    }),
  );

describe("CORS", () => {
  it("answers a preflight from the @cors trait: methods, the model's request headers and auth headers, max age", async () => {
    const handle = serve({ "smithy.api#cors": { additionalAllowedHeaders: ["X-Extra"], maxAge: 86400 } });
    const response = await preflight(handle, "https://app.example.com", "GET", "x-tenant, x-meta-color, authorization");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET");
    expect(response.headers.get("access-control-max-age")).toBe("86400");
    const allowed = response.headers.get("access-control-allow-headers")!.split(", ");
    expect(allowed).toEqual(expect.arrayContaining(["content-type", "x-tenant", "authorization", "x-extra", "x-meta-color"]));
  });

  it("lets an allowed origin read an answer and its modeled headers", async () => {
    const handle = serve({ "smithy.api#cors": { additionalExposedHeaders: ["X-Trace"] } });
    const response = await handle(new Request("https://api.example.com/things/a", { headers: { origin: "https://app.example.com" } }));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")!.split(", ")).toEqual(expect.arrayContaining(["etag", "x-trace", "x-amzn-requestid"]));
  });

  it("names the origin (and varies on it) when the trait names one, and says nothing to others", async () => {
    const handle = serve({ "smithy.api#cors": { origin: "https://app.example.com" } });
    const ok = await handle(new Request("https://api.example.com/things/a", { headers: { origin: "https://app.example.com" } }));
    expect([ok.headers.get("access-control-allow-origin"), ok.headers.get("vary")]).toEqual(["https://app.example.com", "Origin"]);
    const other = await handle(new Request("https://api.example.com/things/a", { headers: { origin: "https://evil.example" } }));
    expect([other.status, other.headers.get("access-control-allow-origin")]).toEqual([200, null]);
    const refused = await preflight(handle, "https://evil.example");
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers a preflight only for a route that takes the method", async () => {
    const handle = serve({ "smithy.api#cors": {} });
    // Answered as any OPTIONS request is (the test protocol has no 405: a 404), without CORS headers: the browser refuses.
    const wrongMethod = await preflight(handle, "https://app.example.com", "DELETE");
    expect([wrongMethod.status, wrongMethod.headers.get("access-control-allow-methods")]).toEqual([404, null]);
    const unknown = await handle(
      new Request("https://api.example.com/nothing", { method: "OPTIONS", headers: { origin: "https://a.example", "access-control-request-method": "GET" } }),
    );
    expect(unknown.status).toBe(404);
  });

  it("is off without the trait, on with the option, and the option overrides the trait", async () => {
    expect((await preflight(serve({}), "https://app.example.com")).status).toBe(404);
    const on = await preflight(serve({}, { origin: ["https://a.example", "https://app.example.com"], credentials: true }), "https://app.example.com");
    expect([on.status, on.headers.get("access-control-allow-origin"), on.headers.get("access-control-allow-credentials")]).toEqual([
      204,
      "https://app.example.com",
      "true",
    ]);
    expect((await preflight(serve({ "smithy.api#cors": {} }, false), "https://app.example.com")).status).toBe(404);
  });

  it("leaves requests without an Origin alone", async () => {
    const response = await serve({ "smithy.api#cors": {} })(new Request("https://api.example.com/things/a"));
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
