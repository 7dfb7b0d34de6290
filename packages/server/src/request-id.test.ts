import { describe, expect, it } from "vitest";
import { createServer, fetchHandler, type HandlerContext } from "./index.js";
import { testProtocol } from "./test-protocol.js";
import { TestService } from "./test-service.js";

function serve(requestIds = true) {
  const seen: string[] = [];
  const server = createServer(TestService, { protocols: [testProtocol("test#json")], requestIds })
    .register({
      echo: (input: { name: string }, context: HandlerContext) => {
        seen.push(context.requestId);
        return { message: input.name };
      },
      fail: () => {
        throw new Error("boom");
      },
      download: () => ({}),
      upload: () => ({}),
      wait: () => ({}),
    })
    .mapService();
  const handle = fetchHandler(server);
  const post = (path: string, headers: Record<string, string> = {}) =>
    handle(new Request(`https://api.example.com${path}`, { method: "POST", body: "{}", headers: { "content-type": "application/json", ...headers } }));
  return { post, seen };
}

describe("request ids", () => {
  it("makes one per call, hands it to the handler and returns it", async () => {
    const { post, seen } = serve();
    const first = await post("/echo/a");
    const second = await post("/echo/b");
    const ids = [first.headers.get("x-request-id"), second.headers.get("x-request-id")];
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).not.toBe(ids[0]);
    expect(seen).toEqual(ids);
  });

  it("echoes the caller's x-request-id (or x-amzn-requestid), and replaces one it cannot use", async () => {
    const { post, seen } = serve();
    expect((await post("/echo/a", { "x-request-id": "trace-42" })).headers.get("x-request-id")).toBe("trace-42");
    expect((await post("/echo/a", { "x-amzn-requestid": "aws-7" })).headers.get("x-request-id")).toBe("aws-7");
    const odd = await post("/echo/a", { "x-request-id": "has space" });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await post("/echo/a", { "x-request-id": "x".repeat(201) })).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.slice(0, 2)).toEqual(["trace-42", "aws-7"]);
  });

  it("comes back on errors, refusals and unknown routes too", async () => {
    const { post } = serve();
    const failed = await post("/fail", { "x-request-id": "r-500" });
    expect([failed.status, failed.headers.get("x-request-id")]).toEqual([500, "r-500"]);
    const unknown = await post("/nowhere", { "x-request-id": "r-404" });
    expect([unknown.status, unknown.headers.get("x-request-id")]).toEqual([404, "r-404"]);
    const tooBig = await post("/echo/a", { "x-request-id": "r-413", "content-length": String(1 << 30) });
    expect(tooBig.headers.get("x-request-id")).toBe("r-413");
  });

  it("without requestIds, answers carry none, and handlers still have one", async () => {
    const { post, seen } = serve(false);
    const response = await post("/echo/a", { "x-request-id": "kept-for-the-handler" });
    expect(response.headers.get("x-request-id")).toBeNull();
    expect(seen).toEqual(["kept-for-the-handler"]);
  });
});
