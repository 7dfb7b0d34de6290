/**
 * The shapes file of one namespace: the TypeScript type of every data shape
 * of the namespace that the generated services use, its schema constant, and
 * the error classes. Shapes of other namespaces are imported from their
 * shapes files; it imports nothing else but `@anvil/core` and
 * `@anvil/core/codegen`, and holds no logic.
 */
import type { Traits } from "@anvil/core";
import { NO_TRAITS } from "@anvil/core/protocol";
import { NodeValueError, schemaTraits } from "@anvil/dynamic";
import type { MemberShape, Shape, ValidationEvent } from "@anvil/model";
import { call, literal, PURE } from "./code.js";
import { docsOf, shapeDocs } from "./docs.js";
import { header, type Provenance } from "./header.js";
import { Imports } from "./imports.js";
import { NameScope, propertyKey } from "./names.js";
import { enumEntries, isError, PRELUDE_BUILDERS, UNIT } from "./plan.js";
import { type NamespacePlan, ShapeRefs, type ShapesPlan } from "./shapes-plan.js";
import { traitsLiteral } from "./traits.js";

/** TypeScript types of prelude scalars, by shape type. */
const SCALAR_TYPES: Readonly<Record<string, string>> = {
  boolean: "boolean",
  string: "string",
  blob: "Uint8Array",
  byte: "number",
  short: "number",
  integer: "number",
  long: "number | bigint",
  float: "number",
  double: "number",
  bigInteger: "number | bigint",
};

/** Core type imports for scalars whose TypeScript type comes from `@anvil/core`. */
const CORE_SCALAR_TYPES: Readonly<Record<string, string>> = { bigDecimal: "BigDecimal", document: "Document" };

