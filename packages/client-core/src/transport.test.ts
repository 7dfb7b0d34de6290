import { describe, expect, it } from "vitest";
import { requestUrl } from "./transport.js";

describe("requestUrl", () => {
  const endpoint = new URL("https://api.example.com:8443/base");
  const request = { method: "GET", path: "/base/a%20b", headers: new Headers(), body: undefined };

  it("joins scheme, host, the encoded path and an RFC 3986 query", () => {
    const url = requestUrl(endpoint, {
      ...request,
      query: [
        ["q", "a b&c=d"],
        ["q", "(x)*!'"],
        ["empty", ""],
      ],
    });
    expect(url.href).toBe("https://api.example.com:8443/base/a%20b?q=a%20b%26c%3Dd&q=%28x%29%2A%21%27&empty=");
  });

  it("sends to the request's host (an @endpoint host prefix)", () => {
    expect(requestUrl(endpoint, { ...request, query: [], host: "tenant.api.example.com:8443" }).href).toBe("https://tenant.api.example.com:8443/base/a%20b");
  });
});
