/**
 * The event-stream machinery loads when an operation with an event stream
 * is first served or called (a file of its own, so that nothing loaded it
 * before these tests). Until then the server answers with promises; after,
 * at once, as for any other operation.
 */
import { describe, expect, it } from "vitest";
import type { HttpRequest, UnionValue } from "@anvil/core";
import { integer, member, operation, service, string, struct, union } from "@anvil/core/codegenv1";
import { restJson1 } from "./index.js";

const Tick = struct("example.clock#Tick", [member("n", integer, { eventHeader: true })]);
const Ticks = union("example.clock#Ticks", [member("tick", Tick)], { streaming: true });
const Echo = operation("example.clock#Echo", {
  input: struct("example.clock#EchoInput", [member("id", string, { httpLabel: true, required: true }), member("ticks", Ticks, { httpPayload: true })]),
  output: struct("example.clock#EchoOutput", [member("ticks", Ticks, { httpPayload: true })]),
  traits: { http: { method: "POST", uri: "/echo/{id}", code: 200 } },
});
const Clock = service("example.clock#Clock", { operations: { echo: Echo }, protocols: ["aws.protocols#restJson1"] });

const { client, server } = restJson1();
const serverContext = { service: Clock, labels: { id: "a" } };
const ticks: UnionValue[] = [
  { $case: "tick", value: { n: 1 } },
  { $case: "tick", value: { n: 2 } },
];

function request(body: AsyncIterable<Uint8Array>): HttpRequest {
  return { method: "POST", path: "/echo/a", query: [], headers: new Headers({ "content-type": "application/vnd.amazon.eventstream" }), body };
}

async function collect(iterable: unknown): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const x of iterable as AsyncIterable<unknown>) out.push(x);
  return out;
}

const isPromise = (value: unknown): boolean => typeof (value as { then?: unknown } | null)?.then === "function";

describe("event streams load on first use", () => {
  it("a server's first event-stream answer waits for the machinery, later ones do not", async () => {
    const first = server.serializeResponse(Echo, { ticks }, serverContext);
    expect(isPromise(first)).toBe(true);
    const response = await first;
    expect(response.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");

    const input = server.deserializeRequest(Echo, request(response.body as AsyncIterable<Uint8Array>), serverContext);
    expect(isPromise(input)).toBe(false);
    expect(await collect((input as Record<string, unknown>)["ticks"])).toEqual(ticks);
    expect(isPromise(server.serializeResponse(Echo, { ticks }, serverContext))).toBe(false);
  });

  it("a client's event-stream calls round-trip through the loaded machinery", async () => {
    const sent = await client.serializeRequest(Echo, { id: "a", ticks }, { endpoint: new URL("https://clock.example.com"), service: Clock });
    const input = (await server.deserializeRequest(Echo, request(sent.body as AsyncIterable<Uint8Array>), serverContext)) as Record<string, unknown>;
    expect(await collect(input["ticks"])).toEqual(ticks);
  });
});
