/**
 * Messages and fields: structures, unions (oneofs, inlined or in their own
 * message), lists (packed when they can be), maps, and wrapper messages for
 * presence. Each schema compiles once into closures, registered before
 * recursing so recursive shapes reach themselves through a trampoline.
 */
import type { ListSchema, MapSchema, Schema, StructSchema, Traits, UnionSchema } from "@anvil/core";
import { setDataKey } from "@anvil/core/protocol";
import { describe, fail, rethrow } from "./failure.js";
import { Fast } from "./fast-kinds.js";
import { checkFieldNumbers, flatFields, oneofLayout, structLayout, type VariantLayout } from "./layout.js";
import { LEN, type ProtoReader } from "./reader-buffer.js";
import { scalarType, type ValueType } from "./scalars.js";
import { documentType, enterWrite, MAX_DEPTH, protoTimestampFormat, readTag, readTimestamp, timestampTypeFor, tooDeep, wrongWireType } from "./well-known.js";
import type { ProtoWriter } from "./writer-buffer.js";

/** Writes a message body (no tag, no length). */
export type WriteBody = (value: unknown, w: ProtoWriter) => void;
/** Reads a message body up to `end` (the reader's `end` is set to it). */
export type ReadBody = (r: ProtoReader, end: number) => unknown;

/** A message: its body codec. */
export interface MessageCodec {
  readonly writeBody: WriteBody;
  readonly readBody: ReadBody;
}

/** One field of a message: writes its tag(s) and value(s), reads one occurrence into the message object. */
interface FieldCodec {
  readonly name: string;
  /** Field numbers this codec answers (several for an inlined oneof). */
  readonly numbers: readonly number[];
  readonly write: (value: unknown, w: ProtoWriter) => void;
  readonly read: (r: ProtoReader, number: number, wireType: number, target: Record<string, unknown>) => void;
  /** For required and defaulted members: the value of an absent field. */
  readonly zero: (() => unknown) | undefined;
  /**
   * How the message loop reads an occurrence on `wireType` itself (the hot
   * path): {@link Mode}. On any other wire type, or in mode `generic`, it
   * calls `read`.
   */
  readonly mode: Mode;
  readonly wireType: number;
  /** Modes `value`, `element` and `mapEntry`: the value (element, map value) reader, unless `fast` names a kind read inline. */
  readonly readValue: ((r: ProtoReader) => unknown) | undefined;
  /** Modes `value`, `element` and `mapEntry`: the {@link Fast} code of the value. */
  readonly fast: number;
  /** Modes `message` and `element`: the nested message's body reader (an element that is not a message has none). */
  readonly body: ReadBody | undefined;
  /** Mode `mapEntry`: the tag of the entry's value, and the value of an entry without one. */
  readonly valueTag: number;
  readonly zeroValue: (() => unknown) | undefined;
  /** Mode `element`: whether the elements may come packed (one length-delimited run). */
  readonly packed: boolean;
}

/** How the message loop reads a field (see {@link FieldCodec.mode}); a const enum, inlined by the bundler. */
const enum Mode {
  generic = 0,
  value = 1,
  message = 2,
  element = 3,
  mapEntry = 4,
}

/** What a field holds, for the message loop: one value, list elements (unpacked), or map entries. */
interface FieldKind {
  readonly single?: ValueType;
  readonly elements?: ValueType;
  readonly mapValue?: { readonly type: ValueType; readonly tag: number; readonly zero: () => unknown };
}

/** Builds a field codec (every one with the same shape, so the message loop's property loads stay monomorphic). */
function field(
  name: string,
  numbers: readonly number[],
  write: FieldCodec["write"],
  read: FieldCodec["read"],
  zero: (() => unknown) | undefined,
  { single, elements, mapValue }: FieldKind = {},
): FieldCodec {
  let mode = Mode.generic;
  if (single) mode = single.body ? Mode.message : Mode.value;
  else if (elements) mode = Mode.element;
  else if (mapValue) mode = Mode.mapEntry;
  const type = single ?? elements ?? mapValue?.type;
  return {
    name,
    numbers,
    write,
    read,
    zero,
    mode,
    wireType: mapValue ? LEN : (type?.wireType ?? -1),
    readValue: type?.read,
    fast: type?.fast ?? Fast.none,
    body: type?.body,
    valueTag: mapValue?.tag ?? -1,
    zeroValue: mapValue?.zero,
    packed: elements?.packable ?? false,
  };
}

