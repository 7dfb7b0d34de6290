/**
 * Redaction: a canary planted in every `@sensitive` member (body, header,
 * query, nested, list, map value, map key) and in the authorization header,
 * on every protocol, must reach no log line (the access log, as JSON and as
 * a line; what `onRejected` is handed) and no answer (status, headers, body,
 * trailers) nor the error the client throws. Calls that succeed, calls that
 * fail validation, calls whose values do not even parse (from a client of a
 * looser model of the same service: `ledger-loose.smithy`), and a refused
 * token.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { createClient, fetchTransport, httpBearerAuth, type Transport } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import type { AuthScheme, HttpBody, ServiceSchema } from "@anvil/core";
import { readBody } from "@anvil/core/protocol";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { createServer, formatAccessLog } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

function ledger(file: string): ServiceSchema {
  const text = readFileSync(join(import.meta.dirname, "..", "models", file), "utf8");
  const { model } = loadModel({ sources: [{ file, text }] });
  return schemasFromModel(model).service("test.redaction#Ledger") as ServiceSchema;
}

const Ledger = ledger("ledger.smithy");
const LooseLedger = ledger("ledger-loose.smithy");

/** The canaries: a word and a card number, each of which may appear nowhere. */
const CANARY = "cnry7f3a";
const CARD = "4929123456789012";
const leaks = (text: string) => text.includes(CANARY) || text.includes(CARD);

/** A protocol value with both sides, as every protocol package makes. */
type ProtocolValue =
  | ReturnType<typeof restJson1>
  | ReturnType<typeof grpc>
  | ReturnType<typeof awsJson1_0>
  | ReturnType<typeof rpcv2Cbor>
  | ReturnType<typeof rpcv2Json>;

const PROTOCOLS: readonly { id: string; value: () => ProtocolValue; h2?: boolean }[] = [
  { id: "aws.protocols#restJson1", value: restJson1 },
  { id: "alloy#simpleRestJson", value: simpleRestJson },
  { id: "aws.protocols#awsJson1_0", value: awsJson1_0 },
  { id: "aws.protocols#awsJson1_1", value: awsJson1_1 },
  { id: "smithy.protocols#rpcv2Cbor", value: rpcv2Cbor },
  { id: "smithy.protocols#rpcv2Json", value: rpcv2Json },
  { id: "alloy.proto#grpc", value: grpc, h2: true },
];

/** Every text a call left behind: log lines and hook arguments on the server, answers and errors on the client. */
const seen: string[] = [];

/** A body's bytes as text that any embedded string shows through (UTF-8 text, CBOR and protobuf strings alike). */
async function bodyText(body: HttpBody): Promise<{ text: string; bytes: Uint8Array | undefined }> {
  if (typeof body === "string") return { text: body, bytes: undefined };
  const bytes = await readBody(body);
  return { text: Buffer.from(bytes).toString("latin1"), bytes };
}

/** Header fields as text. */
const fields = (headers: Headers | undefined) => {
  let text = "";
  headers?.forEach((value, name) => {
    text += `${name}: ${value}\n`;
  });
  return text;
};

/** A transport that writes down every answer (head, body, trailers) before handing it on. */
function recording(inner: Transport): Transport {
  return {
    ...(inner.httpVersion !== undefined ? { httpVersion: inner.httpVersion } : {}),
    async send(request) {
      const response = await inner.send(request);
      const { text, bytes } = await bodyText(response.body);
      const trailers = response.trailers === undefined ? undefined : await response.trailers;
      seen.push(`${response.status}\n${fields(response.headers)}\n${text}\n${fields(trailers)}`);
      return { ...response, body: bytes ?? text };
    },
    ...(inner.close !== undefined ? { close: () => inner.close!() } : {}),
  };
}

