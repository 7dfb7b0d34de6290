/**
 * Writing and reading the bound parts of a message (headers, query,
 * payload or JSON body, status code) from a structure's binding plan. Both
 * sides use it: the client for input and output/errors, the server for
 * input and output/errors.
 *
 * @internal
 */
import { byteChunks, type HttpBody, type MemberSchema, SerializationError, type Schema, type StructSchema } from "@anvil/core";
import { binaryBody, isBlank, plainBytes, queryPairProblem } from "@anvil/core/protocol";
import { compileReader, compileWriter, type JsonSettings } from "@anvil/codec-json";
import { type Bindings, bindingsOf, type Direction, type HttpBindingSettings, isJsonPayload, JSON_MEDIA_TYPE, UNIT } from "./bindings.js";
import { type Location, quoteHeaderItem, scalarToText, splitHeaderList, textToScalar, timestampFormatIn } from "./text-values.js";

type Obj = Record<string, unknown>;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/** The text forms of a member's value: one for a scalar, one per item for a list. */
function textsOf(member: MemberSchema, value: unknown, location: Location): string[] {
  const target = member.target;
  if (target.kind === "list") {
    if (!Array.isArray(value)) throw new SerializationError(`encode restJson: /${member.name} is not a list`, { path: `/${member.name}` });
    const item = target.member;
    const traits = { ...item.traits, ...pickTextTraits(member.traits) };
    return value.filter((v) => v !== null && v !== undefined).map((v, i) => scalarToText(item.target, traits, v, location, `/${member.name}/${i}`));
  }
  return [scalarToText(target, member.traits, value, location, `/${member.name}`)];
}

/** A member's `@timestampFormat` and `@mediaType` apply to the items of its list. */
function pickTextTraits(traits: MemberSchema["traits"]): MemberSchema["traits"] {
  return {
    ...(traits.timestampFormat !== undefined ? { timestampFormat: traits.timestampFormat } : {}),
    ...(traits.mediaType !== undefined ? { mediaType: traits.mediaType } : {}),
  };
}

/** Writes header- and prefix-header-bound members. */
export function writeHeaders(schema: StructSchema, direction: Direction, value: Obj, headers: Headers): void {
  headerWriterOf(schema, direction)?.(value, headers);
}

/** Writes a structure's header-bound members into headers. */
export type HeaderWriter = (value: Obj, headers: Headers) => void;

const headerWriters = { request: new WeakMap<StructSchema, HeaderWriter | null>(), response: new WeakMap<StructSchema, HeaderWriter | null>() };

/** The header writer of a structure, once per direction; undefined when it binds no header. */
export function headerWriterOf(schema: StructSchema, direction: Direction): HeaderWriter | undefined {
  const cache = headerWriters[direction];
  let writer = cache.get(schema);
  if (writer === undefined) cache.set(schema, (writer = compileHeaderWriter(bindingsOf(schema, direction))));
  return writer ?? undefined;
}

function compileHeaderWriter(plan: Bindings): HeaderWriter | null {
  const { prefixHeaders, headers: bound } = plan;
  if (prefixHeaders.length === 0 && bound.length === 0) return null;
  return (value, headers) => {
    // Prefix headers first: a header bound to a member of its own wins.
    for (const { member, prefix } of prefixHeaders) {
      const map = value[member.name];
      if (map === undefined || map === null || typeof map !== "object") continue;
      for (const [key, v] of Object.entries(map as Obj)) if (typeof v === "string") headers.set(`${prefix}${key}`, v);
    }
    for (const { member, name } of bound) {
      const v = value[member.name];
      if (v === undefined || v === null) continue;
      const texts = textsOf(member, v, "header");
      if (member.target.kind === "list") {
        const item = member.target.member.target;
        const quote = item.kind === "string" || item.kind === "enum";
        headers.set(name, texts.map((t) => (quote ? quoteHeaderItem(t) : t)).join(", "));
      } else headers.set(name, texts[0]!);
    }
  };
}

/** Writes query-bound members as decoded pairs; `@httpQuery` keys win over `@httpQueryParams` ones. */
export function writeQuery(schema: StructSchema, value: Obj, query: [string, string][]): void {
  const plan = bindingsOf(schema, "request");
  const explicit = new Set<string>();
  for (const { member, key } of plan.query) {
    const v = value[member.name];
    if (v === undefined || v === null) continue;
    explicit.add(key);
    for (const text of textsOf(member, v, "query")) query.push([key, text]);
  }
  const paramsMember = plan.queryParams;
  if (paramsMember === undefined) return;
  const map = value[paramsMember.name];
  if (map === undefined || map === null || typeof map !== "object") return;
  for (const [key, v] of Object.entries(map as Obj)) {
    if (explicit.has(key) || v === null || v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) query.push([key, String(item)]);
    else query.push([key, String(v)]);
  }
}