const messages = new WeakMap<Schema, MessageCodec>();
const types = new WeakMap<Schema, Map<string, ValueType>>();

/** The message codec of a structure or union schema; any other schema is a one-field message (`value = 1`). */
export function messageFor(schema: Schema): MessageCodec {
  const cached = messages.get(schema);
  if (cached) return cached;
  let impl: MessageCodec | undefined;
  // recursive references reach this trampoline until the real codec exists
  messages.set(schema, { writeBody: (v, w) => impl!.writeBody(v, w), readBody: (r, end) => impl!.readBody(r, end) });
  try {
    impl = schema.kind === "structure" ? structMessage(schema) : schema.kind === "union" ? unionMessage(schema) : wrapperMessage(schema, schema.traits, false);
  } catch (error) {
    // a schema that cannot compile (duplicate field numbers) leaves no half-built trampoline behind
    messages.delete(schema);
    throw error;
  }
  messages.set(schema, impl);
  return impl;
}

/**
 * Reads one value of a {@link Fast} kind with a direct call (monomorphic,
 * inlinable), else through the type's `read` closure.
 */
function readFast(r: ProtoReader, fast: number, read: (r: ProtoReader) => unknown): unknown {
  switch (fast) {
    case Fast.string:
      return r.string();
    case Fast.int32:
      return r.uint32() | 0;
    case Fast.double:
      return r.double();
    case Fast.int64:
      return r.int64();
    case Fast.float:
      return r.float();
    case Fast.bool:
      r.varint64();
      return (r.lo | r.hi) !== 0;
    case Fast.bytes:
      return r.bytes();
    case Fast.timestamp:
      return readTimestamp(r);
    default:
      return read(r);
  }
}

/** Where a value sits: a structure field, a list element, a map value or a oneof variant. */
type Position = "field" | "element" | "mapValue" | "variant";

/**
 * The value type of a member's target: a scalar, a nested message, or a
 * wrapper message when `@protoWrapped` asks for presence or the position
 * cannot hold a collection (lists and maps inside lists, maps and oneofs).
 */
export function valueTypeOf(target: Schema, traits: Traits, position: Position): ValueType {
  const collection = target.kind === "list" || target.kind === "map";
  if (traits.protoWrapped === true || (collection && position !== "field")) return wrapped(target, traits, false);
  return plainType(target, traits);
}

function plainType(target: Schema, traits: Traits): ValueType {
  const key = variantKey(target, traits);
  let byKey = types.get(target);
  if (!byKey) types.set(target, (byKey = new Map()));
  let type = byKey.get(key);
  if (!type) {
    type = buildType(target, traits);
    byKey.set(key, type);
  }
  return type;
}

/** What, besides the schema, decides a value type: the number type, or a timestamp's format. */
export function variantKey(target: Schema, traits: Traits): string {
  return target.kind === "timestamp" ? protoTimestampFormat(traits) : (traits.protoNumType ?? "");
}

function buildType(target: Schema, traits: Traits): ValueType {
  const scalar = scalarType(target, traits.protoNumType);
  if (scalar) return scalar;
  switch (target.kind) {
    case "timestamp":
      return timestampTypeFor(traits);
    case "document":
      return documentType;
    case "structure":
    case "union":
      return messageType(target);
    default:
      throw new TypeError(`protobuf: ${target.id} (${target.kind}) has no single-value type`);
  }
}

/** A nested message: length, then body. */
function messageType(schema: StructSchema<unknown> | UnionSchema<unknown>): ValueType {
  const codec = messageFor(schema);
  // length bytes the last message of this type needed: the reservation that usually avoids moving the body
  let hint = 1;
  return {
    wireType: LEN,
    packable: false,
    write: (value, w) => {
      const reserved = hint;
      const start = w.fork(reserved);
      codec.writeBody(value, w);
      hint = w.join(start, reserved);
    },
    read: (r) => readNested(r, codec.readBody),
    zero: schema.kind === "structure" ? () => emptyBody(codec) : () => undefined,
    body: codec.readBody,
  };
}

function emptyBody(codec: MessageCodec): unknown {
  return codec.readBody({ pos: 0, end: 0 } as ProtoReader, 0);
}

/** @internal Reads a length-delimited body with the reader's `end` narrowed to it (small enough for V8 to inline). */
export function readNested(r: ProtoReader, body: ReadBody): unknown {
  const end = r.length();
  const outer = r.end;
  r.end = end;
  if (++r.depth > MAX_DEPTH) tooDeep();
  const out = body(r, end);
  r.depth--;
  r.end = outer;
  return out;
}

