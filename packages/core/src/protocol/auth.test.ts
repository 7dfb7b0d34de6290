import { describe, expect, it } from "vitest";
import { operation, service, struct } from "../codegenv1.js";
import { effectiveAuth, httpApiKeyTrait } from "./auth.js";

const op = (traits: Record<string, unknown> = {}) => operation("ex#Op", { input: struct("ex#In", []), output: struct("ex#Out", []), traits });
const svc = (traits: Record<string, unknown>, auth: string[] = []) => service("ex#Svc", { operations: {}, auth, traits });

describe("effectiveAuth", () => {
  it("takes the operation's @auth, else the service's, else its auth traits alphabetically", () => {
    const s = svc({ "smithy.api#httpBearerAuth": {}, "smithy.api#httpBasicAuth": {} }, ["smithy.api#httpBearerAuth", "smithy.api#httpBasicAuth"]);
    expect(effectiveAuth(s, op())).toEqual({ schemes: ["smithy.api#httpBasicAuth", "smithy.api#httpBearerAuth"], optional: false });
    expect(effectiveAuth({ ...s, traits: { ...s.traits, "smithy.api#auth": ["smithy.api#httpBearerAuth"] } }, op()).schemes).toEqual([
      "smithy.api#httpBearerAuth",
    ]);
    expect(effectiveAuth(s, op({ auth: ["smithy.api#httpBasicAuth"] })).schemes).toEqual(["smithy.api#httpBasicAuth"]);
  });

  it("makes credentials optional with @optionalAuth, noAuth in the list, or no scheme at all", () => {
    const s = svc({ "smithy.api#httpBearerAuth": {} }, ["smithy.api#httpBearerAuth"]);
    expect(effectiveAuth(s, op({ optionalAuth: true }))).toEqual({ schemes: ["smithy.api#httpBearerAuth"], optional: true });
    expect(effectiveAuth(s, op({ auth: ["smithy.api#httpBearerAuth", "smithy.api#noAuth"] }))).toEqual({
      schemes: ["smithy.api#httpBearerAuth"],
      optional: true,
    });
    expect(effectiveAuth(s, op({ auth: [] }))).toEqual({ schemes: [], optional: true });
  });
});

describe("httpApiKeyTrait", () => {
  it("reads a well-formed @httpApiKeyAuth, and nothing else", () => {
    expect(httpApiKeyTrait(svc({ "smithy.api#httpApiKeyAuth": { name: "x-api-key", in: "header" } }))).toEqual({ name: "x-api-key", in: "header" });
    expect(httpApiKeyTrait(svc({ "smithy.api#httpApiKeyAuth": { name: "Authorization", in: "header", scheme: "ApiKey" } }))?.scheme).toBe("ApiKey");
    expect(httpApiKeyTrait(svc({ "smithy.api#httpApiKeyAuth": { name: "key", in: "cookie" } }))).toBeUndefined();
    expect(httpApiKeyTrait(svc({}))).toBeUndefined();
  });
});