/** Writes the shapes file of one namespace; problems go to `events`. */
export function shapesFile(plan: ShapesPlan, ns: NamespacePlan, provenance: Provenance, events: ValidationEvent[]): string {
  const { model, homes } = plan;
  const imports = new Imports();
  const scope = new NameScope();
  for (const shape of ns.shapes) {
    const n = homes.get(shape.id)!.names;
    scope.type(n.type);
    scope.value(n.schema);
    if (n.value !== undefined) scope.both(n.value);
  }
  const refs = new ShapeRefs(plan, imports, scope, ns.base);
  const declared = new Set<string>();
  const out: string[] = [];

  /** A shape's or member's schema traits (`@anvil/dynamic`'s mapping); a bad `@default` is reported at the shape. */
  const traitsOf = (shape: Shape | MemberShape, defaultTarget: string): Traits => {
    try {
      return schemaTraits(model, shape, defaultTarget);
    } catch (e) {
      if (!(e instanceof NodeValueError)) throw e;
      events.push({ severity: "ERROR", id: "CodegenTrait", message: e.reason, shapeId: shape.id, location: shape.location });
      return NO_TRAITS;
    }
  };

  /** The TypeScript type of values of a shape. */
  const typeOf = (id: string): string => {
    if (id === UNIT) return "Record<string, never>";
    if (homes.has(id)) return refs.type(id);
    return scalarType(model.getShape(id)!);
  };
  const scalarType = (shape: Shape): string => {
    if (shape.type === "blob" && shape.traits.has("smithy.api#streaming")) return imports.type("ByteStream");
    if (shape.type === "timestamp") return "Date";
    const core = CORE_SCALAR_TYPES[shape.type];
    if (core) return imports.type(core);
    return SCALAR_TYPES[shape.type] ?? "unknown";
  };
  const memberType = (m: MemberShape): string => {
    const target = model.getShape(m.target);
    let type = typeOf(m.target);
    if (target?.type === "union" && target.traits.has("smithy.api#streaming")) type = `${imports.type("EventStream")}<${type}>`;
    if (m.traits.has("alloy#nullable")) type = `${type} | null`;
    return type;
  };
  const element = (type: string, nullable: boolean) => (nullable ? `${type} | null` : type);
  const arrayOf = (type: string) => (/[ |&]/.test(type) ? `(${type})[]` : `${type}[]`);

  /**
   * A reference to a target's schema: a shared core constant, the constant
   * when declared above, else a thunk (recursion, or another namespace's
   * file, which may import this one back).
   */
  const schemaRef = (id: string): string => {
    if (id === UNIT) return imports.builder("unit");
    if (!homes.has(id)) return imports.builder(PRELUDE_BUILDERS.get(id)!);
    const name = refs.schema(id);
    return declared.has(id) ? name : `() => ${name}`;
  };
  const memberCall = (m: MemberShape, indent: string): string => {
    const traits = traitsOf(m, m.target);
    // Marked pure too: a bundler drops a schema nobody uses only when nothing in its arguments may have side effects.
    return `${PURE}${imports.builder("member")}(${JSON.stringify(m.name)}, ${schemaRef(m.target)}${traits === NO_TRAITS ? "" : `, ${traitsLiteral(traits, imports, indent)}`})`;
  };
  /** A shape's traits argument, as the last argument of its builder (none when it has no traits). */
  const shapeTraitsArgs = (shape: Shape, indent = "  "): string[] => {
    let traits = traitsOf(shape, shape.id);
    // An IDL 1.0 `set` is a list with unique items.
    if (shape.type === "set" && !traits.uniqueItems) traits = { ...traits, uniqueItems: true };
    return traits === NO_TRAITS ? [] : [traitsLiteral(traits, imports, indent)];
  };
  /** `export const Name: Type = /*@__PURE__*\/ builder(args)`, wrapped when long. */
  const constant = (name: string, type: string | undefined, builder: string, args: readonly string[]) => {
    const lead = `export const ${name}${type ? `: ${type}` : ""} = ${PURE}`;
    return `${lead}${call(lead, builder, args)};\n`;
  };

  for (const shape of ns.shapes) {
    const n = homes.get(shape.id)!.names;
    const entries = enumEntries(shape);
    if (entries) {
      const isInt = shape.type === "intEnum";
      const open = shape.traits.has("alloy#openEnum");
      out.push(shapeDocs(shape, open ? ["Open: values this code does not know are accepted as they are."] : []));
      const body = entries.map((e) => `${docsOf(e.member, "  ", e.documentation)}  ${propertyKey(e.name)}: ${literal(e.value)},`);
      out.push(`export const ${n.value} = {\n${body.join("\n")}\n} as const;\n`);
      out.push(shapeDocs(shape));
      out.push(`export type ${n.type} = (typeof ${n.value})[keyof typeof ${n.value}]${open ? ` | (${isInt ? "number" : "string"} & {})` : ""};\n`);
      const values = entries.map((e) => ({
        name: e.name,
        value: e.value,
        ...(e.internal ? { internal: true } : {}),
        ...(e.protoIndex !== undefined ? { protoIndex: e.protoIndex } : {}),
      }));
      const builder = imports.builder(isInt ? "intEnum" : "enumeration");
      const schemaType = imports.type(isInt ? "IntEnumSchema" : "EnumSchema");
      out.push(`/** Schema of {@link ${n.type}}. */\n`);
      out.push(constant(n.schema, `${schemaType}<${n.type}>`, builder, [JSON.stringify(shape.id), literal(values, "  "), ...shapeTraitsArgs(shape)]));
    } else {
      switch (shape.type) {
        case "structure":
        case "union": {
          const members = [...shape.members.values()];
          const isUnion = shape.type === "union";
          const error = isError(shape);
          const props = members.map((m) => {
            const optional = isUnion ? "" : isOptional(m) ? "?" : "";
            return `${docsOf(m, "  ")}  ${propertyKey(m.name)}${optional}: ${memberType(m)};`;
          });
          out.push(error ? docsOf(shape, "", `The members of {@link ${n.value}}.`) : shapeDocs(shape));
          if (isUnion) out.push(`export type ${n.type} = ${imports.type("UnionValue")}<{\n${props.join("\n")}\n}>;\n`);
          else out.push(props.length ? `export interface ${n.type} {\n${props.join("\n")}\n}\n` : `export interface ${n.type} {}\n`);
          const schemaType = imports.type(isUnion ? "UnionSchema" : "StructSchema");
          const builder = imports.builder(isUnion ? "union" : "struct");
          const calls = members.map((m) => `  ${memberCall(m, "  ")},`);
          out.push(`/** Schema of {@link ${error ? n.value : n.type}}. */\n`);
          // Members one per line, as a reader scans them; the shape's traits after the list.
          const args = [JSON.stringify(shape.id), calls.length ? `[\n${calls.join("\n")}\n]` : "[]", ...shapeTraitsArgs(shape, "")];
          out.push(`export const ${n.schema}: ${schemaType}<${n.type}> = ${PURE}${builder}(${args.join(", ")});\n`);
          if (error) {
            out.push(shapeDocs(shape, [`Thrown (and received) as a modeled \`${shape.traits.get("smithy.api#error")}\` error.`]));
            const classType = `${imports.type("ModeledErrorClass")}<${n.type}>`;
            out.push(`export const ${n.value}: ${classType} = ${PURE}${imports.builder("errorClass")}(${n.schema});\n`);
            out.push(`/** An error of class {@link ${n.value}}. */\n`);
            out.push(`export type ${n.value} = ${imports.type("ModeledError")}<${n.type}> & ${n.type};\n`);
          }
          break;
        }
        case "list":
        case "set": {
          const item = shape.members.get("member")!;
          out.push(shapeDocs(shape));
          out.push(`export type ${n.type} = ${arrayOf(element(memberType(item), shape.traits.has("smithy.api#sparse")))};\n`);
          out.push(`/** Schema of {@link ${n.type}}. */\n`);
          const listType = `${imports.type("ListSchema")}<${n.type}>`;
          out.push(constant(n.schema, listType, imports.builder("list"), [JSON.stringify(shape.id), memberCall(item, "  "), ...shapeTraitsArgs(shape)]));
          break;
        }
        case "map": {
          const key = shape.members.get("key")!;
          const value = shape.members.get("value")!;
          out.push(shapeDocs(shape));
          // An index signature, not Record: a map may contain itself, and only object types defer the reference.
          out.push(`export type ${n.type} = { [key: string]: ${element(memberType(value), shape.traits.has("smithy.api#sparse"))} };\n`);
          out.push(`/** Schema of {@link ${n.type}}. */\n`);
          const mapType = `${imports.type("MapSchema")}<${n.type}>`;
          const args = [JSON.stringify(shape.id), memberCall(key, "  "), memberCall(value, "  "), ...shapeTraitsArgs(shape)];
          out.push(constant(n.schema, mapType, imports.builder("map"), args));
          break;
        }
        default: {
          // A named scalar: a type alias, and a schema carrying its traits.
          const type = scalarType(shape);
          out.push(shapeDocs(shape));
          out.push(`export type ${n.type} = ${type};\n`);
          out.push(`/** Schema of {@link ${n.type}}. */\n`);
          const schemaType = `${imports.type("ScalarSchema")}<${n.type}, ${JSON.stringify(shape.type)}>`;
          const args = [JSON.stringify(shape.type), JSON.stringify(shape.id), ...shapeTraitsArgs(shape)];
          out.push(constant(n.schema, schemaType, imports.builder("scalar"), args));
        }
      }
    }
    out.push("\n");
    declared.add(shape.id);
  }
  const what = `${ns.namespace}: the shapes the generated services use (types, schemas and error classes)`;
  return `${header(provenance, what)}\n${imports.render()}\n${out.join("").trimEnd()}\n`;
}

/**
 * Whether a member is optional in the generated type: every member is,
 * except `@required` ones without `@clientOptional`. Members with only a
 * `@default` stay optional: the sending side may leave them out, and the
 * runtime fills the default in on the receiving side.
 */
export function isOptional(m: MemberShape): boolean {
  return !m.traits.has("smithy.api#required") || m.traits.has("smithy.api#clientOptional");
}