/** Reads one unpacked list element (a value, or a message `body`) onto `list`. */
function pushElement(r: ProtoReader, list: unknown[], fast: number, read: ((r: ProtoReader) => unknown) | undefined, body: ReadBody | undefined): void {
  try {
    if (body === undefined) list.push(fast === Fast.string ? r.string() : readFast(r, fast, read!));
    else {
      const value = readNested(r, body);
      if (value === undefined) fail("list element is a union message with no member set");
      list.push(value);
    }
  } catch (error) {
    rethrow(error, list.length);
  }
}

/** Reads a packed run of elements onto `list`: one loop per common kind, with direct reader calls. */
function readPacked(r: ProtoReader, list: unknown[], fast: number, read: (r: ProtoReader) => unknown): void {
  const end = r.length();
  const outer = r.end;
  r.end = end;
  try {
    switch (fast) {
      case Fast.int32:
        while (r.pos < end) list.push(r.uint32() | 0);
        break;
      case Fast.int64:
        while (r.pos < end) list.push(r.int64());
        break;
      case Fast.double:
        while (r.pos < end) list.push(r.double());
        break;
      case Fast.float:
        while (r.pos < end) list.push(r.float());
        break;
      default:
        while (r.pos < end) list.push(read(r));
    }
  } catch (error) {
    rethrow(error, list.length);
  }
  r.end = outer;
}

/** Reads one map entry (`{ string key = 1; V value = 2; }`, length-delimited) into `map`. */
function readMapEntry(
  r: ProtoReader,
  map: Record<string, unknown>,
  valueTag: number,
  valueFast: number,
  readValue: (r: ProtoReader) => unknown,
  zeroValue: () => unknown,
): void {
  const end = r.length();
  const outer = r.end;
  r.end = end;
  const b = r.buf;
  let key = "";
  let value: unknown;
  while (r.pos < end) {
    // one-byte tags inline
    let t = b[r.pos]!;
    if (t === 0x0a || t === valueTag) r.pos++;
    else t = readTag(r);
    if (t === 0x0a) key = r.key();
    else if (t === valueTag) {
      try {
        value = valueFast === Fast.string ? r.string() : readFast(r, valueFast, readValue);
      } catch (error) {
        rethrow(error, key);
      }
    } else if (t >>> 3 === 1 || t >>> 3 === 2) wrongWireType(t >>> 3, t & 7);
    else r.skip(t & 7, t >>> 3);
  }
  r.end = outer;
  if (value === undefined) value = zeroValue();
  if (value === undefined) rethrow(new Error("map entry without a value"), key);
  if (key === "__proto__") setDataKey(map, key, value);
  else map[key] = value;
}

/**
 * A wrapper message `{ T value = 1; }`. For `@protoWrapped` (Google's
 * wrappers), the value has implicit presence: a zero value is left out and
 * an empty wrapper reads as the zero value. For the elements of `@sparse`
 * collections (`emptyIsNull`), the value has explicit presence (`optional`):
 * it is always written, and an empty wrapper is `null`.
 */
function wrapped(target: Schema, traits: Traits, emptyIsNull: boolean): ValueType {
  const key = `wrapped:${variantKey(target, traits)}:${emptyIsNull}`;
  let byKey = types.get(target);
  if (!byKey) types.set(target, (byKey = new Map()));
  const cached = byKey.get(key);
  if (cached) return cached;
  let codec: MessageCodec | undefined;
  const type: ValueType = {
    wireType: LEN,
    packable: false,
    write: (value, w) => {
      const start = w.fork();
      codec!.writeBody(value, w);
      w.join(start);
    },
    read: (r) => readNested(r, codec!.readBody),
    zero: () => undefined,
  };
  // registered before compiling the contents: a recursive list reaches itself
  byKey.set(key, type);
  codec = wrapperMessage(target, traits, emptyIsNull);
  return type;
}

function wrapperMessage(target: Schema, traits: Traits, emptyIsNull: boolean): MessageCodec {
  const unwrapped = { ...traits, protoWrapped: false } as Traits;
  // nullable contents have explicit presence, like a oneof variant (and a collection among them is wrapped again)
  const field = fieldCodec("value", 1, target, unwrapped, emptyIsNull ? "variant" : "field", true);
  const zero = emptyIsNull ? () => null : (field.zero ?? (() => undefined));
  return {
    writeBody: (value, w) => {
      if (value === null) {
        if (!emptyIsNull) fail("null value");
        return;
      }
      enterWrite(w);
      field.write(value, w);
      w.depth--;
    },
    readBody: (r, end) => {
      const box: Record<string, unknown> = {};
      while (r.pos < end) {
        const tag = readTag(r);
        if (tag >>> 3 === 1) field.read(r, 1, tag & 7, box);
        else r.skip(tag & 7, tag >>> 3);
      }
      const value = box.value;
      return value === undefined ? zero() : value;
    },
  };
}