function ledgerServer(protocol: ProtocolValue, id: string) {
  return createServer(Ledger, {
    protocols: [protocol],
    auth: { bearer: (token) => (token === "good-token" ? { id: "teller" } : undefined) },
    requestIds: true,
    accessLog: (entry) => seen.push(JSON.stringify(entry), formatAccessLog(entry)),
    onRejected: (error) => seen.push(inspect(error, { depth: 20 })),
    onInternalError: (error) => seen.push(inspect(error, { depth: 20 })),
  })
    .register({
      deposit: () => ({ receipt: "deposited" }),
      withdraw: () => ({ receipt: "withdrawn" }),
    })
    .mapService(id);
}

const h2 = http2Transport();
afterAll(() => h2.close());

describe.each(PROTOCOLS)("$id", (p) => {
  let listener: NodeListener;
  beforeAll(async () => {
    listener = await listen(ledgerServer(p.value(), p.id), { http2: p.h2 === true });
  });
  afterAll(() => listener.close({ graceMs: 100 }));

  const client = (service: ServiceSchema, auth: readonly AuthScheme[] = []) =>
    createClient(service, {
      endpoint: listener.url,
      protocols: [p.value()],
      protocol: p.id,
      auth,
      retry: { maxAttempts: 1 },
      transport: recording(p.h2 ? h2 : fetchTransport()),
    }) as unknown as Record<string, (input?: object) => Promise<{ receipt?: string }>>;

  /** Runs a call, then checks that nothing it left behind holds a canary; returns the outcome. */
  async function clean(call: () => Promise<unknown>): Promise<{ output?: unknown; error?: { code?: string } }> {
    seen.length = 0;
    let outcome: { output?: unknown; error?: { code?: string } };
    try {
      outcome = { output: await call() };
    } catch (error) {
      seen.push(inspect(error, { depth: 20 }), String(error), JSON.stringify(error) ?? "");
      outcome = { error: error as { code?: string } };
    }
    // The access log is written when the answer's head is ready: by now, for these whole answers.
    expect(seen.some((line) => line.startsWith("{"))).toBe(true);
    for (const line of seen) expect(leaks(line), line).toBe(false);
    return outcome;
  }

  it("a call with secrets everywhere, accepted", async () => {
    const { output } = await clean(() =>
      client(Ledger).deposit!({
        account: "acct1",
        pin: "1234",
        memo: CANARY,
        note: CANARY,
        card: { number: CARD, holder: CANARY },
        cards: [{ number: CARD, holder: CANARY }],
        tags: { plain: CANARY },
        labels: { [CANARY]: "ok" },
        when: new Date("2031-04-05T06:07:08Z"),
        amount: 42,
        kind: "CASH",
      }),
    );
    expect(output).toMatchObject({ receipt: "deposited" });
  });

  it("secrets that break their constraints", async () => {
    const { error } = await clean(() =>
      client(LooseLedger).deposit!({
        account: "acct1",
        pin: CANARY,
        memo: CANARY,
        note: CANARY.repeat(3),
        card: { number: CANARY, holder: CANARY.repeat(3) },
        cards: [{ number: CARD, holder: CANARY.repeat(3) }, { holder: CANARY }],
        tags: { plain: CANARY.repeat(3) },
        labels: { [CANARY]: "too long" },
        ...(p.h2 ? {} : { kind: CANARY }),
      }),
    );
    expect(error?.code).toBe(p.h2 ? "INVALID_ARGUMENT" : "ValidationException");
  });

  it("secrets of the wrong type", async () => {
    for (const input of [{ when: CANARY }, { amount: CANARY }, { amount: CARD }, ...(p.h2 ? [{ kind: CANARY }] : [])]) {
      const { error } = await clean(() => client(LooseLedger).deposit!({ account: "acct1", ...input }));
      expect(error?.code, inspect(input)).toMatch(p.h2 ? /^INVALID_ARGUMENT$/ : /^(SerializationException|ValidationException)$/);
    }
  });

  it("a token that is refused", async () => {
    const { error } = await clean(() => client(Ledger, [httpBearerAuth({ token: `${CANARY}-${CARD}` })]).withdraw!({}));
    expect(error?.code).toBe(p.h2 ? "UNAUTHENTICATED" : "UnauthenticatedException");
  });
});
