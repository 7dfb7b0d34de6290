/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) for Smithy shapes: aggregate
 * shapes become components referenced by `$ref`, simple shapes are inlined,
 * constraints, enums, defaults and documentation carried over.
 */
import {
  getDefault,
  getDocumentation,
  getLength,
  getMediaType,
  getPattern,
  getRange,
  getTimestampFormat,
  getEnumValue,
  hasTrait,
  isNodeObject,
  isRequired,
  isSparse,
  isStreaming,
  nameOf,
  type MemberShape,
  type Model,
  type Shape,
  type Traitable,
} from "@anvil/model";
import { ecmaPatternSource } from "@anvil/core/protocol";
import { nodeToJson, toWireJson, wireName, type Json } from "./wire.js";
import type { ProtocolInfo } from "./protocols.js";

/** A JSON Schema object. */
export type JsonSchema = { [key: string]: Json };

/** Component names, shared by every schema set of one document: a name is given to one shape id only. */
export class ComponentNames {
  private readonly byKey = new Map<string, string>();
  private readonly taken = new Set<string>();

  constructor(private readonly rename: Readonly<Record<string, string>> = {}) {}

  /** The component name of a shape id in a variant (`""` for the primary one). */
  nameOf(shapeId: string, variant = ""): string {
    const key = `${variant}|${shapeId}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const base = `${this.rename[shapeId] ?? nameOf(shapeId)}${variant}`;
    let name = base;
    if (this.taken.has(name)) name = `${shapeId.slice(0, shapeId.indexOf("#"))}.${base}`;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    this.byKey.set(key, name);
    return name;
  }

  /** Reserves a synthesized name (a request or response content schema), made unique. */
  reserve(base: string): string {
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }
}

/** How a schema set spells values: one per distinct wire spelling among a document's protocols. */
export interface SchemaVariant {
  /** Appended to component names; `""` for the first protocol's spelling. */
  readonly suffix: string;
  readonly protocol: ProtocolInfo;
}

const INT_BOUNDS: Record<string, readonly [number, number]> = { byte: [-128, 127], short: [-32768, 32767] };

/** Builds schemas for one variant, adding components to a shared map. */
export class SchemaSet {
  constructor(
    private readonly model: Model,
    private readonly names: ComponentNames,
    /** The document's `components.schemas`, filled as shapes are referenced. */
    readonly components: Record<string, Json>,
    readonly variant: SchemaVariant,
  ) {}

  /** A `$ref` to a component. */
  ref(name: string): JsonSchema {
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The schema of a shape: a `$ref` for aggregates and enums, inline for the rest. */
  shape(shapeId: string): JsonSchema {
    const shape = this.model.getShape(shapeId);
    if (shape === undefined) return {};
    if (shape.type === "structure" || shape.type === "union" || shape.type === "enum" || shape.type === "intEnum" || isLegacyEnum(shape)) {
      const name = this.names.nameOf(shapeId, this.variant.suffix);
      if (!(name in this.components)) {
        this.components[name] = {}; // registered before recursing: recursive shapes end at the $ref
        this.components[name] = this.aggregate(shape);
      }
      return this.ref(name);
    }
    return this.inline(shape);
  }

  /** The schema of a member: its target's, with the member's own constraints, default and documentation. */
  member(member: MemberShape): JsonSchema {
    const target = this.model.getShape(member.target);
    const ownFormat = getTimestampFormat(member);
    let schema: JsonSchema = target?.type === "timestamp" && ownFormat !== undefined ? timestampSchema(ownFormat) : this.shape(member.target);
    const extra: JsonSchema = {};
    if (target !== undefined) Object.assign(extra, constraints(member, target.type));
    const doc = getDocumentation(member);
    if (doc !== undefined) extra.description = doc;
    const dflt = getDefault(member);
    if (dflt !== undefined && dflt !== null && target !== undefined) extra.default = toWireJson(this.model, target.id, dflt, this.variant.protocol, member);
    if (hasTrait(member, "smithy.api#deprecated")) extra.deprecated = true;
    if (Object.keys(extra).length > 0) schema = { ...schema, ...extra };
    return schema;
  }

  /** An object schema holding some members of a structure (the body members of an HTTP message). */
  object(members: readonly MemberShape[], description?: string): JsonSchema {
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    for (const m of members) {
      const name = wireName(m, this.variant.protocol);
      properties[name] = this.member(m);
      if (isRequired(m)) required.push(name);
    }
    return {
      type: "object",
      ...(description !== undefined ? { description } : {}),
      properties,
      ...(required.length > 0 ? { required } : {}),
    };
  }

  private readonly synthesized = new Map<string, JsonSchema>();

  /**
   * A component for a synthesized schema (the body members of a structure),
   * made once per key and reused.
   */
  synthesize(key: string, base: string, make: () => JsonSchema): JsonSchema {
    const known = this.synthesized.get(key);
    if (known !== undefined) return known;
    const name = this.names.reserve(`${base}${this.variant.suffix}`);
    const ref = this.ref(name);
    this.synthesized.set(key, ref);
    this.components[name] = make();
    return ref;
  }

  private aggregate(shape: Shape): JsonSchema {
    const doc = getDocumentation(shape);
    const described = (s: JsonSchema): JsonSchema => (doc !== undefined ? { ...s, description: doc } : s);
    switch (shape.type) {
      case "structure":
        return this.object([...shape.members.values()], doc);
      case "union": {
        const options = [...shape.members.values()].map((m): Json => {
          const name = wireName(m, this.variant.protocol);
          return { type: "object", title: name, properties: { [name]: this.member(m) }, required: [name], additionalProperties: false };
        });
        return described(options.length > 0 ? { oneOf: options } : { type: "object" });
      }
      case "enum":
      case "intEnum": {
        const values = [...shape.members.values()].map((m) => getEnumValue(m) ?? m.name);
        const lines = [...shape.members.values()].map((m) => [getEnumValue(m) ?? m.name, getDocumentation(m)] as const).filter(([, d]) => d !== undefined);
        const docs = [doc, ...lines.map(([v, d]) => `- \`${v}\`: ${d}`)].filter((x) => x !== undefined).join("\n");
        return { type: shape.type === "enum" ? "string" : "integer", ...(docs ? { description: docs } : {}), enum: values };
      }
      default: {
        // A string with the IDL 1.0 @enum trait.
        const list = shape.traits.get("smithy.api#enum");
        const values = Array.isArray(list) ? list.filter(isNodeObject).map((e) => String(e.value)) : [];
        return described({ type: "string", enum: values });
      }
    }
  }

  private inline(shape: Shape): JsonSchema {
    const base = ((): JsonSchema => {
      switch (shape.type) {
        case "blob":
          return isStreaming(shape) ? { type: "string", format: "binary" } : { type: "string", contentEncoding: "base64" };
        case "boolean":
          return { type: "boolean" };
        case "string": {
          const media = getMediaType(shape);
          return media !== undefined ? { type: "string", contentMediaType: media } : { type: "string" };
        }
        case "byte":
        case "short":
        case "integer":
          return { type: "integer", format: "int32" };
        case "long":
          return { type: "integer", format: "int64" };
        case "bigInteger":
          return { type: "integer" };
        case "float":
          return { type: "number", format: "float" };
        case "double":
          return { type: "number", format: "double" };
        case "bigDecimal":
          return { type: "number" };
        case "timestamp":
          return timestampSchema(getTimestampFormat(shape) ?? this.variant.protocol.bodyTimestamp);
        case "document":
          return {};
        case "list":
        case "set": {
          const item = shape.members.get("member");
          let items: JsonSchema = item ? this.member(item) : {};
          if (isSparse(shape)) items = { anyOf: [items, { type: "null" }] };
          const unique = shape.type === "set" || hasTrait(shape, "smithy.api#uniqueItems");
          return { type: "array", items, ...(unique ? { uniqueItems: true } : {}) };
        }
        case "map": {
          const key = shape.members.get("key");
          const value = shape.members.get("value");
          let values: JsonSchema = value ? this.member(value) : {};
          if (isSparse(shape)) values = { anyOf: [values, { type: "null" }] };
          const keys = key ? this.member(key) : {};
          const keyed = Object.keys(keys).some((k) => k !== "type") ? { propertyNames: keys } : {};
          return { type: "object", additionalProperties: values, ...keyed };
        }
        default:
          return {};
      }
    })();
    const bounds = INT_BOUNDS[shape.type];
    if (bounds !== undefined && getRange(shape) === undefined) Object.assign(base, { minimum: bounds[0], maximum: bounds[1] });
    Object.assign(base, constraints(shape, shape.type));
    const doc = getDocumentation(shape);
    if (doc !== undefined && !this.model.isBuiltin(shape.id)) base.description = doc;
    const dflt = getDefault(shape);
    if (dflt !== undefined && dflt !== null && shape.type !== "timestamp") base.default = nodeToJson(dflt);
    return base;
  }
}