/**
 * The field codec of a member: singular, repeated (a list), a map, or (for
 * `required` zero values) with its zero. `forceZero` gives every field a
 * zero (wrapper contents). A singular scalar field in a message has
 * implicit presence: a zero value is left out, as proto3 encoders do.
 */
function fieldCodec(name: string, number: number, target: Schema, traits: Traits, position: Position, forceZero: boolean): FieldCodec {
  if (target.kind === "list" && traits.protoWrapped !== true && position === "field") return listField(name, number, target, forceZero || isPresent(traits));
  if (target.kind === "map" && traits.protoWrapped !== true && position === "field") return mapField(name, number, target, forceZero || isPresent(traits));
  const type = valueTypeOf(target, traits, position);
  const tag = number * 8 + type.wireType;
  const expected = type.wireType;
  const { write, read } = type;
  const isZero = position === "field" ? type.isZero : undefined;
  return field(
    name,
    [number],
    isZero
      ? (value, w) => {
          if (isZero(value)) return;
          w.uint32(tag);
          write(value, w);
        }
      : (value, w) => {
          w.uint32(tag);
          write(value, w);
        },
    (r, _number, wireType, target) => {
      if (wireType !== expected) wrongWireType(number, wireType);
      target[name] = read(r);
    },
    forceZero || isPresent(traits) ? type.zero : undefined,
    { single: type },
  );
}

/** Required and defaulted members always have a value: an absent field is its zero value. */
function isPresent(traits: Traits): boolean {
  return traits.required === true || traits.default !== undefined;
}

function listField(name: string, number: number, schema: ListSchema<unknown>, present: boolean): FieldCodec {
  const sparse = schema.traits.sparse === true;
  const member = schema.member;
  const item = sparse ? wrapped(member.target, member.traits, true) : valueTypeOf(member.target, member.traits, "element");
  const { write, read, wireType, body } = item;
  const fast = item.fast ?? Fast.none;
  const packed = item.packable;
  const tag = number * 8 + (packed ? LEN : wireType);
  return field(
    name,
    [number],
    (value, w) => {
      if (!Array.isArray(value)) fail(`expected array, got ${describe(value)}`);
      const n = value.length;
      if (n === 0) return;
      if (packed) {
        w.uint32(tag);
        const start = w.fork();
        for (let i = 0; i < n; i++) {
          const v = value[i];
          try {
            if (v === null || v === undefined) fail("null in a non-sparse list");
            write(v, w);
          } catch (error) {
            rethrow(error, i);
          }
        }
        w.join(start);
        return;
      }
      for (let i = 0; i < n; i++) {
        const v = value[i];
        try {
          if (v === undefined || (v === null && !sparse)) fail("null in a non-sparse list");
          w.uint32(tag);
          write(v, w);
        } catch (error) {
          rethrow(error, i);
        }
      }
    },
    (r, _number, wt, target) => {
      let list = target[name] as unknown[] | undefined;
      if (list === undefined) target[name] = list = [];
      if (wt === wireType) pushElement(r, list, fast, read, body);
      else if (wt === LEN && packed) readPacked(r, list, fast, read);
      else wrongWireType(number, wt);
    },
    present ? () => [] : undefined,
    { elements: item },
  );
}

