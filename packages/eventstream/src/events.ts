/**
 * The schema-driven half of event streams: a `@streaming` union compiled
 * once into functions that map its variants to messages and back, following
 * Smithy's event-stream rules (protocol-agnostic: the protocol supplies the
 * payload codec).
 *
 * - An event is `:message-type: event` with `:event-type: <variant name>`; a
 *   variant targeting an `@error` structure is `:message-type: exception`
 *   with `:exception-type: <variant name>`.
 * - `@eventHeader` members are headers named after the member, typed by
 *   their target (blob as binary, enum as string, intEnum as integer).
 * - An `@eventPayload` member is the body: blobs as raw bytes
 *   (`application/octet-stream`), strings as UTF-8 text (`text/plain`),
 *   anything else in the payload codec's media type. Without one, the other
 *   members form a structure written with the payload codec.
 * - `:message-type: error` carries an unmodeled error in `:error-code` and
 *   `:error-message`.
 */
import {
  type MemberSchema,
  ModeledError,
  type Schema,
  SerializationError,
  type StructSchema,
  type UnionSchema,
  type UnionValue,
  UnmodeledError,
} from "@anvil/core";
import { createModeledError } from "@anvil/core/protocol";
import type { EventHeaderValue, EventMessage } from "./message.js";

/**
 * How a protocol writes structured payloads (structures, unions, documents)
 * of events: JSON for restJson1, CBOR for rpcv2Cbor. Readers and writers
 * should be compiled and cached per schema by the codec.
 */
export interface EventPayloadCodec {
  /** The `:content-type` of structured payloads, e.g. `application/json`. */
  readonly mediaType: string;
  /** The decoder of this schema's payloads: bytes to value. Empty payloads never reach it. */
  reader(schema: Schema): (bytes: Uint8Array) => unknown;
  /** The encoder of this schema's values: value to payload bytes. */
  writer(schema: Schema): (value: unknown) => Uint8Array;
}

/** A `@streaming` union compiled for one payload codec. */
export interface EventStreamSerde {
  /** The message of an event: an exception message for a variant that is an `@error` structure. */
  encode(event: UnionValue): EventMessage;
  /**
   * The message that ends a stream whose source failed: an exception message
   * for a modeled error the union names, else an `error` message (which says
   * nothing of errors that are not Anvil's own).
   */
  encodeError(error: unknown): EventMessage;
  /**
   * The event of a message. Throws the modeled error of an exception
   * message, an UnmodeledError for an `error` message or an exception the
   * union does not name, and a SerializationError for a malformed message.
   * An event the union does not name is the `$unknown` variant.
   */
  decode(message: EventMessage): UnionValue;
}

type Obj = Record<string, unknown>;

/** Headers and body of one event or exception, before the framing headers. */
interface Parts {
  readonly headers: [string, EventHeaderValue][];
  readonly body: Uint8Array;
  readonly contentType: string | undefined;
}

interface Variant {
  readonly name: string;
  readonly target: Schema;
  readonly isError: boolean;
  write(value: unknown): Parts;
  read(message: EventMessage): unknown;
}

const EMPTY = new Uint8Array(0);
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

const cache = new WeakMap<EventPayloadCodec, WeakMap<UnionSchema<any>, EventStreamSerde>>();

/** Compiles a `@streaming` union for a payload codec (cached per union and codec). */
export function compileEventStream(union: UnionSchema<any>, payload: EventPayloadCodec): EventStreamSerde {
  let byUnion = cache.get(payload);
  if (byUnion === undefined) cache.set(payload, (byUnion = new WeakMap()));
  let serde = byUnion.get(union);
  if (serde === undefined) byUnion.set(union, (serde = buildSerde(union, payload)));
  return serde;
}