/** A body and its content type. */
export interface Body {
  /** The body: bytes, or JSON text in a response (the transport encodes it as it writes). */
  readonly data: Uint8Array | string | undefined;
  readonly contentType: string | undefined;
}

/**
 * The `@streaming` blob payload of a message, if it has one and the protocol
 * writes raw payloads (restJson1): its bytes pass through as a stream
 * instead of being buffered.
 */
export function streamingBlobPayload(settings: HttpBindingSettings, schema: StructSchema, direction: Direction): MemberSchema | undefined {
  if (!settings.rawPayloads) return undefined;
  const payload = bindingsOf(schema, direction).payload;
  return payload !== undefined && payload.target.kind === "blob" && payload.traits.streaming ? payload : undefined;
}

/** A message body as a stream of bytes (whole bytes, as the transport may have buffered them, are one chunk). */
export function bodyStream(given: HttpBody): AsyncIterable<Uint8Array> {
  const body = binaryBody(given);
  return body === undefined || body instanceof Uint8Array ? oneChunk(body) : byteChunks(body);
}

async function* oneChunk(bytes: Uint8Array | undefined): AsyncIterable<Uint8Array> {
  if (bytes !== undefined && bytes.byteLength > 0) yield bytes;
}

const EMPTY_OBJECT = utf8Encoder.encode("{}");

const NO_BODY: Body = Object.freeze({ data: undefined, contentType: undefined });

/**
 * The body of a message: its `@httpPayload` member (JSON for structures,
 * unions and documents; text or bytes for strings and blobs under
 * restJson1), else a JSON object of the unbound members, else nothing.
 */
export function writeBody(settings: HttpBindingSettings, schema: StructSchema, direction: Direction, value: Obj): Body {
  return bodyWriterOf(settings, schema, direction)(value);
}

/** Writes a structure's body. */
export type BodyWriter = (value: Obj) => Body;

const bodyWriters = perSettings<BodyWriter>();

/** The body writer of a structure, once per settings and direction. */
export function bodyWriterOf(settings: HttpBindingSettings, schema: StructSchema, direction: Direction): BodyWriter {
  return bodyWriters(settings, schema, direction, compileBodyWriter);
}

function compileBodyWriter(settings: HttpBindingSettings, schema: StructSchema, direction: Direction): BodyWriter {
  const plan = bindingsOf(schema, direction);
  const payload = plan.payload;
  if (payload === undefined) {
    // A request without body members has no body; a response has a JSON object unless the operation has no output at all.
    if (plan.body === undefined) {
      const empty: Body = direction === "request" || schema.id === UNIT ? NO_BODY : Object.freeze({ data: EMPTY_OBJECT, contentType: JSON_MEDIA_TYPE });
      return () => empty;
    }
    const encode = jsonEncoder(plan.body, settings.json, direction);
    return (value) => ({ data: encode(value), contentType: JSON_MEDIA_TYPE });
  }
  const target = payload.target;
  const name = payload.name;
  // An event stream is not written whole: the protocol streams it (event-stream.ts).
  if (target.kind === "union" && payload.traits.streaming) return () => NO_BODY;
  // A request's unset structure payload is an empty object; other unset payloads are no body.
  const unset: Body = target.kind === "structure" && direction === "request" ? Object.freeze({ data: EMPTY_OBJECT, contentType: JSON_MEDIA_TYPE }) : NO_BODY;
  if (settings.rawPayloads && target.kind === "blob" && !isJsonPayload(target)) {
    const contentType = payload.traits.mediaType ?? "application/octet-stream";
    return (value) => {
      const v = value[name];
      if (v === undefined || v === null) return unset;
      return { data: typeof v === "string" ? utf8Encoder.encode(v) : (v as Uint8Array), contentType };
    };
  }
  if (settings.rawPayloads && (target.kind === "string" || target.kind === "enum") && !isJsonPayload(target)) {
    const contentType = payload.traits.mediaType ?? "text/plain";
    return (value) => {
      const v = value[name];
      return v === undefined || v === null ? unset : { data: utf8Encoder.encode(String(v)), contentType };
    };
  }
  // Without raw payloads every payload is JSON, whatever its `@mediaType`.
  const contentType = settings.rawPayloads ? (payload.traits.mediaType ?? JSON_MEDIA_TYPE) : JSON_MEDIA_TYPE;
  const encode = jsonEncoder(target, settings.json, direction);
  return (value) => {
    const v = value[name];
    return v === undefined || v === null ? unset : { data: encode(v), contentType };
  };
}

