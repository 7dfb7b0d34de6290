/**
 * Anvil client ↔ Anvil server over h2c, every call kind, errors, deadlines,
 * cancellation, metadata and limits, with the protobuf codec.
 */
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { ModeledError, UnmodeledError } from "@anvil/core";
import { createServer } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpc } from "./index.js";
import { greeterHandlers, type Seen } from "./test-handlers.js";
import { type ChatEvent, type ChunkEvent, Greeter, NoSuchName, type TickEvent } from "./test-service.js";

const protocol = grpc();
const seen: Seen = { aborted: [] };
/** What the server's onInternalError heard. */
const internal: unknown[] = [];
let listener: NodeListener;
const transport = http2Transport();

beforeAll(async () => {
  const server = createServer(Greeter, { protocols: [protocol], onInternalError: (error) => internal.push(error) })
    .register(greeterHandlers(seen) as never)
    .mapService();
  listener = await listen(server, { http2: true });
});
afterAll(async () => {
  await transport.close();
  await listener.close({ graceMs: 100 });
});

const client = () => createClient(Greeter, { endpoint: listener.url, protocols: [protocol], transport, retry: { maxAttempts: 1 } });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

async function* from<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

describe("grpc: Anvil client and server", () => {
  it("makes a unary call, with custom metadata in", async () => {
    const out = await client().sayHello({ name: "ada" }, { headers: { "x-tenant": "blue", "trace-bin": "AAH+/w==" } });
    expect(out.message).toBe("hello ada");
    expect(seen.headers?.get("x-tenant")).toBe("blue");
    expect(seen.headers?.get("trace-bin")).toBe("AAH+/w==");
    expect(seen.headers?.get("te")).toBe("trailers");
  });

  it("carries custom metadata out: response headers the handler adds reach the client", async () => {
    let served: string | null = null;
    const watching = createClient(Greeter, {
      endpoint: listener.url,
      protocols: [protocol],
      transport,
      interceptors: [{ afterAttempt: (result) => void (served = result.response?.headers.get("x-served-by") ?? null) }],
    });
    await watching.sayHello({ name: "ada" });
    expect(served).toBe("anvil");
  });

  it("makes its own HTTP/2 session when given no transport", async () => {
    const own = createClient(Greeter, { endpoint: listener.url, protocols: [protocol] });
    expect((await own.sayHello({ name: "self" })).message).toBe("hello self");
  });

  it("decodes a modeled error from grpc-status-details-bin into its class", async () => {
    const error = await rejection(client().sayHello({ name: "nobody" }));
    expect(NoSuchName.is(error)).toBe(true);
    expect(error).toBeInstanceOf(NoSuchName);
    expect((error as InstanceType<typeof NoSuchName>).name).toBe("nobody");
    expect((error as Error).message).toBe("no such name");
  });

  it("answers invalid input with INVALID_ARGUMENT and the ValidationException fields", async () => {
    const error = (await rejection(client().sayHello({ name: "" }))) as UnmodeledError;
    expect(UnmodeledError.is(error)).toBe(true);
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toMatch(/validation error/);
  });

  it("answers an unmodeled failure with INTERNAL and no internals", async () => {
    const error = (await rejection(client().fail({}))) as UnmodeledError;
    expect(error.code).toBe("INTERNAL");
    expect(error.message).not.toMatch(/password/);
  });

  it("honours grpc-timeout: the handler's signal aborts and the call fails DEADLINE_EXCEEDED", async () => {
    const sent = Date.now();
    const error = (await rejection(client().wait({}, { headers: { "grpc-timeout": "100m" } }))) as UnmodeledError;
    expect(error.code).toBe("DEADLINE_EXCEEDED");
    // The handler's context says when: about 100 ms after the call was sent.
    expect(seen.deadline).toBeGreaterThanOrEqual(sent + 100);
    expect(seen.deadline).toBeLessThan(sent + 1_000);
    await expect.poll(() => seen.aborted.some((m) => /deadline/.test(m))).toBe(true);
  });

  it("sends the client's timeout as grpc-timeout, and the call fails when it passes", async () => {
    const before = seen.aborted.length;
    const error = await rejection(client().wait({}, { timeoutMs: 150 }));
    expect(ModeledError.isModeledError(error)).toBe(false);
    // Whichever comes first, the server's deadline or the client's cancellation, the handler hears of it.
    await expect.poll(() => seen.aborted.length).toBeGreaterThan(before);
  });

  it("H3: cancels a call when the caller aborts: the handler's signal fires", async () => {
    const before = seen.aborted.length;
    const controller = new AbortController();
    const call = client().wait({}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("changed my mind")), 100);
    await rejection(call);
    await expect.poll(() => seen.aborted.length).toBeGreaterThan(before);
  });

  it("moves a 4 MiB message, and refuses one over the limit with RESOURCE_EXHAUSTED", async () => {
    const limit = 4 * 1024 * 1024;
    // Field 1's tag and a 4-byte length, then the bytes: a message of exactly 4 MiB.
    const fits = new Uint8Array(limit - 5).fill(7);
    expect((await client().echo({ data: fits })).size).toBe(fits.byteLength);
    const error = (await rejection(client().echo({ data: new Uint8Array(limit - 4).fill(7) }))) as UnmodeledError;
    expect(error.code).toBe("RESOURCE_EXHAUSTED");
  });

  it("streams from the server, ending with the trailers' status", async () => {
    const out = await client().countdown({ from: 3 });
    const got: number[] = [];
    for await (const event of out.ticks!) if (event.$case === "tick") got.push((event.value as { n: number }).n);
    expect(got).toEqual([3, 2, 1]);
  });

  it("fails a server stream with the modeled error of its trailers after its events", async () => {
    const out = await client().countdown({ from: -2 });
    const got: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of out.ticks!) if (event.$case === "tick") got.push((event.value as { n: number }).n);
      })(),
    );
    expect(got).toEqual([2, 1]);
    expect(NoSuchName.is(error)).toBe(true);
  });

  it("fails a server stream that throws an undeclared modeled error with INTERNAL, leaking nothing", async () => {
    const out = await client().countdown({ from: -99 });
    const error = (await rejection(
      (async () => {
        for await (const _event of out.ticks!);
      })(),
    )) as UnmodeledError;
    expect([error.code, error.message]).toEqual(["INTERNAL", "Internal failure"]);
    // The server's log hears what the caller does not.
    expect(internal.at(-1)).toMatchObject({ message: "secret detail" });
  });

  it("H7: respects back-pressure from the caller: the server's events are produced as they are read", async () => {
    const out = await client().download({ count: 400 });
    const iterator = out.chunks![Symbol.asyncIterator]();
    await iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // 400 chunks of 16 KiB are 6.4 MiB; the HTTP/2 window and the buffers hold a few hundred KiB at most.
    expect(seen.produced).toBeLessThan(60);
    let read = 1;
    while (!(await iterator.next()).done) read++;
    expect([read, seen.produced]).toEqual([400, 400]);
  });

  it("respects back-pressure from the handler: the caller's events are pulled as the handler reads them", async () => {
    let sent = 0;
    async function* chunks(): AsyncGenerator<ChunkEvent> {
      for (let i = 0; i < 60; i++) {
        sent++;
        yield { $case: "chunk", value: { data: new Uint8Array(16 * 1024) } };
      }
    }
    const call = client().upload({ chunks: chunks() });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The handler reads one chunk per 20 ms: after 300 ms it has read about 15, and the sender is not far ahead.
    expect(sent - (seen.consumed ?? 0)).toBeLessThan(30);
    expect((await call).count).toBe(60);
  });

  it("streams from the client", async () => {
    const ticks: TickEvent[] = [1, 2, 3, 4].map((n) => ({ $case: "tick", value: { n } }));
    expect((await client().sum({ ticks: from(ticks) })).total).toBe(10);
  });

  it("streams both ways, each reply following its message", async () => {
    const says = async function* (): AsyncGenerator<ChatEvent> {
      yield { $case: "say", value: { text: "one" } };
      yield { $case: "say", value: { text: "two" } };
    };
    const out = await client().chat({ says: says() });
    const replies: string[] = [];
    for await (const event of out.replies!) replies.push((event.value as { text: string }).text);
    expect(replies).toEqual(["you said one", "you said two"]);
  });
});

describe("grpc server: streams after their call", () => {
  it("leaves no listener of its own on a closed stream (Node keeps those until a full collection)", async () => {
    const streams: import("node:http2").ServerHttp2Stream[] = [];
    const capture = (stream: import("node:http2").ServerHttp2Stream) => streams.push(stream);
    listener.server.on("stream", capture);
    try {
      // A unary call (body taken whole, trailers sent on `wantTrailers`) and a client stream (read as it comes).
      expect((await client().sayHello({ name: "ada" })).message).toBe("hello ada");
      expect(
        (
          await client().sum({
            ticks: from([
              { $case: "tick", value: { n: 1 } },
              { $case: "tick", value: { n: 2 } },
            ]),
          })
        ).total,
      ).toBe(3);
      await expect.poll(() => streams.length === 2 && streams.every((s) => s.closed)).toBe(true);
      // Node's own listeners are its symbol-named methods (`[kMaybeDestroy]`).
      const ours = ["close", "data", "end", "wantTrailers"]
        .flatMap((event) => streams.flatMap((s) => s.listeners(event)))
        .filter((l) => !l.name.startsWith("["));
      expect(ours).toEqual([]);
    } finally {
      listener.server.off("stream", capture);
    }
  });
});
