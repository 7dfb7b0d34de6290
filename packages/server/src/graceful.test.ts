/**
 * L1: when the grace period of a close ends, a call still waiting for its
 * body is answered 503 (with its connection closed), not cut or reset,
 * over HTTP/1.1 and HTTP/2.
 */
import * as http from "node:http";
import * as http2 from "node:http2";
import { describe, expect, it } from "vitest";
import { listen } from "./node-entry.js";
import { testServer } from "./test-service.js";

describe("graceful close", () => {
  it("L1: over HTTP/1.1, a request still sending its body when the grace period ends gets a 503", async () => {
    const { server } = testServer();
    const listener = await listen(server);
    const answered = new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${listener.url}/echo/a`,
        { method: "POST", headers: { "content-type": "application/json", "content-length": "100" } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on("error", reject);
      req.write('{"text":'); // and nothing more
    });
    await expect.poll(() => server.inFlight).toBe(1);
    const started = Date.now();
    await listener.close({ graceMs: 100 });
    expect(await answered).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("L1: over HTTP/2, a stream still sending its body when the grace period ends gets a 503", async () => {
    const { server } = testServer();
    const listener = await listen(server, { http2: true });
    const session = http2.connect(listener.url);
    session.on("error", () => {});
    const stream = session.request({ ":method": "POST", ":path": "/echo/a", "content-type": "application/json" }, { endStream: false });
    stream.on("error", () => {});
    const status = new Promise<number | undefined>((resolve) => {
      stream.on("response", (headers) => resolve(headers[":status"]));
      stream.on("close", () => resolve(undefined));
    });
    stream.write('{"text":'); // and nothing more
    await expect.poll(() => server.inFlight).toBe(1);
    await listener.close({ graceMs: 100 });
    expect(await status).toBe(503);
    session.destroy();
  });
});