function mapField(name: string, number: number, schema: MapSchema<unknown>, present: boolean): FieldCodec {
  const sparse = schema.traits.sparse === true;
  const valueMember = schema.value;
  const valueType = sparse ? wrapped(valueMember.target, valueMember.traits, true) : valueTypeOf(valueMember.target, valueMember.traits, "mapValue");
  const valueTag = 16 + valueType.wireType;
  const tag = number * 8 + LEN;
  const writeValue = valueType.write;
  const readValue = valueType.read;
  const valueFast = valueType.fast ?? Fast.none;
  const zeroValue = sparse ? () => null : valueType.zero;
  return field(
    name,
    [number],
    (value, w) => {
      if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Uint8Array || value instanceof Date) {
        return fail(`expected map object, got ${describe(value)}`);
      }
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined) continue;
        try {
          if (v === null && !sparse) fail("null in a non-sparse map");
          w.uint32(tag);
          const start = w.fork();
          w.uint32(0x0a);
          w.string(key);
          w.uint32(valueTag);
          writeValue(v, w);
          w.join(start);
        } catch (error) {
          rethrow(error, key);
        }
      }
    },
    (r, _number, wt, target) => {
      if (wt !== LEN) wrongWireType(number, wt);
      let map = target[name] as Record<string, unknown> | undefined;
      if (map === undefined) target[name] = map = {};
      readMapEntry(r, map, valueTag, valueFast, readValue, zeroValue);
    },
    present ? () => ({}) : undefined,
    { mapValue: { type: valueType, tag: valueTag, zero: zeroValue } },
  );
}

/** The variants of a oneof as one field codec answering each variant's number. */
function oneofField(name: string, variants: readonly VariantLayout[]): FieldCodec {
  const byName = new Map<string, FieldCodec>();
  const byNumber = new Map<number, { variant: string; codec: FieldCodec }>();
  for (const { member, number } of variants) {
    const codec = fieldCodec("value", number, member.target, member.traits, "variant", true);
    byName.set(member.name, codec);
    byNumber.set(number, { variant: member.name, codec });
  }
  const box: Record<string, unknown> = {};
  return field(
    name,
    [...byNumber.keys()],
    (value, w) => {
      if (typeof value !== "object" || value === null || typeof (value as { $case?: unknown }).$case !== "string") {
        return fail(`expected union value { $case, value }, got ${describe(value)}`);
      }
      const { $case, value: v } = value as { $case: string; value: unknown };
      const codec = byName.get($case);
      if (codec === undefined) return fail($case === "$unknown" ? "cannot write an unknown union variant" : `unknown union member ${JSON.stringify($case)}`);
      try {
        if (v === undefined || v === null) fail("union value is null");
        codec.write(v, w);
      } catch (error) {
        rethrow(error, $case);
      }
    },
    (r, number, wireType, target) => {
      const { variant, codec } = byNumber.get(number)!;
      try {
        codec.read(r, number, wireType, box);
      } catch (error) {
        rethrow(error, variant);
      }
      target[name] = { $case: variant, value: box.value };
      box.value = undefined;
    },
    undefined,
  );
}

/** Field codecs by number: an array for small numbers (the usual case), a map beyond. */
function numberIndex(fields: readonly FieldCodec[]): { table: (FieldCodec | undefined)[]; far: Map<number, FieldCodec> | undefined } {
  let max = 0;
  for (const f of fields) for (const n of f.numbers) if (n <= 1024 && n > max) max = n;
  const table: (FieldCodec | undefined)[] = new Array(max + 1).fill(undefined);
  let far: Map<number, FieldCodec> | undefined;
  for (const f of fields) {
    for (const n of f.numbers) {
      if (n <= max) table[n] = f;
      else (far ??= new Map()).set(n, f);
    }
  }
  return { table, far };
}

function structMessage(schema: StructSchema<unknown>): MessageCodec {
  const layout = structLayout(schema.members);
  checkFieldNumbers(schema.id, flatFields(layout));
  const fields = layout.map(({ member, number, variants }) =>
    variants ? oneofField(member.name, variants) : fieldCodec(member.name, number, member.target, member.traits, "field", false),
  );
  return fieldsMessage(fields);
}

