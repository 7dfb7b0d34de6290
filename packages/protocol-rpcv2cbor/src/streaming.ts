/**
 * `@streaming` members under RPC v2 CBOR. An event stream (a member
 * targeting a `@streaming` union) is the whole body, framed as
 * `application/vnd.amazon.eventstream` with CBOR payloads; the operation's
 * other members travel in the `initial-request` / `initial-response`
 * message that opens the stream. The protocol has no way to carry a
 * `@streaming` blob: such operations are refused, never sent half-empty.
 *
 * @internal
 */
import { isAsyncIterable, type MemberSchema, type OperationSchema, type Schema, SerializationError, type StructSchema, type UnionSchema, type UnionValue } from "@anvil/core";
import { compileReader, compileWriter } from "@anvil/codec-cbor";
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
import { CBOR } from "./wire.js";

/** A member carrying an event stream. */
export interface EventStreamMember extends MemberSchema {
  readonly target: UnionSchema;
}

/** The member of a structure that is an event stream, if any. */
export function eventStreamMember(schema: StructSchema): EventStreamMember | undefined {
  return schema.members.find((m): m is EventStreamMember => m.target.kind === "union" && m.traits.streaming === true);
}

/** The first `@streaming` blob member of an operation's input or output, if any. */
function streamingBlob(operation: OperationSchema): { member: MemberSchema; where: "input" | "output" } | undefined {
  for (const where of ["input", "output"] as const) {
    const member = operation[where].members.find((m) => m.target.kind === "blob" && m.traits.streaming === true);
    if (member !== undefined) return { member, where };
  }
  return undefined;
}

/**
 * Throws a SerializationError for an operation with a `@streaming` blob:
 * RPC v2 CBOR has no binding for one (the protocol carries event streams
 * only), so neither side can exchange it.
 */
export function refuseStreamingBlob(operation: OperationSchema, side: "encode" | "decode"): void {
  const blob = streamingBlob(operation);
  if (blob === undefined) return;
  throw new SerializationError(
    `${side} rpcv2Cbor: operation ${operation.name} has a @streaming blob (${blob.where} member ${blob.member.name}), which the rpcv2Cbor protocol cannot carry; use a protocol with HTTP bindings such as restJson1`,
    { path: `/${blob.member.name}` },
  );
}

/** CBOR as the payload codec of events. */
const CBOR_PAYLOADS: EventPayloadCodec = Object.freeze({
  mediaType: CBOR,
  reader: (schema: Schema) => compileReader(schema),
  writer: (schema: Schema) => compileWriter(schema),
});

const serdes = new WeakMap<UnionSchema, EventStreamSerde>();

function serdeOf(member: EventStreamMember): EventStreamSerde {
  let serde = serdes.get(member.target);
  if (serde === undefined) {
    serde = compileEventStream(member.target, CBOR_PAYLOADS);
    serdes.set(member.target, serde);
  }
  return serde;
}

/**
 * The body of an outgoing event stream: the initial message with the other
 * members (already a CBOR map), then the member's events, written as the
 * transport reads them.
 */
export function eventStreamBody(member: EventStreamMember, events: unknown, initialType: InitialEventType, initial: Uint8Array): AsyncIterable<Uint8Array> {
  const first = initialMessage(initialType, initial, CBOR);
  if (events === undefined || events === null) return writeEventStream([], serdeOf(member), first);
  const iterable = isAsyncIterable(events) || (typeof events === "object" && Symbol.iterator in events);
  if (!iterable) throw new SerializationError(`encode rpcv2Cbor: /${member.name} is not an iterable of events`, { path: `/${member.name}` });
  return writeEventStream(events as AsyncIterable<UnionValue> | Iterable<UnionValue>, serdeOf(member), first);
}

/**
 * Reads an incoming event stream: the structure's other members from its
 * initial message (an empty structure when the stream has none), and the
 * events, read as the application iterates them.
 */
export async function readEventStreamMessage(
  schema: StructSchema,
  member: EventStreamMember,
  body: Parameters<typeof openEventStream>[0],
  initialType: InitialEventType,
): Promise<Record<string, unknown>> {
  const { initial, events } = await openEventStream(body, serdeOf(member), initialType);
  const value = readInitial(schema, initial, initialType);
  return { ...value, [member.name]: events };
}

function readInitial(schema: StructSchema, initial: EventMessage | undefined, initialType: InitialEventType): Record<string, unknown> {
  const read = compileReader(schema);
  if (initial === undefined || initial.body.length === 0) return read.fromValue({}) as Record<string, unknown>;
  const type = initial.headers[":content-type"];
  if (type !== undefined && (type.type !== "string" || type.value.split(";")[0]!.trim().toLowerCase() !== CBOR)) {
    throw new SerializationError(`decode rpcv2Cbor: the ${initialType} message must be ${CBOR}`);
  }
  return read(initial.body) as Record<string, unknown>;
}
