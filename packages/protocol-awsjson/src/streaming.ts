/**
 * `@streaming` members under AWS JSON 1.0/1.1. An event stream (a member
 * targeting a `@streaming` union) is the whole body, framed as
 * `application/vnd.amazon.eventstream` with JSON payloads; the operation's
 * other members travel in the `initial-request` / `initial-response`
 * message that opens the stream. The protocol has no way to carry a
 * `@streaming` blob (it has no HTTP bindings): such operations are refused,
 * never sent with the blob left out.
 *
 * @internal
 */
import { isAsyncIterable, type MemberSchema, type OperationSchema, type Schema, SerializationError, type StructSchema, type UnionSchema, type UnionValue } from "@anvil/core";
import { compileReader, compileWriter } from "@anvil/codec-json";
import {
  compileEventStream,
  type EventMessage,
  type EventPayloadCodec,
  type EventStreamSerde,
  initialMessage,
  type InitialEventType,
  openEventStream,
  writeEventStream,
} from "@anvil/eventstream";
import { JSON_SETTINGS, REQUEST_JSON_SETTINGS, type AwsJsonVariant } from "./wire.js";

/** A member carrying an event stream. */
export interface EventStreamMember extends MemberSchema {
  readonly target: UnionSchema;
}

/** The member of a structure that is an event stream, if any. */
export function eventStreamMember(schema: StructSchema): EventStreamMember | undefined {
  return schema.members.find((m): m is EventStreamMember => m.target.kind === "union" && m.traits.streaming === true);
}

/**
 * Throws a SerializationError for an operation with a `@streaming` blob:
 * AWS JSON has no binding for one (the body is the JSON document), so
 * neither side can exchange it.
 */
export function refuseStreamingBlob(variant: AwsJsonVariant, operation: OperationSchema, side: "encode" | "decode"): void {
  for (const where of ["input", "output"] as const) {
    const blob = operation[where].members.find((m) => m.target.kind === "blob" && m.traits.streaming === true);
    if (blob === undefined) continue;
    const protocol = variant.id.slice(variant.id.indexOf("#") + 1);
    throw new SerializationError(
      `${side} ${protocol}: operation ${operation.name} has a @streaming blob (${where} member ${blob.name}), which the ${protocol} protocol cannot carry; use a protocol with HTTP bindings such as restJson1`,
      { path: `/${blob.name}` },
    );
  }
}

const codecs = new WeakMap<AwsJsonVariant, EventPayloadCodec>();

/** JSON (the protocol's settings, in its media type) as the payload codec of events. */
function payloadCodecOf(variant: AwsJsonVariant): EventPayloadCodec {
  let codec = codecs.get(variant);
  if (codec === undefined) {
    codec = Object.freeze({
      mediaType: variant.contentType,
      reader: (schema: Schema) => compileReader(schema, REQUEST_JSON_SETTINGS),
      writer: (schema: Schema) => compileWriter(schema, JSON_SETTINGS).toBytes,
    } satisfies EventPayloadCodec);
    codecs.set(variant, codec);
  }
  return codec;
}

function serdeOf(variant: AwsJsonVariant, member: EventStreamMember): EventStreamSerde {
  return compileEventStream(member.target, payloadCodecOf(variant));
}

/**
 * The body of an outgoing event stream: the initial message with the other
 * members (already a JSON object), then the member's events, written as the
 * transport reads them.
 */
export function eventStreamBody(variant: AwsJsonVariant, member: EventStreamMember, events: unknown, initialType: InitialEventType, initial: Uint8Array): AsyncIterable<Uint8Array> {
  const first = initialMessage(initialType, initial, variant.contentType);
  if (events === undefined || events === null) return writeEventStream([], serdeOf(variant, member), first);
  const iterable = isAsyncIterable(events) || (typeof events === "object" && Symbol.iterator in events);
  if (!iterable) throw new SerializationError(`encode awsJson: /${member.name} is not an iterable of events`, { path: `/${member.name}` });
  return writeEventStream(events as AsyncIterable<UnionValue> | Iterable<UnionValue>, serdeOf(variant, member), first);
}

/**
 * Reads an incoming event stream: the structure's other members from its
 * initial message (an empty structure when the stream has none), and the
 * events, read as the application iterates them.
 */
export async function readEventStreamMessage(
  variant: AwsJsonVariant,
  schema: StructSchema,
  member: EventStreamMember,
  body: Parameters<typeof openEventStream>[0],
  initialType: InitialEventType,
): Promise<Record<string, unknown>> {
  const { initial, events } = await openEventStream(body, serdeOf(variant, member), initialType);
  return { ...readInitial(schema, initial), [member.name]: events };
}

function readInitial(schema: StructSchema, initial: EventMessage | undefined): Record<string, unknown> {
  const read = compileReader(schema, REQUEST_JSON_SETTINGS);
  const bytes = initial?.body;
  return (bytes === undefined || bytes.length === 0 ? read("{}") : read(bytes)) as Record<string, unknown>;
}