function fieldsMessage(fields: readonly FieldCodec[]): MessageCodec {
  const n = fields.length;
  const names = fields.map((f) => f.name);
  const writes = fields.map((f) => f.write);
  const { table, far } = numberIndex(fields);
  const size = table.length;
  const zeros = fields.filter((f) => f.zero !== undefined).map((f) => [f.name, f.zero!] as const);
  // A bit per field, set in `seen` as it is read (up to 31 fields; those with a zero value first):
  // when all fields with a zero value are seen, the zero pass is skipped, and a list or map met
  // for the first time is made without first looking for it in the message object.
  const bits = new Int32Array(size);
  let zeroBits = 0;
  let count = 0;
  let alwaysZeroPass = false;
  const withBits = [
    ...fields.filter((f) => f.zero !== undefined),
    ...fields.filter((f) => f.zero === undefined && (f.mode === Mode.element || f.mode === Mode.mapEntry)),
  ];
  for (const f of withBits) {
    const hasZero = f.zero !== undefined;
    if (count === 31 || f.numbers.some((n) => n >= size)) {
      if (hasZero) alwaysZeroPass = true;
      continue;
    }
    const bit = 1 << count++;
    for (const n of f.numbers) bits[n] = bit;
    if (hasZero) zeroBits |= bit;
  }
  return {
    writeBody: (value, w) => {
      if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Uint8Array || value instanceof Date) {
        return fail(`expected structure object, got ${describe(value)}`);
      }
      enterWrite(w);
      for (let i = 0; i < n; i++) {
        const v = (value as Record<string, unknown>)[names[i]!];
        if (v === undefined || v === null) continue;
        try {
          writes[i]!(v, w);
        } catch (error) {
          rethrow(error, names[i]!);
        }
      }
      w.depth--;
    },
    readBody: (r, end) => {
      const out: Record<string, unknown> = {};
      const b = r.buf;
      let seen = 0;
      let lastField: FieldCodec | undefined;
      let last: object | undefined;
      while (r.pos < end) {
        // one-byte tags (fields 1 to 15) inline, the rest through readTag
        const first = b[r.pos]!;
        let tag: number;
        if (first >= 8 && first < 0x80) {
          tag = first;
          r.pos++;
        } else tag = readTag(r);
        const number = tag >>> 3;
        const wireType = tag & 7;
        let field: FieldCodec | undefined;
        let bit = 0;
        if (number < size) {
          field = table[number];
          bit = bits[number]!;
        } else field = far?.get(number);
        if (field === undefined) {
          r.skip(wireType, number);
          continue;
        }
        const fresh = (seen & bit) === 0;
        seen |= bit;
        try {
          const mode = field.mode;
          if (wireType === field.wireType && mode === Mode.value) {
            // the most common kinds with a direct reader call here, where V8 inlines it (through
            // readFast it runs out of inlining budget: 156K instead of 183K instructions per 2 KB page)
            const fast = field.fast;
            out[field.name] =
              fast === Fast.string
                ? r.string()
                : fast === Fast.int32
                  ? r.uint32() | 0
                  : fast === Fast.double
                    ? r.double()
                    : fast === Fast.timestamp
                      ? readTimestamp(r)
                      : readFast(r, fast, field.readValue!);
          } else if (wireType === field.wireType && mode === Mode.message) {
            // a nested message, inline; an empty union message is no value
            const value = readNested(r, field.body!);
            if (value !== undefined) out[field.name] = value;
          } else if (
            (mode === Mode.element && (wireType === field.wireType || (wireType === LEN && field.packed))) ||
            (mode === Mode.mapEntry && wireType === LEN)
          ) {
            // a list element or map entry: the collection of the previous occurrence when it is the
            // same field (the usual run), a new one when the field is met for the first time
            let collection = last;
            if (field !== lastField) {
              collection = bit !== 0 && fresh ? undefined : (out[field.name] as object | undefined);
              if (collection === undefined) out[field.name] = collection = mode === Mode.element ? [] : {};
              lastField = field;
              last = collection;
            }
            if (mode === Mode.mapEntry) readMapEntry(r, collection as Record<string, unknown>, field.valueTag, field.fast, field.readValue!, field.zeroValue!);
            else if (wireType === field.wireType) pushElement(r, collection as unknown[], field.fast, field.readValue, field.body);
            else readPacked(r, collection as unknown[], field.fast, field.readValue!);
          } else field.read(r, number, wireType, out);
        } catch (error) {
          rethrow(error, field.name);
        }
      }
      if ((seen & zeroBits) === zeroBits && !alwaysZeroPass) return out;
      for (let i = 0; i < zeros.length; i++) {
        const [name, zero] = zeros[i]!;
        if (out[name] === undefined) {
          const z = zero();
          if (z !== undefined) out[name] = z;
        }
      }
      return out;
    },
  };
}

function unionMessage(schema: UnionSchema<unknown>): MessageCodec {
  const variants = oneofLayout(schema);
  checkFieldNumbers(schema.id, variants);
  const field = oneofField("value", variants);
  const numbers = new Set(field.numbers);
  return {
    writeBody: (value, w) => {
      enterWrite(w);
      field.write(value, w);
      w.depth--;
    },
    readBody: (r, end) => {
      const box: Record<string, unknown> = {};
      while (r.pos < end) {
        const tag = readTag(r);
        const number = tag >>> 3;
        if (!numbers.has(number)) r.skip(tag & 7, number);
        else field.read(r, number, tag & 7, box);
      }
      return box.value;
    },
  };
}
