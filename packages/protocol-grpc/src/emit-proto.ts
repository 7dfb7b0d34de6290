/**
 * `.proto` emission: proto3 text for the closure of a service, from the same
 * layout the codec uses (field numbers, enum numbers, wrappers), so a peer
 * compiled from the file reads and writes the codec's bytes.
 */
import type {
  EnumSchema,
  IntEnumSchema,
  ListSchema,
  MapSchema,
  MemberSchema,
  OperationSchema,
  Schema,
  ServiceSchema,
  StructSchema,
  Traits,
  UnionSchema,
} from "@anvil/core";
import { checkFieldNumbers, enumNumbers, flatFields, isOpenEnum, oneofLayout, structLayout } from "./protobuf/layout.js";
import { variantKey } from "./protobuf/messages.js";
import { protoTimestampFormat } from "./protobuf/well-known.js";
import {
  type ProtoDefinition,
  type ProtoField,
  type ProtoFile,
  type ProtoMessage,
  type ProtoMethod,
  type ProtoOneof,
  type ProtoReserved,
  renderProto,
} from "./proto-file.js";

/** Options of {@link emitProto}. */
export interface EmitProtoOptions {
  /** The proto package. Default: the service's namespace. */
  readonly package?: string;
}

const WELL_KNOWN = {
  timestamp: "google/protobuf/timestamp.proto",
  struct: "google/protobuf/struct.proto",
  wrappers: "google/protobuf/wrappers.proto",
  empty: "google/protobuf/empty.proto",
} as const;

/** Scalar proto types with a wrapper in `google/protobuf/wrappers.proto`. */
const GOOGLE_WRAPPERS: Readonly<Record<string, string>> = {
  string: "StringValue",
  bytes: "BytesValue",
  bool: "BoolValue",
  int32: "Int32Value",
  uint32: "UInt32Value",
  int64: "Int64Value",
  uint64: "UInt64Value",
  float: "FloatValue",
  double: "DoubleValue",
};

const INT32_TYPES = { SIGNED: "sint32", UNSIGNED: "uint32", FIXED: "fixed32", FIXED_SIGNED: "sfixed32" } as const;
const INT64_TYPES = { SIGNED: "sint64", UNSIGNED: "uint64", FIXED: "fixed64", FIXED_SIGNED: "sfixed64" } as const;

/**
 * Emits proto3 for a service: its package (the service namespace), a message
 * per structure and union, an enum per closed enum, the wrapper messages the
 * mapping needs, well-known-type imports, and the service with an `rpc` per
 * operation (`stream` for `@streaming` union members).
 *
 * @example
 * ```ts
 * // `schemas` from generated code, or from schemasFromModel(model) of the dynamic package
 * writeFileSync("weather.proto", emitProto(schemas.service("example.weather#Weather")));
 * ```
 */
export function emitProto(service: ServiceSchema, options: EmitProtoOptions = {}): string {
  return renderProto(new Emitter(service, options).emit());
}

/**
 * The file `emitProto` writes, as data (for descriptors), named
 * `<package as folders>/<service in snake case>.proto`
 * (`example/weather/weather_grpc.proto`).
 *
 * @internal
 */
export function protoFileOf(service: ServiceSchema, options: EmitProtoOptions = {}): ProtoFile {
  return new Emitter(service, options).emit();
}

/**
 * The full proto names (`package.Message`) `emitProto` gives the structures,
 * unions and enums of a service's closure: what a `google.protobuf.Any`'s
 * `type_url` names (`type.googleapis.com/<full name>`), e.g. for modeled
 * errors in `google.rpc.Status` details.
 *
 * @example
 * ```ts
 * const names = protoTypeNames(Weather);
 * const typeUrl = typeUrlOf(names.get(NotFoundSchema)!); // "type.googleapis.com/example.weather.NotFound"
 * ```
 */
export function protoTypeNames(service: ServiceSchema, options: EmitProtoOptions = {}): ReadonlyMap<Schema, string> {
  return new Emitter(service, options).fullNames();
}

class Emitter {
  private readonly imports = new Set<string>();
  /** Named definitions by schema. */
  private readonly names = new Map<Schema, string>();
  private readonly used = new Set<string>();
  /** Synthesized wrapper messages by schema and variant key. */
  private readonly wrappers = new Map<Schema, Map<string, string>>();
  private readonly definitions: ProtoDefinition[] = [];
  private readonly pending: (() => void)[] = [];
  private readonly enumValueNames = new Map<string, number>();

