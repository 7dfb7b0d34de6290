import { ProtocolError } from "@anvil/core";
import { decodeEventMessage, encodeEventMessage, splitFrames } from "@anvil/eventstream";
import { SignatureV4 } from "@smithy/signature-v4";
import { describe, expect, it } from "vitest";
import { signEventStream, verifyEventStream } from "./event-signing.js";
import { WebCryptoSha256 } from "./sha256.js";
import { EXAMPLE_CREDENTIALS } from "./test-fixtures.js";

const signer = new SignatureV4({ service: "transcribe", region: "us-east-1", credentials: EXAMPLE_CREDENTIALS, sha256: WebCryptoSha256 });
const SEED = "a".repeat(64);
const at = new Date("2026-12-02T12:00:00.250Z");
const event = (text: string) => encodeEventMessage({ headers: { ":message-type": { type: "string", value: "event" } }, body: new TextEncoder().encode(text) });

async function all(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

async function* chunks(...frames: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* frames;
}

describe("signed event streams", () => {
  it("wraps each message in an envelope signed in a chain, then an empty one, which the server's check lets through", async () => {
    const signed = await all(signEventStream(chunks(event("one"), event("two")), signer, SEED, () => at));
    expect(signed.length).toBe(3);
    const envelopes = signed.map(decodeEventMessage);
    expect(envelopes.map((e) => Object.keys(e.headers))).toEqual([
      [":date", ":chunk-signature"],
      [":date", ":chunk-signature"],
      [":date", ":chunk-signature"],
    ]);
    expect(envelopes[2]!.body.byteLength).toBe(0);
    expect(new TextDecoder().decode(decodeEventMessage(envelopes[0]!.body).body)).toBe("one");
    const checked = await all(verifyEventStream(chunks(...signed), signer, SEED, 60_000, () => at));
    expect(checked).toEqual(signed);
  });

  it("fails the stream at a changed message, a reordered one, another seed, an unsigned one or an old date", async () => {
    const signed = await all(signEventStream(chunks(event("one"), event("two")), signer, SEED, () => at));
    const changed = decodeEventMessage(signed[1]!);
    const tampered = encodeEventMessage({ ...changed, body: event("TWO") });
    const failing = async (frames: Uint8Array[], seed = SEED, now = at) => {
      const passed: Uint8Array[] = [];
      const error = await (async () => {
        for await (const frame of verifyEventStream(chunks(...frames), signer, seed, 60_000, () => now)) passed.push(frame);
      })().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ProtocolError.is(error) && error.status === 401 && error.code === "UnauthenticatedException").toBe(true);
      return passed.length;
    };
    expect(await failing([signed[0]!, tampered, signed[2]!])).toBe(1);
    expect(await failing([signed[1]!, signed[0]!, signed[2]!])).toBe(0);
    expect(await failing(signed, "b".repeat(64))).toBe(0);
    expect(await failing([event("one")])).toBe(0);
    expect(await failing(signed, SEED, new Date(at.getTime() + 20 * 60_000))).toBe(0);
  });

  it("re-frames a body whose chunks do not fall on message boundaries", async () => {
    const whole = new Uint8Array([...event("one"), ...event("two")]);
    const signed = await all(signEventStream(chunks(whole.subarray(0, 7), whole.subarray(7)), signer, SEED, () => at));
    const inner: string[] = [];
    for await (const frame of splitFrames(chunks(...signed))) {
      const envelope = decodeEventMessage(frame);
      if (envelope.body.byteLength > 0) inner.push(new TextDecoder().decode(decodeEventMessage(envelope.body).body));
    }
    expect(inner).toEqual(["one", "two"]);
  });
});
