/**
 * `@streaming` members under RPC v2 CBOR: event streams framed as
 * `application/vnd.amazon.eventstream` with CBOR payloads, the operation's
 * other members in the `initial-request` / `initial-response` message
 * (`@anvil/eventstream`'s document streams). The protocol has no way to carry
 * a `@streaming` blob: such operations are refused, never sent half-empty.
 *
 * @internal
 */
import { type Schema, SerializationError } from "@anvil/core";
import { baseMediaType } from "@anvil/core/protocol";
import { compileReader, compileWriter } from "@anvil/codec-cbor";
import { documentEventStreams, type EventPayloadCodec } from "@anvil/eventstream";
import { CBOR } from "./wire.js";

export { eventStreamMember, type EventStreamMember } from "@anvil/eventstream";

/** The protocol's name in messages. */
export const PROTOCOL_NAME = "rpcv2Cbor";

/** CBOR as the payload codec of events. */
const CBOR_PAYLOADS: EventPayloadCodec = Object.freeze({
  mediaType: CBOR,
  reader: (schema: Schema) => compileReader(schema),
  writer: (schema: Schema) => compileWriter(schema),
});

/** rpcv2Cbor's event-stream bodies. */
export const eventStreams = documentEventStreams({
  protocol: PROTOCOL_NAME,
  payload: CBOR_PAYLOADS,
  readInitial(schema, initial) {
    const read = compileReader(schema);
    if (initial === undefined || initial.body.length === 0) return read.fromValue({}) as Record<string, unknown>;
    const type = initial.headers[":content-type"];
    if (type !== undefined && (type.type !== "string" || baseMediaType(type.value) !== CBOR)) {
      throw new SerializationError(`decode ${PROTOCOL_NAME}: the initial message must be ${CBOR}`);
    }
    return read(initial.body) as Record<string, unknown>;
  },
});