function buildSerde(union: UnionSchema<any>, payload: EventPayloadCodec): EventStreamSerde {
  const variants = new Map<string, Variant>();
  const byErrorId = new Map<string, Variant>();
  for (const m of union.members) {
    const variant = compileVariant(m, payload);
    variants.set(m.name, variant);
    if (variant.isError) byErrorId.set(m.target.id, variant);
  }
  const frame = (first: [string, EventHeaderValue][], parts: Parts): EventMessage => {
    const headers: Record<string, EventHeaderValue> = {};
    for (const [n, v] of first) headers[n] = v;
    if (parts.contentType !== undefined) headers[":content-type"] = str(parts.contentType);
    for (const [n, v] of parts.headers) define(headers, n, v);
    return { headers, body: parts.body };
  };
  return Object.freeze({
    encode(event: UnionValue): EventMessage {
      const name = typeof event === "object" && event !== null ? (event as { $case?: unknown }).$case : undefined;
      const variant = typeof name === "string" ? variants.get(name) : undefined;
      if (variant === undefined) throw new SerializationError(`encode event stream: ${union.id} has no event ${JSON.stringify(name)}`);
      const parts = variant.write((event as { value?: unknown }).value);
      return variant.isError
        ? frame(
            [
              [":message-type", str("exception")],
              [":exception-type", str(variant.name)],
            ],
            parts,
          )
        : frame(
            [
              [":message-type", str("event")],
              [":event-type", str(variant.name)],
            ],
            parts,
          );
    },

    encodeError(error: unknown): EventMessage {
      if (ModeledError.isModeledError(error)) {
        const variant = byErrorId.get(error.$shapeId);
        if (variant !== undefined) {
          return frame(
            [
              [":message-type", str("exception")],
              [":exception-type", str(variant.name)],
            ],
            variant.write(error.members()),
          );
        }
        return errorMessage(error.code, error.message);
      }
      if (UnmodeledError.is(error)) return errorMessage(error.code, error.message);
      // Bytes that do not decode, such as a malformed message of the stream the caller sends: the caller's to hear.
      if (SerializationError.is(error)) return errorMessage("SerializationException", error.message);
      return errorMessage("InternalFailure", "Internal failure");
    },

    decode(message: EventMessage): UnionValue {
      const type = stringHeader(message, ":message-type");
      switch (type) {
        case "event": {
          const name = stringHeader(message, ":event-type");
          const variant = variants.get(name);
          if (variant === undefined) return { $case: "$unknown", name, value: message };
          return { $case: variant.name, value: variant.read(message) } as UnionValue;
        }
        case "exception": {
          const name = stringHeader(message, ":exception-type");
          const variant = variants.get(name);
          if (variant === undefined || !variant.isError) {
            throw new UnmodeledError(name, `event stream: exception ${name} is not an error of ${union.id}`, { bodyExcerpt: excerpt(message.body) });
          }
          throw createModeledError(variant.target as StructSchema, variant.read(message) as Obj);
        }
        case "error": {
          const code = optionalString(message, ":error-code") ?? "UnknownError";
          throw new UnmodeledError(code, optionalString(message, ":error-message") ?? `event stream: error ${code}`);
        }
        default:
          throw new SerializationError(`decode event stream: unknown :message-type ${JSON.stringify(type)}`);
      }
    },
  });
}

function errorMessage(code: string, message: string): EventMessage {
  return { headers: { ":message-type": str("error"), ":error-code": str(code), ":error-message": str(message) }, body: EMPTY };
}

/** A variant: a structure of headers and payload (what Smithy requires), or, defensively, any other shape as the payload. */
function compileVariant(m: MemberSchema, codec: EventPayloadCodec): Variant {
  const target = m.target;
  const isError = target.kind === "structure" && target.traits.error !== undefined;
  if (target.kind !== "structure") {
    const p = compilePayload(m, codec);
    return {
      name: m.name,
      target,
      isError,
      write: (value) => ({ headers: [], ...p.write(value) }),
      read: (message) => p.read(message.body),
    };
  }
  const headers = target.members.filter((x) => x.traits.eventHeader).map(compileHeader);
  const explicit = target.members.find((x) => x.traits.eventPayload);
  let payload: CompiledPayload | undefined;
  if (explicit !== undefined) payload = compilePayload(explicit, codec);
  else {
    const rest = target.members.filter((x) => !x.traits.eventHeader);
    if (rest.length > 0) {
      const body: StructSchema = Object.freeze({ kind: "structure", id: target.id, traits: target.traits, members: Object.freeze(rest) });
      const write = codec.writer(body);
      const read = codec.reader(body);
      payload = {
        write: (value) => ({ body: write(value), contentType: codec.mediaType }),
        read: (bytes) => (bytes.byteLength === 0 ? {} : read(bytes)),
      };
    }
  }
  const payloadName = explicit?.name;
  return {
    name: m.name,
    target,
    isError,
    write(value: unknown): Parts {
      if (typeof value !== "object" || value === null)
        throw new SerializationError(`encode event stream: event ${m.name} is not a structure`, { path: `/${m.name}` });
      const obj = value as Obj;
      const out: [string, EventHeaderValue][] = [];
      for (const h of headers) {
        const v = obj[h.name];
        if (v !== undefined && v !== null) out.push([h.name, h.write(v)]);
      }
      if (payload === undefined) return { headers: out, body: EMPTY, contentType: undefined };
      const p = payload.write(payloadName === undefined ? obj : obj[payloadName]);
      return { headers: out, ...p };
    },
    read(message: EventMessage): unknown {
      let out: Obj = {};
      if (payload !== undefined) {
        const v = payload.read(message.body);
        if (payloadName === undefined) out = { ...(v as Obj) };
        else if (v !== undefined) out[payloadName] = v;
      }
      for (const h of headers) {
        const hv = message.headers[h.name];
        if (hv !== undefined && Object.hasOwn(message.headers, h.name)) out[h.name] = h.read(hv);
      }
      return out;
    },
  };
}

interface CompiledPayload {
  write(value: unknown): { body: Uint8Array; contentType: string | undefined };
  read(bytes: Uint8Array): unknown;
}

