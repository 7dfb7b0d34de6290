/**
 * `@streaming` members under AWS JSON 1.0/1.1: event streams framed as
 * `application/vnd.amazon.eventstream` with JSON payloads, the operation's
 * other members in the `initial-request` / `initial-response` message
 * (`@anvil/eventstream`'s document streams). The protocol has no binding for
 * a `@streaming` blob (the body is the JSON document): such operations are
 * refused, never sent with the blob left out.
 *
 * @internal
 */
import type { Schema } from "@anvil/core";
import { compileReader, compileWriter } from "@anvil/codec-json";
import { documentEventStreams, type DocumentEventStreams } from "@anvil/eventstream";
import { JSON_SETTINGS, REQUEST_JSON_SETTINGS, type AwsJsonVariant } from "./wire.js";

export { eventStreamMember, type EventStreamMember } from "@anvil/eventstream";

/** The variant's name in messages, e.g. `awsJson1_1`. */
export function protocolName(variant: AwsJsonVariant): string {
  return variant.id.slice(variant.id.indexOf("#") + 1);
}

const streams = new WeakMap<AwsJsonVariant, DocumentEventStreams>();

/** The variant's event-stream bodies: JSON payloads in the variant's media type. */
export function eventStreamsOf(variant: AwsJsonVariant): DocumentEventStreams {
  let s = streams.get(variant);
  if (s === undefined) {
    s = documentEventStreams({
      protocol: protocolName(variant),
      payload: Object.freeze({
        mediaType: variant.contentType,
        reader: (schema: Schema) => compileReader(schema, REQUEST_JSON_SETTINGS),
        writer: (schema: Schema) => compileWriter(schema, JSON_SETTINGS).toBytes,
      }),
      readInitial(schema, initial) {
        const read = compileReader(schema, REQUEST_JSON_SETTINGS);
        const bytes = initial?.body;
        return (bytes === undefined || bytes.length === 0 ? read("{}") : read(bytes)) as Record<string, unknown>;
      },
    });
    streams.set(variant, s);
  }
  return s;
}