/**
 * A compiled JSON writer: to bytes for a request (the client hashes,
 * compresses and measures them), to text for a response (a server's
 * transport encodes it as it writes, cheaper than encoding it here).
 */
function jsonEncoder(schema: Schema, json: JsonSettings, direction: Direction): (value: unknown) => Uint8Array | string {
  const write = compileWriter(schema, json);
  return direction === "response" ? write : write.toBytes;
}

/**
 * A cache of something compiled per protocol settings, structure and
 * direction (readers and writers of messages).
 */
function perSettings<T>(): (
  settings: HttpBindingSettings,
  schema: StructSchema,
  direction: Direction,
  compile: (settings: HttpBindingSettings, schema: StructSchema, direction: Direction) => T,
) => T {
  const bySettings = new WeakMap<HttpBindingSettings, { request: WeakMap<StructSchema, T>; response: WeakMap<StructSchema, T> }>();
  return (settings, schema, direction, compile) => {
    let caches = bySettings.get(settings);
    if (caches === undefined) bySettings.set(settings, (caches = { request: new WeakMap(), response: new WeakMap() }));
    const cache = caches[direction];
    let value = cache.get(schema);
    if (value === undefined) cache.set(schema, (value = compile(settings, schema, direction)));
    return value;
  };
}

/** What a message carries besides its body. */
export interface Incoming {
  readonly headers: Headers;
  /** Decoded query pairs (requests). */
  readonly query?: readonly (readonly [string, string])[];
  /** Decoded labels (requests). */
  readonly labels?: Readonly<Record<string, string>>;
  /** The status code (responses). */
  readonly status?: number;
}

/** Reads a message's bound members and body into a structure value. */
export function readMessage(settings: HttpBindingSettings, schema: StructSchema, direction: Direction, incoming: Incoming, bytes: Uint8Array): Obj {
  return messageReaderOf(settings, schema, direction)(incoming, bytes);
}

/** Reads a message into a structure value. */
export type MessageReader = (incoming: Incoming, bytes: Uint8Array) => Obj;

const messageReaders = perSettings<MessageReader>();

/** The message reader of a structure, once per settings and direction. */
export function messageReaderOf(settings: HttpBindingSettings, schema: StructSchema, direction: Direction): MessageReader {
  return messageReaders(settings, schema, direction, compileMessageReader);
}