/** An `@eventPayload` member: raw bytes, UTF-8 text, or a value in the codec's media type. Empty bodies are absent values. */
function compilePayload(m: MemberSchema, codec: EventPayloadCodec): CompiledPayload {
  const target = m.target;
  const none = { body: EMPTY, contentType: undefined };
  if (target.kind === "blob") {
    const contentType = m.traits.mediaType ?? "application/octet-stream";
    return {
      write: (v) => (v === undefined || v === null ? none : { body: typeof v === "string" ? utf8Encoder.encode(v) : (v as Uint8Array), contentType }),
      read: (bytes) => (bytes.byteLength === 0 ? undefined : bytes),
    };
  }
  if (target.kind === "string" || target.kind === "enum") {
    const contentType = m.traits.mediaType ?? "text/plain";
    return {
      write: (v) => (v === undefined || v === null ? none : { body: utf8Encoder.encode(String(v)), contentType }),
      read(bytes) {
        if (bytes.byteLength === 0) return undefined;
        try {
          return utf8Decoder.decode(bytes);
        } catch (cause) {
          throw new SerializationError(`decode event stream: payload ${m.name} is not UTF-8 text`, { path: `/${m.name}`, cause });
        }
      },
    };
  }
  const write = codec.writer(target);
  const read = codec.reader(target);
  return {
    write: (v) => (v === undefined || v === null ? none : { body: write(v), contentType: codec.mediaType }),
    read: (bytes) => (bytes.byteLength === 0 ? undefined : read(bytes)),
  };
}

interface CompiledHeader {
  readonly name: string;
  write(value: unknown): EventHeaderValue;
  read(header: EventHeaderValue): unknown;
}

const INTEGER_HEADERS: ReadonlySet<string> = new Set(["byte", "short", "integer", "long"]);

/** An `@eventHeader` member: its header type comes from its target. */
function compileHeader(m: MemberSchema): CompiledHeader {
  const name = m.name;
  const kind = m.target.kind;
  const mismatch = (h: EventHeaderValue): SerializationError =>
    new SerializationError(`decode event stream: header ${name} is a ${h.type}, expected a ${kind}`, { path: `/${name}` });
  const bad = (v: unknown): SerializationError => new SerializationError(`encode event stream: header ${name} cannot hold ${typeof v}`, { path: `/${name}` });
  switch (kind) {
    case "boolean":
      return {
        name,
        write: (v) => {
          if (typeof v !== "boolean") throw bad(v);
          return { type: "boolean", value: v };
        },
        read: (h) => {
          if (h.type !== "boolean") throw mismatch(h);
          return h.value;
        },
      };
    case "byte":
    case "short":
    case "integer":
    case "intEnum":
    case "long": {
      const type = kind === "intEnum" ? "integer" : kind;
      return {
        name,
        write: (v) => {
          if (type === "long" && (typeof v === "number" || typeof v === "bigint")) return { type, value: v };
          if (typeof v !== "number" || !Number.isInteger(v)) throw bad(v);
          return { type: type as "byte" | "short" | "integer", value: v };
        },
        read: (h) => {
          if (!INTEGER_HEADERS.has(h.type)) throw mismatch(h);
          const value = h.value as number | bigint;
          return typeof value === "bigint" && kind !== "long" ? Number(value) : value;
        },
      };
    }
    case "blob":
      return {
        name,
        write: (v) => {
          if (typeof v === "string") return { type: "binary", value: utf8Encoder.encode(v) };
          if (!(v instanceof Uint8Array)) throw bad(v);
          return { type: "binary", value: v };
        },
        read: (h) => {
          if (h.type !== "binary") throw mismatch(h);
          return h.value;
        },
      };
    case "string":
    case "enum":
      return {
        name,
        write: (v) => {
          if (typeof v !== "string") throw bad(v);
          return { type: "string", value: v };
        },
        read: (h) => {
          if (h.type !== "string") throw mismatch(h);
          return h.value;
        },
      };
    case "timestamp":
      return {
        name,
        write: (v) => {
          if (!(v instanceof Date)) throw bad(v);
          return { type: "timestamp", value: v };
        },
        read: (h) => {
          if (h.type !== "timestamp") throw mismatch(h);
          return h.value;
        },
      };
    default:
      return {
        name,
        write: () => {
          throw new SerializationError(`encode event stream: header ${name} targets a ${kind}, which a header cannot carry`, { path: `/${name}` });
        },
        read: (h) => {
          throw mismatch(h);
        },
      };
  }
}

function str(value: string): EventHeaderValue {
  return { type: "string", value };
}

/** A required string header: missing or of another type is a malformed message. */
function stringHeader(message: EventMessage, name: string): string {
  const h = Object.hasOwn(message.headers, name) ? message.headers[name] : undefined;
  if (h === undefined) throw new SerializationError(`decode event stream: message has no ${name} header`);
  if (h.type !== "string") throw new SerializationError(`decode event stream: ${name} header is a ${h.type}, expected a string`);
  return h.value;
}

function optionalString(message: EventMessage, name: string): string | undefined {
  const h = Object.hasOwn(message.headers, name) ? message.headers[name] : undefined;
  return h?.type === "string" ? h.value : undefined;
}

function define(headers: Record<string, EventHeaderValue>, name: string, value: EventHeaderValue): void {
  Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
}

function excerpt(body: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, 256));
}
