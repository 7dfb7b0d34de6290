/**
 * `google.protobuf.FileDescriptorProto` bytes of `.proto` files held as
 * data (`proto-file.ts`), as server reflection serves them: names resolved
 * to full names as protoc resolves them (innermost scope first), `map<K, V>`
 * fields as repeated `…Entry` messages nested in their message,
 * `optional` fields in proto3's synthetic oneofs, `json_name` as protoc
 * fills it in. Written with the codec's own buffer; descriptor.proto itself
 * is not needed.
 *
 * @internal
 */
import type { ProtoDefinition, ProtoEnum, ProtoField, ProtoFile, ProtoMessage } from "./proto-file.js";
import { ProtoWriter } from "./protobuf/writer-buffer.js";

/** The files of a descriptor set, encoded, and where each symbol is declared. */
export interface DescriptorSet {
  /** Each file's `FileDescriptorProto` bytes, by file name. */
  readonly files: ReadonlyMap<string, Uint8Array>;
  /** The file declaring each fully qualified symbol (no leading dot): messages, enums, enum values, fields, services, methods. */
  readonly symbols: ReadonlyMap<string, string>;
  /** Each file's imports, by file name. */
  readonly imports: ReadonlyMap<string, readonly string[]>;
}

/** `FieldDescriptorProto.Type` by scalar name. */
const SCALAR_TYPES: Readonly<Record<string, number>> = {
  double: 1,
  float: 2,
  int64: 3,
  uint64: 4,
  int32: 5,
  fixed64: 6,
  fixed32: 7,
  bool: 8,
  string: 9,
  bytes: 12,
  uint32: 13,
  sfixed32: 15,
  sfixed64: 16,
  sint32: 17,
  sint64: 18,
};
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const LABEL_OPTIONAL = 1;
const LABEL_REPEATED = 3;

/**
 * Encodes files whose every type is declared in one of them. Throws a
 * TypeError naming the field when a type is not (a bug of whoever made the
 * files: emitted files name only what they declare or import).
 */
export function describeFiles(files: readonly ProtoFile[]): DescriptorSet {
  const kinds = new Map<string, "message" | "enum">();
  const symbols = new Map<string, string>();
  for (const file of files) {
    const prefix = file.package === "" ? "" : `.${file.package}`;
    const add = (name: string): void => {
      if (!symbols.has(name.slice(1))) symbols.set(name.slice(1), file.name);
    };
    const walk = (definitions: readonly ProtoDefinition[], scope: string): void => {
      for (const d of definitions) {
        const full = `${scope}.${d.name}`;
        kinds.set(full, d.kind);
        add(full);
        if (d.kind === "enum") {
          // Enum values are siblings of their enum (C++ scoping rules).
          for (const v of d.values) add(`${scope}.${v.name}`);
          continue;
        }
        for (const item of d.items) {
          if (item.kind === "field") add(`${full}.${item.name}`);
          else for (const f of item.fields) add(`${full}.${f.name}`);
        }
        walk(d.nested ?? [], full);
      }
    };
    walk(file.definitions, prefix);
    for (const service of file.services) {
      add(`${prefix}.${service.name}`);
      for (const m of service.methods) add(`${prefix}.${service.name}.${m.name}`);
    }
  }
  const encoded = new Map<string, Uint8Array>();
  for (const file of files) encoded.set(file.name, encodeFile(file, kinds));
  return { files: encoded, symbols, imports: new Map(files.map((f) => [f.name, f.imports])) };
}

/** A type name as written in `scope`, resolved as protoc does: the innermost enclosing scope that declares it. */
function resolve(kinds: ReadonlyMap<string, "message" | "enum">, scope: string, name: string, where: string): [full: string, kind: "message" | "enum"] {
  if (name.startsWith(".")) {
    const kind = kinds.get(name);
    if (kind !== undefined) return [name, kind];
  } else {
    for (let s = scope; ; s = s.slice(0, Math.max(0, s.lastIndexOf(".")))) {
      const full = `${s}.${name}`;
      const kind = kinds.get(full);
      if (kind !== undefined) return [full, kind];
      if (s === "") break;
    }
  }
  throw new TypeError(`protobuf descriptors: ${where} names ${name}, which no file declares`);
}

/** protoc's default JSON name: underscores dropped, the letter after each upper-cased. */
export function jsonName(name: string): string {
  return name.replace(/_+([^_])?/g, (_, c: string | undefined) => (c === undefined ? "" : c.toUpperCase()));
}

/** protoc's name of a map field's entry message: `tags_by_city` → `TagsByCityEntry`. */
export function mapEntryName(field: string): string {
  return `${field.replace(/(?:^_*|_+)([a-z])?/g, (_, c: string | undefined) => (c === undefined ? "" : c.toUpperCase()))}Entry`;
}

function encodeFile(file: ProtoFile, kinds: ReadonlyMap<string, "message" | "enum">): Uint8Array {
  const w = new ProtoWriter(1024);
  const scope = file.package === "" ? "" : `.${file.package}`;
  str(w, 1, file.name);
  if (file.package !== "") str(w, 2, file.package);
  for (const name of file.imports) str(w, 3, name);
  for (const d of file.definitions) if (d.kind === "message") nested(w, 4, () => writeMessage(w, d, scope, kinds));
  for (const d of file.definitions) if (d.kind === "enum") nested(w, 5, () => writeEnum(w, d));
  for (const service of file.services) {
    nested(w, 6, () => {
      str(w, 1, service.name);
      for (const m of service.methods) {
        nested(w, 2, () => {
          const where = `${file.package}.${service.name}.${m.name}`;
          str(w, 1, m.name);
          str(w, 2, resolve(kinds, scope, m.input, where)[0]);
          str(w, 3, resolve(kinds, scope, m.output, where)[0]);
          if (m.clientStreaming) varint(w, 5, 1);
          if (m.serverStreaming) varint(w, 6, 1);
        });
      }
    });
  }
  str(w, 12, "proto3");
  return w.result().slice();
}

