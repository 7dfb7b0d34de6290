/**
 * Generated paginators and waiters against a real server over loopback, on
 * restJson1, awsJson1_0 and rpcv2Cbor: a model with nested token and item
 * paths, service defaults, page sizes, a map token, map items, a server
 * that repeats its token, and waiters using every matcher kind and
 * comparator over a handler whose state moves on at every call. Waiting
 * takes no time: the waiters get a clock whose sleep only advances it.
 */
import { createClient, PaginationError, WaiterError } from "@anvil/client-core";
import { ModeledError, TransportError, UnmodeledError } from "@anvil/core";
import { awsJson1_0 } from "@anvil/protocol-awsjson";
import { restJson1 } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { createServer, type HandlerContext } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateInto, loadOrThrow, PACKAGE_ROOT, scratchDir, typeCheck } from "./generate/test-support.js";

const MODEL = join(PACKAGE_ROOT, "src", "__fixtures__", "paging");
const PROTOCOLS = [restJson1(), awsJson1_0(), rpcv2Cbor()];
const PROTOCOL_IDS = ["aws.protocols#restJson1", "aws.protocols#awsJson1_0", "smithy.protocols#rpcv2Cbor"];

type Fn = (...args: any[]) => any;
let dir: string;
let listener: NodeListener;
let generated: { Jobs: any; client: Record<string, Fn>; fakes: Record<string, any>; shapes: Record<string, any> };

// ---------------------------------------------------------------------------
// The server: five jobs to list, labels, a scan, and jobs whose state moves on.
// ---------------------------------------------------------------------------

const JOBS = ["j1", "j2", "j3", "j4", "j5"];
const LABELS: [string, number][] = [
  ["a", 1],
  ["b", 2],
  ["c", 3],
  ["d", 4],
  ["e", 5],
];
/** What each list call received, per protocol run (cleared by each test). */
const received: Record<string, unknown>[] = [];
/** Calls to getJob so far, by job id: the state each job is in. */
const calls = new Map<string, number>();
let arrived: (() => void) | undefined;

function jobScript(jobId: string, n: number, notFound: () => never): Record<string, unknown> {
  const job = (fields: Record<string, unknown>) => ({ job: { id: jobId, status: "RUNNING", ...fields } });
  switch (jobId) {
    case "late":
      return n <= 2 ? notFound() : job({ status: n >= 4 ? "DONE" : "RUNNING" });
    case "fails":
      return job(n >= 2 ? { status: "FAILED", reason: "disk full" } : {});
    case "steps":
      return job({
        steps: [
          { name: "build", state: "finished" },
          { name: "test", state: n >= 2 ? "finished" : "running" },
        ],
      });
    case "broken":
      return job({
        steps: [
          { name: "build", state: "finished" },
          { name: "test", state: n >= 2 ? "broken" : "running" },
        ],
      });
    case "nosteps":
      return job({ steps: [] });
    case "ready":
      return job({ ready: n >= 2 });
    case "gone":
      return n >= 3 ? notFound() : job({});
    case "renamed":
      return { job: { id: "other", status: "RUNNING" } };
    case "rich":
      return job({
        history:
          n >= 2
            ? [{ kind: { $case: "ok", value: 1 } }, { kind: { $case: "error", value: "x" } }, { kind: { $case: "ok", value: 2 } }]
            : [{ kind: { $case: "ok", value: 1 } }],
        updatedAt: new Date("2024-06-01T00:00:00Z"),
        digest: Uint8Array.of(1, 2, 3),
        labels: n >= 2 ? ["silver", "gold"] : ["silver"],
      });
    case "crash":
      throw new Error("the handler broke");
    default:
      return job({});
  }
}

function handler(shapes: Record<string, any>) {
  return {
    async listJobs(input: { cursor?: string; limit?: number; mode?: string }, context: HandlerContext) {
      received.push(input);
      if (input.mode === "hang") {
        arrived?.();
        await new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }));
        return { page: { jobs: [] } };
      }
      const limit = input.limit ?? 2;
      if (input.mode === "loop") return { page: { next: "again", jobs: [{ id: "j1" }] } };
      const offset = input.cursor === undefined ? 0 : Number(input.cursor);
      const page = JOBS.slice(offset, offset + limit);
      const end = offset + page.length;
      const next = end < JOBS.length ? String(end) : input.mode === "empty" ? "" : undefined;
      return { page: { jobs: page.map((id) => ({ id })), ...(next === undefined ? {} : { next }) } };
    },
    async listLabels(input: { nextToken?: string; maxResults?: number }) {
      received.push(input);
      const offset = input.nextToken === undefined ? 0 : Number(input.nextToken);
      const page = LABELS.slice(offset, offset + (input.maxResults ?? 2));
      const end = offset + page.length;
      return { labels: Object.fromEntries(page), ...(end < LABELS.length ? { nextToken: String(end) } : {}) };
    },
    async scanJobs(input: { startKey?: Record<string, string> }) {
      received.push(input);
      const after = input.startKey?.after;
      const offset = after === undefined ? 0 : JOBS.indexOf(after) + 1;
      const page = JOBS.slice(offset, offset + 2);
      const end = offset + page.length;
      // The last page answers an empty map: no more pages.
      return { ids: page, lastKey: end < JOBS.length ? { after: page.at(-1)!, shard: "0" } : {} };
    },
    async getJob({ jobId }: { jobId: string }) {
      const n = (calls.get(jobId) ?? 0) + 1;
      calls.set(jobId, n);
      return jobScript(jobId, n, () => {
        throw new shapes.JobNotFound({ message: `no job ${jobId}` });
      });
    },
  };
}

