/**
 * T3, over HTTP: a call whose deadline passes (the server's `maxDeadlineMs`
 * here; a Lambda's time left works the same way) is answered 504
 * `DeadlineExceeded` on every HTTP protocol, as gRPC's DEADLINE_EXCEEDED
 * maps to HTTP, not with a 500 that would say the server failed; the
 * handler's signal aborts; the client sees the status and the code.
 */
import { createClient } from "@anvil/client-core";
import type { ServiceSchema } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { createServer } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** One service per protocol (several protocols could not route the same operation on one server). */
const PROTOCOLS = { restJson1: restJson1(), awsJson1_0: awsJson1_0(), awsJson1_1: awsJson1_1(), rpcv2Cbor: rpcv2Cbor(), simpleRestJson: simpleRestJson() };
const TRAITS = {
  restJson1: "aws.protocols#restJson1",
  awsJson1_0: "aws.protocols#awsJson1_0",
  awsJson1_1: "aws.protocols#awsJson1_1",
  rpcv2Cbor: "smithy.protocols#rpcv2Cbor",
  simpleRestJson: "alloy#simpleRestJson",
};
type Name = keyof typeof PROTOCOLS;
const NAMES = Object.keys(PROTOCOLS) as Name[];

const MODEL = `
$version: "2.0"
namespace test.deadline
${NAMES.map((name) => `@${TRAITS[name]}\nservice Slow_${name} { version: "1", operations: [Think] }`).join("\n")}

@readonly
@http(method: "GET", uri: "/think")
operation Think { output := { answer: Integer } }
`;
const schemas = schemasFromModel(loadModel({ sources: [{ file: "slow.smithy", text: MODEL }] }).model);
const service = (name: Name) => schemas.service(`test.deadline#Slow_${name}`) as ServiceSchema;

const listeners = new Map<Name, NodeListener>();
let aborted = 0;
beforeAll(async () => {
  for (const name of NAMES) {
    const server = createServer(service(name), { protocols: [PROTOCOLS[name].server], maxDeadlineMs: 50 })
      .register({
        // Thinks until told to stop.
        think: (_input: unknown, { signal }: { signal: AbortSignal }) =>
          new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true })).finally(() => aborted++),
      })
      .mapService();
    listeners.set(name, await listen(server));
  }
});
afterAll(() => Promise.all([...listeners.values()].map((listener) => listener.close({ graceMs: 0 }))));

describe("a deadline that passes, over HTTP", () => {
  it.each(NAMES)("T3: %s answers 504 DeadlineExceeded, and the handler's signal aborts", async (name) => {
    const client = createClient(service(name), {
      endpoint: listeners.get(name)!.url,
      protocols: [PROTOCOLS[name]],
      retry: { maxAttempts: 1 },
    }) as unknown as { think(input: object): Promise<unknown> };
    const abortedBefore = aborted;
    const error = await client.think({}).then(
      () => undefined,
      (e: { name?: string; code?: string; $metadata?: { httpStatus?: number } }) => e,
    );
    expect({ status: error?.$metadata?.httpStatus, code: error?.code ?? error?.name }).toEqual({ status: 504, code: "DeadlineExceeded" });
    expect(aborted).toBeGreaterThan(abortedBefore);
  });
});