/** What a field's type text says: its label, its type, and for a map its key and value types. */
interface FieldShape {
  readonly label: number;
  readonly proto3Optional: boolean;
  readonly type: string;
  readonly map?: { readonly key: string; readonly value: string };
}

function shapeOf(type: string): FieldShape {
  const map = /^map<\s*([A-Za-z0-9_.]+)\s*,\s*([A-Za-z0-9_.]+)\s*>$/.exec(type);
  if (map !== null) return { label: LABEL_REPEATED, proto3Optional: false, type, map: { key: map[1]!, value: map[2]! } };
  if (type.startsWith("repeated ")) return { label: LABEL_REPEATED, proto3Optional: false, type: type.slice(9) };
  if (type.startsWith("optional ")) return { label: LABEL_OPTIONAL, proto3Optional: true, type: type.slice(9) };
  return { label: LABEL_OPTIONAL, proto3Optional: false, type };
}

function writeMessage(w: ProtoWriter, message: ProtoMessage, scope: string, kinds: ReadonlyMap<string, "message" | "enum">): void {
  const full = `${scope}.${message.name}`;
  const fields: { field: ProtoField; oneof: number | undefined }[] = [];
  const oneofs: string[] = [];
  for (const item of message.items) {
    if (item.kind === "field") fields.push({ field: item, oneof: undefined });
    else {
      oneofs.push(item.name);
      for (const field of item.fields) fields.push({ field, oneof: oneofs.length - 1 });
    }
  }
  // proto3 `optional` fields each sit in a synthetic oneof, declared after the real ones.
  const synthetic: string[] = [];
  const entries: ProtoMessage[] = [];
  str(w, 1, message.name);
  for (const { field, oneof } of fields) {
    const shape = shapeOf(field.type);
    const where = `${full.slice(1)}.${field.name}`;
    nested(w, 2, () => {
      str(w, 1, field.name);
      varint(w, 3, field.number);
      varint(w, 4, shape.label);
      if (shape.map !== undefined) {
        const entry = mapEntryName(field.name);
        entries.push({
          kind: "message",
          name: entry,
          items: [
            { kind: "field", name: "key", number: 1, type: shape.map.key },
            { kind: "field", name: "value", number: 2, type: shape.map.value },
          ],
        });
        varint(w, 5, TYPE_MESSAGE);
        str(w, 6, `${full}.${entry}`);
      } else {
        const scalar = SCALAR_TYPES[shape.type];
        if (scalar !== undefined) varint(w, 5, scalar);
        else {
          const [name, kind] = resolve(kinds, full, shape.type, where);
          varint(w, 5, kind === "message" ? TYPE_MESSAGE : TYPE_ENUM);
          str(w, 6, name);
        }
      }
      if (oneof !== undefined) varint(w, 9, oneof);
      else if (shape.proto3Optional) {
        synthetic.push(`_${field.name}`);
        varint(w, 9, oneofs.length + synthetic.length - 1);
      }
      str(w, 10, jsonName(field.name));
      if (shape.proto3Optional) varint(w, 17, 1);
    });
  }
  for (const d of message.nested ?? []) if (d.kind === "message") nested(w, 3, () => writeMessage(w, d, full, kinds));
  for (const entry of entries) {
    nested(w, 3, () => {
      writeMessage(w, entry, full, kinds);
      nested(w, 7, () => varint(w, 7, 1)); // options: map_entry = true
    });
  }
  for (const d of message.nested ?? []) if (d.kind === "enum") nested(w, 4, () => writeEnum(w, d));
  for (const name of [...oneofs, ...synthetic]) nested(w, 8, () => str(w, 1, name));
  for (const r of message.reserved ?? []) {
    if ("name" in r) continue;
    const [start, end] = "number" in r ? [r.number, r.number] : [r.start, r.end];
    // ReservedRange's end is exclusive.
    nested(w, 9, () => {
      varint(w, 1, start);
      varint(w, 2, end + 1);
    });
  }
  for (const r of message.reserved ?? []) if ("name" in r) str(w, 10, r.name);
}

function writeEnum(w: ProtoWriter, definition: ProtoEnum): void {
  str(w, 1, definition.name);
  for (const v of definition.values) {
    nested(w, 2, () => {
      str(w, 1, v.name);
      varint(w, 2, v.number);
    });
  }
  if (definition.allowAlias) nested(w, 3, () => varint(w, 2, 1)); // options: allow_alias = true
}

function str(w: ProtoWriter, field: number, value: string): void {
  w.uint32((field << 3) | 2);
  w.string(value);
}

function varint(w: ProtoWriter, field: number, value: number): void {
  w.uint32(field << 3);
  w.int32(value);
}

function nested(w: ProtoWriter, field: number, body: () => void): void {
  w.uint32((field << 3) | 2);
  const start = w.fork();
  body();
  w.join(start);
}