/** A clock whose sleep only moves it on: waiting takes no time, and the delays asked for are recorded. */
function fakeClock(onSleep?: (count: number) => void) {
  const state = { t: 1_000_000, sleeps: [] as number[] };
  return {
    state,
    clock: {
      now: () => state.t,
      random: () => 0.5,
      sleep: async (ms: number, signal?: AbortSignal) => {
        state.sleeps.push(ms);
        state.t += ms;
        onSleep?.(state.sleeps.length);
        if (signal?.aborted) throw signal.reason;
      },
    },
  };
}

beforeAll(async () => {
  dir = scratchDir("paginators-waiters");
  const result = generateInto(dir, loadOrThrow([MODEL]), { client: true, server: true, generateFakes: true });
  expect(result.events.filter((e) => e.severity === "ERROR")).toEqual([]);
  const service = (await import(join(dir, "jobs.ts"))) as { Jobs: any };
  generated = {
    Jobs: service.Jobs,
    client: await import(join(dir, "jobs.client.ts")),
    fakes: await import(join(dir, "jobs.fakes.ts")),
    shapes: await import(join(dir, "example.paging.shapes.ts")),
  };
  const server = createServer(generated.Jobs, { protocols: PROTOCOLS })
    .register(handler(generated.shapes) as never)
    .mapService(...PROTOCOL_IDS);
  listener = await listen(server, { port: 0 });
}, 60_000);