/** Whether a string shape carries the IDL 1.0 `@enum` trait. */
function isLegacyEnum(shape: Shape): boolean {
  return shape.type === "string" && hasTrait(shape, "smithy.api#enum");
}

/** The schema of a timestamp in a Smithy format. */
export function timestampSchema(format: string): JsonSchema {
  if (format === "epoch-seconds") return { type: "number", description: "Seconds since 1970-01-01T00:00:00Z." };
  if (format === "http-date") return { type: "string", format: "http-date", examples: ["Tue, 29 Apr 2014 18:30:38 GMT"] };
  return { type: "string", format: "date-time" };
}

/** `@length`, `@range` and `@pattern` in JSON Schema terms, by the shape type they apply to. */
function constraints(s: Traitable, type: string): JsonSchema {
  const out: JsonSchema = {};
  const length = getLength(s);
  if (length !== undefined) {
    const [min, max] =
      type === "list" || type === "set"
        ? ["minItems", "maxItems"]
        : type === "map"
          ? ["minProperties", "maxProperties"]
          : type === "string"
            ? ["minLength", "maxLength"]
            : [undefined, undefined];
    if (min !== undefined && length.min !== undefined) out[min] = length.min;
    if (max !== undefined && length.max !== undefined) out[max!] = length.max;
  }
  const range = getRange(s);
  if (range !== undefined) {
    if (range.min !== undefined) out.minimum = range.min;
    if (range.max !== undefined) out.maximum = range.max;
  }
  const pattern = getPattern(s);
  if (pattern !== undefined) {
    // JSON Schema patterns are ECMAScript regexes: a Java-syntax one (`\A...\z`, `\p{Alpha}`) is given
    // as validation reads it, and one with no ECMAScript form is left out rather than given unusable.
    const source = ecmaPatternSource(pattern);
    if (source !== undefined) out.pattern = source;
  }
  return out;
}