function compileMessageReader(settings: HttpBindingSettings, schema: StructSchema, direction: Direction): MessageReader {
  const plan = bindingsOf(schema, direction);
  // Only a server reads requests, and it reads them strictly (a malformed request is a 400).
  const strict = direction === "request";
  const json = strict ? strictJsonOf(settings) : settings.json;
  const readBody = plan.body === undefined ? undefined : compileReader(plan.body, json);
  const { payload, labels, query: queryBound, queryParams: paramsMember, headers: headersBound, prefixHeaders, responseCode } = plan;
  const bindsQuery = queryBound.length > 0 || paramsMember !== undefined;
  return (incoming, bytes) => {
    // The body first: the JSON reader fills nested and member defaults.
    // (The JSON reader's answer is a fresh object of its own, ours to add the bound members to.)
    const out = (readBody === undefined ? {} : isBlank(bytes) ? readBody("{}") : readBody(bytes)) as Obj;

    if (payload !== undefined) {
      // An absent payload is its `@default`, on both sides; a stream is empty, not absent.
      const v = readPayload(settings, json, payload, bytes) ?? (payload.target.traits.streaming ? undefined : payload.traits.default);
      if (v !== undefined) out[payload.name] = v;
    }

    if (incoming.labels !== undefined) {
      for (const member of labels) {
        const text = incoming.labels[member.name];
        if (text !== undefined) out[member.name] = textToScalar(member.target, member.traits, text, "label", `/${member.name}`, strict);
      }
    }

    if (bindsQuery && incoming.query !== undefined) {
      const query = incoming.query;
      for (const { member, key } of queryBound) {
        const pairs = query.filter(([n]) => n === key);
        if (pairs.length === 0) continue;
        if (strict) {
          for (const pair of pairs) refuseUndecoded(settings, member, pair);
          // Which of several values a single-valued member should take is anyone's guess (smithy-rs refuses them too).
          if (pairs.length > 1 && member.target.kind !== "list") {
            throw new SerializationError(
              `decode ${settings.name}: query parameter ${JSON.stringify(key)} appears ${pairs.length} times, but /${member.name} takes one value`,
              { path: `/${member.name}` },
            );
          }
        }
        out[member.name] = fromTexts(
          member,
          pairs.map(([, v]) => v),
          "query",
          strict,
        );
      }
      if (paramsMember !== undefined && paramsMember.target.kind === "map") {
        const listValued = paramsMember.target.value.target.kind === "list";
        const map: Record<string, unknown> = {};
        for (const pair of query) {
          if (strict) refuseUndecoded(settings, paramsMember, pair);
          const [n, v] = pair;
          if (listValued) ((map[n] ??= []) as string[]).push(v);
          else if (!Object.hasOwn(map, n)) map[n] = v;
        }
        if (Object.keys(map).length > 0) out[paramsMember.name] = map;
      }
    }

    for (const { member, name } of headersBound) {
      const text = incoming.headers.get(name);
      if (text === null) continue;
      if (member.target.kind === "list") {
        const item = member.target.member;
        const traits = { ...item.traits, ...pickTextTraits(member.traits) };
        const httpDates = item.target.kind === "timestamp" && timestampFormatIn(traits, "header") === "http-date";
        out[member.name] = splitHeaderList(text, httpDates).map((t, i) => textToScalar(item.target, traits, t, "header", `/${member.name}/${i}`, strict));
      } else out[member.name] = textToScalar(member.target, member.traits, text.trim(), "header", `/${member.name}`, strict);
    }
    for (const { member, prefix } of prefixHeaders) {
      const map: Record<string, string> = {};
      let any = false;
      incoming.headers.forEach((value, name) => {
        if (!name.startsWith(prefix)) return;
        map[name.slice(prefix.length)] = value;
        any = true;
      });
      if (any) out[member.name] = map;
    }

    if (responseCode !== undefined && incoming.status !== undefined) out[responseCode.name] = incoming.status;
    return out;
  };
}

/** A server refuses a query parameter it reads whose name or value is not valid percent-encoding (the transport kept it as written). */
function refuseUndecoded(settings: HttpBindingSettings, member: MemberSchema, pair: readonly [string, string]): void {
  const problem = queryPairProblem(pair);
  if (problem !== undefined)
    throw new SerializationError(`decode ${settings.name}: query parameter ${JSON.stringify(pair[0])}: ${problem}`, { path: `/${member.name}` });
}

function fromTexts(member: MemberSchema, texts: readonly string[], location: Location, strict: boolean): unknown {
  const target = member.target;
  if (target.kind === "list") {
    const item = target.member;
    const traits = { ...item.traits, ...pickTextTraits(member.traits) };
    return texts.map((t, i) => textToScalar(item.target, traits, t, location, `/${member.name}/${i}`, strict));
  }
  return textToScalar(target, member.traits, texts[0]!, location, `/${member.name}`, strict);
}

const strictJson = new WeakMap<HttpBindingSettings, JsonSettings>();

/** A protocol's JSON settings for reading requests: strict (UTC date-times, padded base64, known union members). */
function strictJsonOf(settings: HttpBindingSettings): JsonSettings {
  let json = strictJson.get(settings);
  if (json === undefined) strictJson.set(settings, (json = Object.freeze({ ...settings.json, strict: true })));
  return json;
}

function readPayload(settings: HttpBindingSettings, json: JsonSettings, payload: MemberSchema, bytes: Uint8Array): unknown {
  const target = payload.target;
  if (settings.rawPayloads && !isJsonPayload(target)) {
    // An empty body is an unset payload, unless the member is required: then it is the empty blob or text it says.
    if (bytes.length === 0)
      return payload.traits.required !== true ? undefined : target.kind === "blob" ? new Uint8Array(0) : target.kind === "string" ? "" : undefined;
    if (target.kind === "blob") return plainBytes(bytes);
    if (target.kind === "string" || target.kind === "enum") {
      try {
        return utf8Decoder.decode(bytes);
      } catch (cause) {
        throw new SerializationError(`decode ${settings.name}: payload /${payload.name} is not UTF-8 text`, { path: `/${payload.name}`, cause });
      }
    }
  }
  if (isBlank(bytes)) return undefined;
  const value = compileReader(target, json)(bytes);
  // `{}` is what an unset structure payload is written as.
  if (target.kind === "structure" && typeof value === "object" && value !== null && Object.keys(value).length === 0) return undefined;
  return value;
}
