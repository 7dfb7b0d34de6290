/**
 * C2: a client whose clock is off learns the server's time from a
 * clock-skew refusal and signs again, once, at the server's time; later
 * calls keep the correction. Against a real HTTP server on loopback that
 * checks each request's `X-Amz-Date` against its own clock, then its
 * signature with `sigv4Verifier`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, httpBearerAuth } from "@anvil/client-core";
import type { AuthCall, HttpResponse } from "@anvil/core";
import { UnmodeledError } from "@anvil/core";
import { member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { awsJson1_0 } from "@anvil/protocol-awsjson";
import { afterEach, describe, expect, it } from "vitest";
import { sigv4 } from "./sigv4.js";
import { AUGUST_30, EXAMPLE_CREDENTIALS, Things } from "./test-fixtures.js";
import { sigv4Verifier } from "./verify.js";

const HOUR = 3_600_000;
/** How far a request's X-Amz-Date may be from the server's clock, as AWS allows. */
const ALLOWED_SKEW = 15 * 60_000;

/** What the server saw of one request. */
interface Seen {
  /** The request's X-Amz-Date, in ms since the epoch. */
  readonly signedAt: number;
  /** The server's clock when it came. */
  readonly receivedAt: number;
}

interface SkewServer {
  readonly url: string;
  readonly seen: Seen[];
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function amzDate(text: string | undefined): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? "");
  return m === null ? Number.NaN : Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

function answer(res: ServerResponse, status: number, body: unknown, date?: Date): void {
  // Node sends the server's Date itself; a test that wants another one sets it.
  if (date !== undefined) res.setHeader("date", date.toUTCString());
  res.writeHead(status, { "content-type": "application/x-amz-json-1.0" });
  res.end(JSON.stringify(body));
}

/**
 * An awsJson1_0 server for Things: `RequestTimeTooSkewed` (400) for a
 * request signed more than 15 minutes from its clock, `InvalidSignatureException`
 * (403) for a bad signature, else `{ id: "a" }`. `dateOf` gives the Date of
 * a refusal (default the server's own, as Node sends it).
 */
async function skewServer(options: { dateOf?: (attempt: number) => Date; code?: string } = {}): Promise<SkewServer> {
  const seen: Seen[] = [];
  const verifier = sigv4Verifier({ secretOf: () => EXAMPLE_CREDENTIALS.secretAccessKey, clockSkewMs: ALLOWED_SKEW });
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = new Uint8Array(Buffer.concat(chunks));
    const signedAt = amzDate(req.headers["x-amz-date"] as string | undefined);
    const receivedAt = Date.now();
    seen.push({ signedAt, receivedAt });
    const date = options.dateOf?.(seen.length);
    if (options.code !== undefined || !(Math.abs(receivedAt - signedAt) <= ALLOWED_SKEW)) {
      answer(
        res,
        400,
        { __type: options.code ?? "RequestTimeTooSkewed", message: "The difference between the request time and the current time is too large." },
        date,
      );
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = { method: req.method!, path: req.url!, query: [], headers, body };
    const call: AuthCall = { service: Things, operation: Things.operations.getThing, protocol: "aws.protocols#awsJson1_0", request };
    if ((await verifier.verify(request, body, call)) === undefined) answer(res, 403, { __type: "InvalidSignatureException", message: "bad signature" });
    else answer(res, 200, { id: "a" });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A client of Things whose clock is `skewMs` off the real one. */
function skewedClient(url: string, skewMs: number) {
  return createClient(Things, {
    endpoint: url,
    protocols: [awsJson1_0()],
    auth: [sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS, now: () => new Date(Date.now() + skewMs) })],
  });
}