afterAll(async () => {
  await listener?.close({ graceMs: 0 });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe.each(PROTOCOL_IDS.map((p) => [p]))("over %s", (protocol) => {
  const client = () => createClient(generated.Jobs, { endpoint: listener.url, protocols: PROTOCOLS, protocol, retry: { maxAttempts: 1 } });
  const fn = (name: string) => generated.client[name]!;

  describe("paginators", () => {
    it("follow a nested token, sending the page size on every call, and give the pages as they are", async () => {
      received.length = 0;
      const pages = await collect(fn("paginateListJobs")(client(), {}, { pageSize: 2 }));
      expect(pages.map((p: any) => p.page.jobs.map((j: any) => j.id))).toEqual([["j1", "j2"], ["j3", "j4"], ["j5"]]);
      expect(pages.map((p: any) => p.page.next)).toEqual(["2", "4", undefined]);
      expect(received).toEqual([{ limit: 2 }, { limit: 2, cursor: "2" }, { limit: 2, cursor: "4" }]);
    });

    it("yield the items across pages from a nested items path, the page size from the input", async () => {
      received.length = 0;
      const items = await collect(fn("paginateListJobs")(client(), { limit: 3 }).items());
      expect(items).toEqual(JOBS.map((id) => ({ id })));
      expect(received).toEqual([{ limit: 3 }, { limit: 3, cursor: "3" }]);
    });

    it("stop at an empty token", async () => {
      const pages = await collect(fn("paginateListJobs")(client(), { mode: "empty", limit: 5 }));
      expect(pages).toHaveLength(1);
    });

    it("start from a token the input gives", async () => {
      const items = await collect(fn("paginateListJobs")(client(), { cursor: "3" }).items());
      expect(items).toEqual([{ id: "j4" }, { id: "j5" }]);
    });

    it("reject a token the service sends again instead of looping, or end there when asked", async () => {
      const error = await rejection(collect(fn("paginateListJobs")(client(), { mode: "loop" })));
      expect(PaginationError.is(error)).toBe(true);
      expect(error.code).toBe("RepeatedToken");
      const pages = await collect(fn("paginateListJobs")(client(), { mode: "loop" }, { stopOnSameToken: true }));
      expect(pages).toHaveLength(2);
    });

    it("take the service's tokens and page size, and give a map's entries as items", async () => {
      received.length = 0;
      const items = await collect(fn("paginateListLabels")(client(), {}, { pageSize: 2 }).items());
      expect(items).toEqual(LABELS);
      expect(received).toEqual([{ maxResults: 2 }, { maxResults: 2, nextToken: "2" }, { maxResults: 2, nextToken: "4" }]);
    });

    it("pass a map token on, and stop at an empty map", async () => {
      received.length = 0;
      const ids = await collect(fn("paginateScanJobs")(client()).items());
      expect(ids).toEqual(JOBS);
      expect(received).toEqual([{}, { startKey: { after: "j2", shard: "0" } }, { startKey: { after: "j4", shard: "0" } }]);
    });

    it("refuse a page size where the operation has none", () => {
      expect(() => fn("paginateScanJobs")(client(), {}, { pageSize: 2 })).toThrow(PaginationError);
    });

    it("stop when the signal aborts: the call in flight is aborted", async () => {
      const controller = new AbortController();
      const here = new Promise<void>((resolve) => (arrived = resolve));
      const iteration = collect(fn("paginateListJobs")(client(), { mode: "hang" }, { signal: controller.signal }));
      await here;
      controller.abort();
      const error = await rejection(iteration);
      expect(TransportError.is(error)).toBe(true);
      expect(error.code).toBe("RequestAborted");
      // An aborted signal stops before the first call.
      const before = received.length;
      await expect(collect(fn("paginateListJobs")(client(), {}, { signal: AbortSignal.abort() }))).rejects.toThrow(/aborted/);
      expect(received.length).toBe(before);
    });
  });

  describe("waiters", () => {
    const wait = (name: string, jobId: string, options: Record<string, unknown> = {}) => {
      calls.delete(jobId);
      const time = fakeClock();
      const promise = fn(name)(client(), { jobId }, { maxWaitTime: 300, clock: time.clock, ...options });
      return { promise, time };
    };

    it("output stringEquals: retries a modeled error (relative errorType), then an unmatched output, until success", async () => {
      const { promise, time } = wait("waitUntilJobDone", "late");
      const result = await promise;
      expect(result.state).toBe("success");
      expect(result.attempts).toBe(4);
      expect(result.output.job.status).toBe("DONE");
      // The specification's backoff: 2 s, then between 2 and 4 (jitter 0.5: 3), then between 2 and 8 (5).
      expect(time.state.sleeps).toEqual([2000, 3000, 5000]);
    });

    it("a failure acceptor rejects with its message and the last output", async () => {
      const error = await rejection(wait("waitUntilJobDone", "fails").promise);
      expect(WaiterError.is(error)).toBe(true);
      expect(error).toMatchObject({ state: "failure", code: "WaiterFailure", waiter: "JobDone", attempts: 2 });
      expect(error.message).toContain("disk full");
      expect(error.output.job.status).toBe("FAILED");
    });

    it("an error no acceptor matches fails the waiter, carrying the error", async () => {
      const error = await rejection(wait("waitUntilJobDone", "crash").promise);
      expect(error).toMatchObject({ state: "failure", attempts: 1 });
      expect(UnmodeledError.is(error.error) || ModeledError.isModeledError(error.error)).toBe(true);
      expect(error.cause).toBe(error.error);
    });

    it("allStringEquals over a projection succeeds when every step is finished, with the waiter's own delays", async () => {
      const { promise, time } = wait("waitUntilStepsFinished", "steps");
      expect((await promise).attempts).toBe(2);
      expect(time.state.sleeps).toEqual([5000]);
    });

    it("anyStringEquals fails fast on one broken step; allStringEquals never matches an empty list", async () => {
      expect(await rejection(wait("waitUntilStepsFinished", "broken").promise)).toMatchObject({ state: "failure", attempts: 2 });
      const never = await rejection(wait("waitUntilStepsFinished", "nosteps", { maxWaitTime: 30 }).promise);
      expect(never).toMatchObject({ state: "timeout", code: "WaiterTimeout" });
      expect(never.output.job.steps).toEqual([]);
    });

    it("booleanEquals on a member", async () => {
      expect((await wait("waitUntilJobReady", "ready").promise).attempts).toBe(2);
    });

    it("inputOutput compares the input with the output; an absolute errorType matches by name", async () => {
      expect((await wait("waitUntilJobVisible", "late").promise).attempts).toBe(3);
      const renamed = await rejection(wait("waitUntilJobVisible", "renamed", { maxWaitTime: 10 }).promise);
      expect(renamed.state).toBe("timeout");
    });

    it("errorType as success, success: true as retry: resolves with the error", async () => {
      const result = await wait("waitUntilJobGone", "gone").promise;
      expect(result.attempts).toBe(3);
      expect(result.output).toBeUndefined();
      expect(result.error.code).toBe("JobNotFound");
    });

    it("success: false matches any error", async () => {
      const result = await wait("waitUntilJobUnreachable", "crash").promise;
      expect(result.attempts).toBe(1);
      expect(result.error).toBeDefined();
    });

    it("JMESPath over unions, timestamps (epoch seconds), blobs (base64), filters, length and contains", async () => {
      expect((await wait("waitUntilJobRich", "rich").promise).attempts).toBe(2);
    });

    it("times out at maxWaitTime: the last delay is cut so that the last attempt comes at the deadline", async () => {
      const { promise, time } = wait("waitUntilJobDone", "pending", { maxWaitTime: 20 });
      const error = await rejection(promise);
      expect(error).toMatchObject({ state: "timeout", attempts: 5 });
      expect(error.output.job.status).toBe("RUNNING");
      expect(time.state.sleeps).toEqual([2000, 3000, 5000, 10000]);
    });

    it("options override the model's delays", async () => {
      const { promise, time } = wait("waitUntilJobDone", "late", { minDelay: 1, maxDelay: 1 });
      await promise;
      expect(time.state.sleeps).toEqual([1000, 1000, 1000]);
    });

    it("aborts on the caller's signal, between attempts and before the first", async () => {
      calls.delete("pending");
      const controller = new AbortController();
      const time = fakeClock((count) => count === 2 && controller.abort(new Error("enough")));
      const error = await rejection(fn("waitUntilJobDone")(client(), { jobId: "pending" }, { maxWaitTime: 300, clock: time.clock, signal: controller.signal }));
      expect(error).toMatchObject({ state: "aborted", code: "WaiterAborted", attempts: 2 });
      expect(error.cause.message).toBe("enough");
      const early = await rejection(fn("waitUntilJobDone")(client(), { jobId: "pending" }, { maxWaitTime: 300, signal: AbortSignal.abort() }));
      expect(early).toMatchObject({ state: "aborted", attempts: 0 });
    });

    it("a deprecated waiter still works", async () => {
      calls.set("late", 3);
      const result = await fn("waitUntilOldJobDone")(client(), { jobId: "late" }, { maxWaitTime: 60, clock: fakeClock().clock });
      expect(result.attempts).toBe(1);
    });
  });
});

describe("the generated code", () => {
  it("marks deprecated waiters, and types pages, items and results (type-checked as a user would write them)", () => {
    const text = readFileSync(join(dir, "jobs.client.ts"), "utf8");
    expect(text).toMatch(/@deprecated The model marks this waiter deprecated\.\n \*\/\nexport function waitUntilOldJobDone/);
    writeFileSync(
      join(dir, "usage.ts"),
      `import { createClient } from "@anvil/client-core";
import { restJson1 } from "@anvil/protocol-restjson";
import { Jobs } from "./jobs.js";
import { paginateListJobs, paginateListLabels, paginateScanJobs, waitUntilJobDone } from "./jobs.client.js";

export async function use(): Promise<string[]> {
  const client = createClient(Jobs, { endpoint: "http://127.0.0.1:1", protocols: [restJson1()] });
  const out: string[] = [];
  for await (const page of paginateListJobs(client, { limit: 2 })) out.push(page.page.jobs[0]?.id ?? "");
  for await (const job of paginateListJobs(client).items()) out.push(job.id);
  for await (const [key, value] of paginateListLabels(client).items()) out.push(key + value.toFixed(0));
  for await (const id of paginateScanJobs(client, { startKey: { a: "b" } }).items()) out.push(id);
  // @ts-expect-error ScanJobs has no page size
  paginateScanJobs(client, {}, { pageSize: 2 });
  const done = await waitUntilJobDone(client, { jobId: "j1" }, { maxWaitTime: 60 });
  out.push(done.state, done.output?.job.status ?? "");
  // @ts-expect-error maxWaitTime is required
  await waitUntilJobDone(client, { jobId: "j1" }, {});
  return out;
}
`,
    );
    expect(typeCheck([join(dir, "usage.ts")])).toEqual([]);
  }, 60_000);

  it("the fake client pages once (its example has no chain of tokens) and waits", async () => {
    const fake = new generated.fakes.JobsFakeClient();
    const pages = await collect(generated.client.paginateListJobs!(fake));
    expect(pages).toHaveLength(1);
    // The synthesized job is ready (a synthesized boolean is true).
    const result = await generated.client.waitUntilJobReady!(fake, { jobId: "x" }, { maxWaitTime: 10, clock: fakeClock().clock });
    expect(result).toMatchObject({ state: "success", attempts: 1, output: { job: { ready: true } } });
  });
});
