import { describe, expect, it } from "vitest";
import { type AccessLogEntry, createServer, type FetchInfo, fetchHandler, type HandlerContext } from "./index.js";
import { testProtocol } from "./test-protocol.js";
import { TestService } from "./test-service.js";

/**
 * A server whose protocol asks for `asked` ms (as gRPC's grpc-timeout does), and whose `wait` takes `takes` ms;
 * it notes the budget and the request id each call's handler saw.
 */
function serve(
  asked: number | undefined,
  takes: number,
  options: { maxDeadlineMs?: number; requestIds?: boolean; accessLog?: (entry: AccessLogEntry) => void } = {},
  info: FetchInfo = {},
) {
  const deadlines: (number | undefined)[] = [];
  const requestIds: string[] = [];
  const protocol = { ...testProtocol("test#json"), deadline: () => asked };
  const server = createServer(TestService, { protocols: [protocol], ...options })
    .register({
      echo: () => ({ message: "" }),
      fail: () => ({}),
      download: () => ({}),
      upload: () => ({}),
      wait: (_input: unknown, context: HandlerContext) => {
        deadlines.push(context.deadline === undefined ? undefined : context.deadline - Date.now());
        requestIds.push(context.requestId);
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({}), takes);
          context.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(context.signal.reason);
          });
        });
      },
    })
    .mapService();
  const call = () =>
    fetchHandler(server)(new Request("https://api.example.com/wait", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }), info);
  return { call, deadlines, requestIds };
}

describe("deadlines", () => {
  it("T3: a deadline beyond setTimeout's 2^31 - 1 ms (grpc-timeout: 2147484S) does not expire at once", async () => {
    const { call, deadlines } = serve(2_147_484_000, 30);
    expect((await call()).status).toBe(200);
    expect(deadlines[0]).toBeGreaterThan(2 ** 31 - 10_000);
    // The largest grpc-timeout there is: 99999999H.
    expect((await serve(99_999_999 * 3_600_000, 30).call()).status).toBe(200);
  });

  it("T3: maxDeadlineMs shortens a longer deadline, and gives one to calls that ask for none", async () => {
    const capped = serve(60_000, 5_000, { maxDeadlineMs: 40 });
    expect((await capped.call()).status).toBe(500); // the test protocol's answer to the deadline's error
    expect(capped.deadlines[0]).toBeLessThanOrEqual(40);
    const none = serve(undefined, 5_000, { maxDeadlineMs: 40 });
    expect((await none.call()).status).toBe(500);
    expect(none.deadlines[0]).toBeLessThanOrEqual(40);
    // A shorter deadline the caller asked for is kept.
    const shorter = serve(20, 5_000, { maxDeadlineMs: 60_000 });
    expect((await shorter.call()).status).toBe(500);
    expect(shorter.deadlines[0]).toBeLessThanOrEqual(20);
    expect(() => serve(undefined, 0, { maxDeadlineMs: 0 }).call()).toThrow(/maxDeadlineMs must be a positive number/);
  });

  it("runs a call under the host's deadline (FetchInfo.deadline, a Lambda's time left), or the protocol's when that is sooner", async () => {
    const host = serve(undefined, 5_000, {}, { deadline: Date.now() + 30 });
    expect((await host.call()).status).toBe(500);
    expect(host.deadlines[0]).toBeLessThanOrEqual(30);
    // The protocol asks for less than the host gives: the protocol's stands.
    const sooner = serve(20, 5_000, {}, { deadline: Date.now() + 60_000 });
    expect((await sooner.call()).status).toBe(500);
    expect(sooner.deadlines[0]).toBeLessThanOrEqual(20);
    // A host deadline far off leaves a quick call alone, and the handler sees it; through the access log too.
    const logged: AccessLogEntry[] = [];
    const far = serve(undefined, 0, { accessLog: (entry) => logged.push(entry) }, { deadline: Date.now() + 60_000 });
    expect((await far.call()).status).toBe(200);
    expect(far.deadlines[0]).toBeGreaterThan(50_000);
    expect(logged.map((e) => e.status)).toEqual([200]);
    // A deadline already past answers at once.
    expect((await serve(undefined, 5_000, {}, { deadline: Date.now() - 1 }).call()).status).toBe(500);
  });

  it("keeps the call's request id when its deadline passes (the answer and the handler agree)", async () => {
    // Every call gets 20 ms, as gRPC's grpc-timeout gives it; the handler waits until the deadline aborts it.
    const { call, requestIds } = serve(20, 5_000, { requestIds: true });
    const response = await call();
    // The test protocol answers a TransportError (the deadline's) as its leak-free 500; gRPC answers DEADLINE_EXCEEDED.
    expect(response.status).toBe(500);
    expect(requestIds).toHaveLength(1);
    expect(response.headers.get("x-request-id")).toBe(requestIds[0]);
  });
});
