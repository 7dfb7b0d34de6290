/**
 * T4, deadline propagation: a call made inside a handler, given the
 * handler's `deadline` (and signal), inherits what is left of its caller's
 * budget, hop after hop (A → B → C over gRPC, where `grpc-timeout` carries
 * it on the wire), and a hop whose budget is spent is not even sent.
 */
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import type { ServiceSchema } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { grpc } from "@anvil/protocol-grpc";
import { createServer, type HandlerContext } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MODEL = `
$version: "2.0"
namespace test.relay
use alloy.proto#grpc

@grpc
service Relay { version: "1", operations: [Pass] }

/// Passes the call on to the next hop, if any; answers the budget each hop saw, in ms.
operation Pass {
    input := { hops: Integer, spend: Integer }
    output := { budgets: Budgets }
}

list Budgets { member: Long }
`;
const Relay = schemasFromModel(loadModel({ sources: [{ file: "relay.smithy", text: MODEL }] }).model).service("test.relay#Relay") as ServiceSchema;

interface PassInput {
  readonly hops?: number;
  readonly spend?: number;
}
type RelayClient = {
  pass(input: PassInput, options?: { signal?: AbortSignal; deadline?: number | undefined; timeoutMs?: number }): Promise<{ budgets?: number[] }>;
};

const transport = http2Transport();
let listener: NodeListener;
const client = () => createClient(Relay, { endpoint: listener.url, protocols: [grpc()], transport, retry: { maxAttempts: 1 } }) as unknown as RelayClient;

beforeAll(async () => {
  const server = createServer(Relay, { protocols: [grpc()] })
    .register({
      async pass(input: PassInput, context: HandlerContext) {
        const budget = context.deadline === undefined ? -1 : context.deadline - Date.now();
        if (input.spend) await new Promise((resolve) => setTimeout(resolve, input.spend));
        if (!input.hops) return { budgets: [budget] };
        // The next hop gets what is left of this one's budget.
        const next = await client().pass({ hops: input.hops - 1, spend: input.spend ?? 0 }, { signal: context.signal, deadline: context.deadline });
        return { budgets: [budget, ...(next.budgets ?? [])] };
      },
    })
    .mapService();
  listener = await listen(server, { http2: true });
});
afterAll(async () => {
  await transport.close();
  await listener.close({ graceMs: 100 });
});

describe("deadline propagation", () => {
  it("T4: A → B → C with a 5 s budget: each hop sees less than the one before, and more than nothing", async () => {
    // A budget a loaded machine cannot spend by accident; each hop spends 20 ms of it on purpose.
    const { budgets } = await client().pass({ hops: 2, spend: 20 }, { timeoutMs: 5_000 });
    expect(budgets).toHaveLength(3);
    const [a, b, c] = budgets!;
    expect(a).toBeLessThanOrEqual(5_000);
    // Each hop spent its 20 ms before calling the next (grpc-timeout rounds up to whole milliseconds).
    expect(b).toBeLessThan(a! - 15);
    expect(c).toBeLessThan(b! - 15);
    expect(c).toBeGreaterThan(0);
  });

  it("T4: a hop whose budget runs out fails with DEADLINE_EXCEEDED at the caller, in about the budget", async () => {
    const started = Date.now();
    const error = (await client()
      .pass({ hops: 2, spend: 80 }, { timeoutMs: 120 })
      .catch((e: unknown) => e)) as { code?: string };
    expect(["DEADLINE_EXCEEDED", "RequestTimeout"]).toContain(error.code);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("T4: a deadline that has passed sends nothing and times out at once", async () => {
    const error = (await client()
      .pass({}, { deadline: Date.now() - 1 })
      .catch((e: unknown) => e)) as { code?: string };
    expect(error.code).toBe("RequestTimeout");
  });
});