  constructor(
    private readonly service: ServiceSchema,
    private readonly options: EmitProtoOptions,
  ) {}

  fullNames(): ReadonlyMap<Schema, string> {
    this.assignNames(this.closure(this.roots()));
    const pkg = this.options.package ?? namespaceOf(this.service.id);
    return new Map([...this.names].map(([schema, name]) => [schema, pkg ? `${pkg}.${name}` : name]));
  }

  private roots(): Schema[] {
    const roots: Schema[] = [];
    for (const op of Object.values(this.service.operations) as OperationSchema[]) roots.push(op.input, op.output, ...op.errors);
    roots.push(...this.service.errors);
    return roots;
  }

  emit(): ProtoFile {
    const ops = Object.values(this.service.operations) as OperationSchema[];
    const order = this.closure(this.roots());
    this.assignNames(order);
    this.countEnumValueNames(order);
    const methods = ops.map((op) => this.rpc(op));
    for (const schema of order) this.define(schema);
    while (this.pending.length > 0) this.pending.shift()!();
    const pkg = this.options.package ?? namespaceOf(this.service.id);
    return {
      name: `${pkg === "" ? "" : `${pkg.replace(/\./g, "/")}/`}${snake(this.service.name)}.proto`,
      package: pkg,
      comment: `Generated by Anvil from ${this.service.id}. Do not edit.`,
      imports: [...this.imports].sort(),
      services: [{ name: this.service.name, methods }],
      definitions: this.definitions,
    };
  }

  /** The data schemas reachable from the roots, in discovery order. */
  private closure(roots: readonly Schema[]): Schema[] {
    const seen = new Set<Schema>();
    const order: Schema[] = [];
    const visit = (schema: Schema): void => {
      if (seen.has(schema)) return;
      seen.add(schema);
      order.push(schema);
      for (const m of membersOf(schema)) visit(m.target);
    };
    for (const root of roots) visit(root);
    return order;
  }

  private assignNames(order: readonly Schema[]): void {
    // the service shares the package scope with the messages
    this.used.add(this.service.name);
    const byName = new Map<string, Schema[]>();
    for (const schema of order) {
      if (!isNamedDefinition(schema)) continue;
      const name = shapeName(schema.id);
      byName.set(name, [...(byName.get(name) ?? []), schema]);
    }
    for (const [name, schemas] of byName) {
      // the same short name in two namespaces: qualify all but the first with their namespace
      schemas.forEach((schema, i) => this.names.set(schema, this.unique(i === 0 ? name : pascal(namespaceOf(schema.id)) + name)));
    }
  }

  private countEnumValueNames(order: readonly Schema[]): void {
    for (const schema of order) {
      if ((schema.kind === "enum" || schema.kind === "intEnum") && !isOpenEnum(schema)) {
        for (const v of schema.values) this.enumValueNames.set(v.name, (this.enumValueNames.get(v.name) ?? 0) + 1);
      }
    }
  }

  private unique(name: string): string {
    let out = name;
    for (let i = 2; this.used.has(out); i++) out = `${name}${i}`;
    this.used.add(out);
    return out;
  }

  private rpc(op: OperationSchema): ProtoMethod {
    const side = (struct: StructSchema): [type: string, streaming: boolean] => {
      if (struct.id === "smithy.api#Unit") {
        this.imports.add(WELL_KNOWN.empty);
        return ["google.protobuf.Empty", false];
      }
      const stream = struct.members.find((m) => m.target.kind === "union" && m.traits.streaming === true);
      if (stream) return [this.names.get(stream.target)!, true];
      return [this.names.get(struct)!, false];
    };
    const [input, clientStreaming] = side(op.input);
    const [output, serverStreaming] = side(op.output);
    return { name: op.name, input, output, clientStreaming, serverStreaming };
  }

  private define(schema: Schema): void {
    const name = this.names.get(schema);
    if (name === undefined) return;
    switch (schema.kind) {
      case "structure":
        return this.message(name, this.structBody(schema), reservedOf(schema.traits));
      case "union":
        checkFieldNumbers(schema.id, oneofLayout(schema));
        return this.message(name, [this.oneof("definition", schema, 1)], reservedOf(schema.traits));
      case "enum":
      case "intEnum":
        return this.enumeration(name, schema);
      default:
        return;
    }
  }