describe("sigv4 clock skew", () => {
  it("C2: corrects a clock 2 hours slow from the refusal's Date, signs again once at the server's time, and keeps the correction", async () => {
    const server = await skewServer();
    const client = skewedClient(server.url, -2 * HOUR);
    const first = await client.getThing({ id: "a" });
    expect(first).toEqual({ id: "a" });
    expect(first.$metadata.attempts).toBe(2);
    expect(server.seen).toHaveLength(2);
    const [refused, retried] = server.seen;
    expect(refused!.receivedAt - refused!.signedAt).toBeGreaterThan(2 * HOUR - 60_000);
    // The Date header has whole seconds, so the corrected clock may be up to a second behind, plus the round trip.
    expect(Math.abs(retried!.receivedAt - retried!.signedAt)).toBeLessThan(5_000);

    const second = await client.getThing({ id: "a" });
    expect(second.$metadata.attempts).toBe(1);
    expect(server.seen).toHaveLength(3);
    expect(Math.abs(server.seen[2]!.receivedAt - server.seen[2]!.signedAt)).toBeLessThan(5_000);
  });

  it("C2: corrects a clock that is fast as well", async () => {
    const server = await skewServer();
    const out = await skewedClient(server.url, 3 * HOUR).getThing({ id: "a" });
    expect(out.$metadata.attempts).toBe(2);
  });

  it("C2: signs again once, not in a loop, when the server's Date keeps moving", async () => {
    // Each refusal names a time an hour further on: every answer says the clock is off again.
    const server = await skewServer({ code: "RequestTimeTooSkewed", dateOf: (n) => new Date(Date.now() + n * HOUR) });
    const error = await skewedClient(server.url, 0)
      .getThing({ id: "a" })
      .catch((e: unknown) => e);
    expect(UnmodeledError.is(error) && error.code).toBe("RequestTimeTooSkewed");
    expect(server.seen).toHaveLength(2);
    expect((error as UnmodeledError).$metadata.attempts).toBe(2);
  });

  it.each(["RequestExpired", "InvalidSignatureException", "SignatureDoesNotMatch", "RequestInTheFuture", "AuthFailure"])(
    "C2: corrects the clock after %s with a skewed Date",
    async (code) => {
      const server = await skewServer({ code, dateOf: (n) => new Date(Date.now() + (n === 1 ? HOUR : 0)) });
      await skewedClient(server.url, 0)
        .getThing({ id: "a" })
        .catch(() => undefined);
      expect(server.seen).toHaveLength(2);
      expect(server.seen[1]!.signedAt - server.seen[1]!.receivedAt).toBeGreaterThan(HOUR - 5_000);
    },
  );

  it("C2: does not sign again when the refusal's Date agrees with the clock (the signature is wrong for another reason)", async () => {
    const server = await skewServer({ code: "SignatureDoesNotMatch" });
    await skewedClient(server.url, 0)
      .getThing({ id: "a" })
      .catch(() => undefined);
    expect(server.seen).toHaveLength(1);
  });

  it("C2: leaves calls without SigV4 alone: a skew refusal is not retried", async () => {
    const Open = service("test.sigv4#Open", {
      version: "2024-01-01",
      protocols: ["aws.protocols#awsJson1_0"],
      auth: ["smithy.api#httpBearerAuth"],
      operations: {
        getThing: operation("test.sigv4#GetThing", {
          input: () => struct<{ id: string }>("test.sigv4#OpenInput", [member("id", string, { required: true })]),
          output: () => struct<{ id: string }>("test.sigv4#OpenOutput", [member("id", string, { required: true })]),
          traits: { readonly: true },
        }),
      },
    });
    const server = await skewServer({ code: "RequestTimeTooSkewed", dateOf: () => new Date(Date.now() + HOUR) });
    const bearer = createClient(Open, { endpoint: server.url, protocols: [awsJson1_0()], auth: [httpBearerAuth({ token: "t" })] });
    const error = await bearer.getThing({ id: "a" }).catch((e: unknown) => e);
    expect(UnmodeledError.is(error) && error.code).toBe("RequestTimeTooSkewed");
    expect(server.seen).toHaveLength(1);
  });
});

describe("sigv4 recoverFrom", () => {
  const refusal = (code: string, headers: Record<string, string>): [UnmodeledError, HttpResponse] => [
    new UnmodeledError(code, "refused", { $metadata: { httpStatus: 400 } }),
    { status: 400, headers: new Headers(headers), body: undefined },
  ];
  const inAnHour = new Date(AUGUST_30().getTime() + HOUR).toUTCString();

  it.each([
    ["a skew code and a Date an hour off", "RequestTimeTooSkewed", { date: inAnHour }, true],
    ["a Date 3 minutes off (within AWS's leeway)", "RequestTimeTooSkewed", { date: new Date(AUGUST_30().getTime() + 180_000).toUTCString() }, false],
    ["a code that is not about the clock", "AccessDeniedException", { date: inAnHour }, false],
    ["no Date", "RequestTimeTooSkewed", {}, false],
    ["a Date that is not a date", "RequestTimeTooSkewed", { date: "soon" }, false],
    ["a cached answer (Age)", "RequestTimeTooSkewed", { date: inAnHour, age: "10" }, false],
  ] as const)("C2: %s → %s", (_, code, headers, corrects) => {
    const scheme = sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS, now: AUGUST_30 });
    expect(scheme.recoverFrom(...refusal(code, headers))).toBe(corrects);
  });

  it("C2: signs at the corrected time afterwards, and learns nothing twice from the same Date", async () => {
    const scheme = sigv4({ region: "us-east-1", signingName: "things", credentials: EXAMPLE_CREDENTIALS, now: AUGUST_30 });
    expect(scheme.recoverFrom(...refusal("RequestTimeTooSkewed", { date: inAnHour }))).toBe(true);
    expect(scheme.recoverFrom(...refusal("RequestTimeTooSkewed", { date: inAnHour }))).toBe(false);
    const url = new URL(
      await scheme.presign({ method: "GET", path: "/", query: [], headers: new Headers(), body: undefined }, { endpoint: "https://example.amazonaws.com" }),
    );
    expect(url.searchParams.get("X-Amz-Date")).toBe("20150830T133600Z");
  });
});
