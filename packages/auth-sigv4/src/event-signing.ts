/**
 * SigV4 event signing, as AWS SDKs sign the event streams they send (the
 * input streams of Transcribe Streaming, ...): the request is signed with
 * the payload hash `STREAMING-AWS4-HMAC-SHA256-EVENTS`, and each message
 * then goes inside another whose `:date` and `:chunk-signature` headers sign
 * it, each signature chained to the one before, the first to the request's;
 * an empty signed message ends the stream. The signatures are computed by
 * `@smithy/signature-v4` (`sign` of a message); the frames are read and
 * written by `@anvil/eventstream`.
 */
import { type HttpBody, ProtocolError } from "@anvil/core";
import { decodeEventMessage, type EventMessage, encodeEventMessage, splitFrames } from "@anvil/eventstream";
import type { SignatureV4 } from "@smithy/signature-v4";
import { fromHex, toHex } from "./sha256.js";

/** The payload hash of a request whose event stream is signed message by message. */
export const STREAMING_EVENTS = "STREAMING-AWS4-HMAC-SHA256-EVENTS";

/** The error type of an event whose signature does not hold (the call's credentials do not cover it). */
const UNAUTHENTICATED = "UnauthenticatedException";

/** The signature of one message: over its `:date` header and payload, chained to `prior`. */
async function chunkSignature(signer: SignatureV4, payload: Uint8Array, date: Date, prior: string): Promise<string> {
  const signed = await signer.sign(
    { message: { headers: { ":date": { type: "timestamp", value: date } }, body: payload }, priorSignature: prior },
    { signingDate: date },
  );
  return signed.signature;
}

/**
 * The client's side: each frame of `body` inside a signed envelope, the
 * chain starting from `seed` (the request's signature), then the empty
 * signed envelope that ends the stream.
 */
export async function* signEventStream(body: HttpBody, signer: SignatureV4, seed: string, now: () => Date): AsyncGenerator<Uint8Array, void, undefined> {
  let prior = seed;
  const envelope = async (payload: Uint8Array): Promise<Uint8Array> => {
    // The signature covers the time to the millisecond (the header's), its string to sign to the second.
    const date = now();
    prior = await chunkSignature(signer, payload, date, prior);
    return encodeEventMessage({
      headers: { ":date": { type: "timestamp", value: date }, ":chunk-signature": { type: "binary", value: fromHex(prior) } },
      body: payload,
    });
  };
  for await (const frame of splitFrames(body)) yield await envelope(frame);
  yield await envelope(new Uint8Array(0));
}

/**
 * The server's side: the frames of `body` as they are, once each envelope's
 * signature is found to be the one the chain from `seed` makes with the
 * call's credentials (`signer`), and its `:date` within `skewMs` of `now`.
 * A message outside an envelope, a missing or wrong signature, or a date out
 * of bounds fails the stream with a 401 `UnauthenticatedException`. The
 * frames pass unchanged: the event-stream reader opens the envelopes.
 */
export async function* verifyEventStream(
  body: HttpBody,
  signer: SignatureV4,
  seed: string,
  skewMs: number,
  now: () => Date,
): AsyncGenerator<Uint8Array, void, undefined> {
  let prior = seed;
  for await (const frame of splitFrames(body)) {
    const envelope = decodeEventMessage(frame);
    const date = headerOf(envelope, ":date", "timestamp");
    const signature = headerOf(envelope, ":chunk-signature", "binary");
    if (date === undefined || signature === undefined) throw refused("an event is not signed");
    if (Math.abs(now().getTime() - date.getTime()) > skewMs) throw refused("an event's signing time is out of bounds");
    const expected = await chunkSignature(signer, envelope.body, date, prior);
    if (!sameText(expected, toHex(signature))) throw refused("an event's signature does not match");
    prior = expected;
    yield frame;
    if (envelope.body.byteLength === 0) return;
  }
}

function refused(why: string): ProtocolError {
  return new ProtocolError(UNAUTHENTICATED, 401, `event stream: ${why}`);
}

function headerOf<T extends "timestamp" | "binary">(message: EventMessage, name: string, type: T): (T extends "timestamp" ? Date : Uint8Array) | undefined {
  const header = message.headers[name];
  return header?.type === type ? (header.value as T extends "timestamp" ? Date : Uint8Array) : undefined;
}

/** Equal texts, compared in time that does not depend on where they differ. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
