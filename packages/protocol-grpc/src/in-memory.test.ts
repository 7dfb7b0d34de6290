/**
 * gRPC through `@anvil/server`'s in-memory transport: the typed client and
 * the server in one process, no socket, with the same answers as over
 * HTTP/2 (anvil-grpc.test.ts): every call kind, a modeled error in the
 * trailers, validation, deadlines and cancellation.
 */
import { createClient } from "@anvil/client-core";
import type { UnmodeledError } from "@anvil/core";
import { createInMemoryTransport, createServer } from "@anvil/server";
import { describe, expect, it } from "vitest";
import { grpc } from "./index.js";
import { greeterHandlers, type Seen } from "./test-handlers.js";
import { type ChatEvent, Greeter, NoSuchName, type TickEvent } from "./test-service.js";

const protocol = grpc();
const seen: Seen = { aborted: [] };
const server = createServer(Greeter, { protocols: [protocol], onInternalError: () => {} })
  .register(greeterHandlers(seen) as never)
  .mapService();
const client = createClient(Greeter, {
  endpoint: "http://in-memory",
  protocols: [protocol],
  transport: createInMemoryTransport(server),
  retry: { maxAttempts: 1 },
});

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

describe("grpc over the in-memory transport", () => {
  it("makes a unary call", async () => {
    expect((await client.sayHello({ name: "ada" })).message).toBe("hello ada");
  });

  it("decodes a modeled error from the trailers into its class", async () => {
    const error = await rejection(client.sayHello({ name: "nobody" }));
    expect(NoSuchName.is(error)).toBe(true);
    expect((error as InstanceType<typeof NoSuchName>).name).toBe("nobody");
  });

  it("answers invalid input with INVALID_ARGUMENT", async () => {
    const error = (await rejection(client.sayHello({ name: "" }))) as UnmodeledError;
    expect(error.code).toBe("INVALID_ARGUMENT");
  });

  it("honours grpc-timeout with DEADLINE_EXCEEDED", async () => {
    const error = (await rejection(client.wait({}, { headers: { "grpc-timeout": "50m" } }))) as UnmodeledError;
    expect(error.code).toBe("DEADLINE_EXCEEDED");
  });

  it("cancels the handler when the caller aborts", async () => {
    const before = seen.aborted.length;
    const controller = new AbortController();
    const call = client.wait({}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("changed my mind")), 50);
    await rejection(call);
    await expect.poll(() => seen.aborted.length).toBeGreaterThan(before);
  });

  it("streams from the server", async () => {
    const out = await client.countdown({ from: 3 });
    const got: number[] = [];
    for await (const event of out.ticks!) if (event.$case === "tick") got.push((event.value as { n: number }).n);
    expect(got).toEqual([3, 2, 1]);
  });

  it("streams from the client", async () => {
    const ticks: TickEvent[] = [1, 2, 3, 4].map((n) => ({ $case: "tick", value: { n } }));
    expect((await client.sum({ ticks: from(ticks) })).total).toBe(10);
  });

  it("streams both ways, each reply following its message", async () => {
    const says = async function* (): AsyncGenerator<ChatEvent> {
      yield { $case: "say", value: { text: "one" } };
      yield { $case: "say", value: { text: "two" } };
    };
    const out = await client.chat({ says: says() });
    const replies: string[] = [];
    for await (const event of out.replies!) replies.push((event.value as { text: string }).text);
    expect(replies).toEqual(["you said one", "you said two"]);
  });
});