  private message(name: string, items: ProtoMessage["items"], reserved: readonly ProtoReserved[] = []): void {
    this.definitions.push({ kind: "message", name, items, ...(reserved.length > 0 ? { reserved } : {}) });
  }

  private structBody(schema: StructSchema<unknown>): ProtoMessage["items"] {
    const items: (ProtoField | ProtoOneof)[] = [];
    const layout = structLayout(schema.members);
    checkFieldNumbers(schema.id, flatFields(layout));
    for (const { member, number, variants } of layout) {
      if (variants) items.push(this.oneof(member.name, member.target as UnionSchema<unknown>, number));
      else items.push(field(member.name, number, this.fieldType(member.target, member.traits, "field")));
    }
    return items;
  }

  private oneof(name: string, union: UnionSchema<unknown>, start: number): ProtoOneof {
    const fields = oneofLayout(union, start).map(({ member, number }) => field(member.name, number, this.fieldType(member.target, member.traits, "variant")));
    return { kind: "oneof", name, fields };
  }

  private enumeration(name: string, schema: EnumSchema | IntEnumSchema): void {
    const numbers = enumNumbers(schema);
    const prefix = upperSnake(name);
    const lines: { name: string; number: number }[] = [];
    if (![...numbers.values()].includes(0)) lines.push({ name: `${prefix}_UNSPECIFIED`, number: 0 });
    // proto3 wants the zero value first; the others keep model order.
    const values = [...schema.values].sort((a, b) => Number(numbers.get(a.value) !== 0) - Number(numbers.get(b.value) !== 0));
    for (const v of values) {
      const valueName = (this.enumValueNames.get(v.name) ?? 0) > 1 || this.used.has(v.name) ? `${prefix}_${v.name}` : v.name;
      lines.push({ name: valueName, number: numbers.get(v.value)! });
    }
    this.definitions.push({ kind: "enum", name, values: lines, allowAlias: new Set(numbers.values()).size < numbers.size });
  }

  /** The type of a value at a position, mirroring the codec's `valueTypeOf` and field codecs. */
  private fieldType(target: Schema, traits: Traits, position: "field" | "element" | "mapValue" | "variant"): string {
    const collection = target.kind === "list" || target.kind === "map";
    if (traits.protoWrapped === true || (collection && position !== "field")) return this.wrapper(target, traits);
    if (target.kind === "list") return `repeated ${this.elementType(target)}`;
    if (target.kind === "map") return `map<string, ${this.mapValueType(target)}>`;
    return this.plainType(target, traits);
  }

  private elementType(list: ListSchema<unknown>): string {
    const m = list.member;
    return list.traits.sparse === true ? this.nullable(m.target, m.traits) : this.fieldType(m.target, m.traits, "element");
  }

  private mapValueType(map: MapSchema<unknown>): string {
    const m = map.value;
    return map.traits.sparse === true ? this.nullable(m.target, m.traits) : this.fieldType(m.target, m.traits, "mapValue");
  }

  private plainType(target: Schema, traits: Traits): string {
    const numType = traits.protoNumType;
    switch (target.kind) {
      case "boolean":
        return "bool";
      case "string":
      case "bigInteger":
      case "bigDecimal":
        return "string";
      case "blob":
        return "bytes";
      case "byte":
      case "short":
      case "integer":
        return numType ? INT32_TYPES[numType] : "int32";
      case "long":
        return numType ? INT64_TYPES[numType] : "int64";
      case "float":
        return "float";
      case "double":
        return "double";
      case "timestamp": {
        const format = protoTimestampFormat(traits);
        if (format !== "PROTOBUF") return format === "EPOCH_MILLIS" ? "int64" : "string";
        this.imports.add(WELL_KNOWN.timestamp);
        return "google.protobuf.Timestamp";
      }
      case "document":
        this.imports.add(WELL_KNOWN.struct);
        return "google.protobuf.Value";
      case "enum":
        return isOpenEnum(target) ? "string" : this.names.get(target)!;
      case "intEnum":
        return isOpenEnum(target) ? "int32" : this.names.get(target)!;
      case "structure":
        if (!this.names.has(target)) {
          // smithy.api#Unit (a unit union variant)
          this.imports.add(WELL_KNOWN.empty);
          return "google.protobuf.Empty";
        }
        return this.names.get(target)!;
      case "union":
        return this.names.get(target)!;
      default:
        throw new TypeError(`emitProto: ${target.id} (${target.kind}) cannot be a field`);
    }
  }

  /** A one-field wrapper message `{ T value = 1; }`: Google's for plain scalars, else one of ours. */
  private wrapper(target: Schema, traits: Traits): string {
    const inner = { ...traits, protoWrapped: false } as Traits;
    const collection = target.kind === "list" || target.kind === "map";
    const plain = collection ? undefined : this.plainType(target, inner);
    const ownShape = collection || target.traits.protoWrapped === true;
    const google = plain !== undefined && !ownShape ? GOOGLE_WRAPPERS[plain] : undefined;
    if (google !== undefined) {
      this.imports.add(WELL_KNOWN.wrappers);
      return `google.protobuf.${google}`;
    }
    const key = variantKey(target, traits);
    let byKey = this.wrappers.get(target);
    if (!byKey) this.wrappers.set(target, (byKey = new Map()));
    const known = byKey.get(key);
    if (known) return known;
    // collections and shapes marked @protoWrapped are named after their shape (as smithy-translate does)
    const base = ownShape ? shapeName(target.id) : `${pascal(plain!.replace(/^google\.protobuf\./, ""))}Value`;
    const name = this.unique(base);
    byKey.set(key, name);
    this.pending.push(() => this.message(name, [field("value", 1, this.fieldType(target, inner, "field"))]));
    return name;
  }

  /** The element of a `@sparse` collection: `message Nullable<T> { optional T value = 1; }`, empty for `null`. */
  private nullable(target: Schema, traits: Traits): string {
    const inner = { ...traits, protoWrapped: false } as Traits;
    const type = this.fieldType(target, inner, "variant");
    const key = `nullable:${variantKey(target, traits)}`;
    let byKey = this.wrappers.get(target);
    if (!byKey) this.wrappers.set(target, (byKey = new Map()));
    const known = byKey.get(key);
    if (known) return known;
    const name = this.unique(`Nullable${pascal(type.replace(/^google\.protobuf\./, ""))}`);
    byKey.set(key, name);
    this.message(name, [field("value", 1, `optional ${type}`)]);
    return name;
  }
}

function membersOf(schema: Schema): readonly MemberSchema[] {
  switch (schema.kind) {
    case "structure":
    case "union":
      return schema.members;
    case "list":
      return [schema.member];
    case "map":
      return [schema.key, schema.value];
    default:
      return [];
  }
}

/** Whether a schema becomes a named message or enum of its own. */
function isNamedDefinition(schema: Schema): boolean {
  switch (schema.kind) {
    case "structure":
      return schema.id !== "smithy.api#Unit" || schema.members.length > 0;
    case "union":
      return schema.traits.protoInlinedOneOf !== true;
    case "enum":
    case "intEnum":
      return !isOpenEnum(schema);
    default:
      return false;
  }
}

function reservedOf(traits: Traits): ProtoReserved[] {
  const value = traits.custom?.["alloy.proto#protoReservedFields"];
  if (!Array.isArray(value)) return [];
  const out: ProtoReserved[] = [];
  for (const entry of value as Record<string, unknown>[]) {
    if (typeof entry.number === "number") out.push({ number: entry.number });
    else if (typeof entry.name === "string") out.push({ name: entry.name });
    else if (entry.range && typeof entry.range === "object") {
      const { start, end } = entry.range as { start: number; end: number };
      out.push({ start, end });
    }
  }
  return out;
}

function field(name: string, number: number, type: string): ProtoField {
  return { kind: "field", name, number, type };
}

/** `WeatherGrpc` → `weather_grpc`. */
function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

function shapeName(id: string): string {
  const hash = id.indexOf("#");
  return (hash < 0 ? id : id.slice(hash + 1)).replace(/[^A-Za-z0-9_]/g, "_");
}

function namespaceOf(id: string): string {
  const hash = id.indexOf("#");
  return hash < 0 ? "" : id.slice(0, hash);
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

function upperSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}
