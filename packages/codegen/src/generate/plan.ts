/**
 * What one service's generated code declares, decided before any text is
 * written: the data shapes in declaration order (targets before the shapes
 * that use them, so only recursion needs a lazy reference) and the
 * TypeScript name of every declaration.
 */
import { operationKey } from "@anvil/dynamic";
import type { MemberShape, Model, Shape } from "@anvil/model";
import { isNodeObject, nameOf, serviceClosure, type ServiceClosure, type ValidationEvent } from "@anvil/model";
import { NameScope } from "./names.js";

/** Prelude scalars that are the core's shared builder constants (when they carry no traits of their own). */
export const PRELUDE_BUILDERS: ReadonlyMap<string, string> = new Map([
  ["smithy.api#String", "string"],
  ["smithy.api#Boolean", "boolean"],
  ["smithy.api#Blob", "blob"],
  ["smithy.api#Byte", "byte"],
  ["smithy.api#Short", "short"],
  ["smithy.api#Integer", "integer"],
  ["smithy.api#Long", "long"],
  ["smithy.api#Float", "float"],
  ["smithy.api#Double", "double"],
  ["smithy.api#BigInteger", "bigInteger"],
  ["smithy.api#BigDecimal", "bigDecimal"],
  ["smithy.api#Timestamp", "timestamp"],
  ["smithy.api#Document", "document"],
]);

/** `smithy.api#Unit`: the core's `unit` schema. */
export const UNIT = "smithy.api#Unit";

const DATA_TYPES: ReadonlySet<string> = new Set([
  "blob",
  "boolean",
  "string",
  "byte",
  "short",
  "integer",
  "long",
  "float",
  "double",
  "bigInteger",
  "bigDecimal",
  "timestamp",
  "document",
  "enum",
  "intEnum",
  "list",
  "set",
  "map",
  "structure",
  "union",
]);

/** The names of one data shape's declarations. */
export interface ShapeNames {
  /** The TypeScript type of its values (for an error: the members' interface). */
  readonly type: string;
  /** The schema constant. */
  readonly schema: string;
  /** The enum's `const` object, or the error's class (both share the type's name). */
  readonly value?: string;
}

/** One operation of the service, named. */
export interface PlannedOperation {
  readonly shape: Shape;
  /** The operation constant. */
  readonly name: string;
  /** Client and handler method name (the key in the service's `operations`). */
  readonly method: string;
}

/** The declarations of one service's generated code. */
export interface ServicePlan {
  readonly model: Model;
  readonly service: Shape;
  readonly closure: ServiceClosure;
  /** The service constant. */
  readonly serviceName: string;
  /** The interface listing the service's operations by method name. */
  readonly operationsName: string;
  readonly operations: readonly PlannedOperation[];
  /** Data shapes to declare, in declaration order. */
  readonly shapes: readonly Shape[];
  /** Names by shape id, for the shapes in {@link shapes}. */
  readonly names: ReadonlyMap<string, ShapeNames>;
  /** Problems met while planning (names that had to change). */
  readonly events: ValidationEvent[];
}

/** Whether a shape is one of the core's shared prelude schemas (or `unit`), and so declared nowhere. */
export function isBuiltinSchema(shape: Shape): boolean {
  if (shape.id === UNIT) return true;
  if (!PRELUDE_BUILDERS.has(shape.id)) return false;
  for (const id of shape.traits.keys()) if (id !== "smithy.api#documentation" && id !== "smithy.api#externalDocumentation") return false;
  return true;
}

/** Whether a structure is an error (`@error`). */
export function isError(shape: Shape): boolean {
  return shape.type === "structure" && shape.traits.has("smithy.api#error");
}

/** One value of an enum, intEnum or legacy `@enum` string. */
export interface EnumEntry {
  readonly name: string;
  readonly value: string | number;
  readonly internal: boolean;
  /** `@alloy.proto#protoIndex` on the member. */
  readonly protoIndex?: number;
  readonly member?: MemberShape;
  readonly documentation?: string;
}

/**
 * The values of an enum-like shape (enum, intEnum, or a string with the
 * IDL 1.0 `@enum` trait) in model order, or undefined for other shapes.
 */
export function enumEntries(shape: Shape): EnumEntry[] | undefined {
  if (shape.type === "enum" || shape.type === "intEnum") {
    return [...shape.members.values()].map((m) => {
      const v = m.traits.get("smithy.api#enumValue");
      const doc = m.traits.get("smithy.api#documentation");
      const protoIndex = m.traits.get("alloy.proto#protoIndex");
      return {
        name: m.name,
        value: typeof v === "string" || typeof v === "number" ? v : m.name,
        internal: m.traits.has("smithy.api#internal"),
        ...(typeof protoIndex === "number" ? { protoIndex } : {}),
        member: m,
        ...(typeof doc === "string" ? { documentation: doc } : {}),
      };
    });
  }
  const legacy = shape.type === "string" ? shape.traits.get("smithy.api#enum") : undefined;
  if (!Array.isArray(legacy)) return undefined;
  const out: EnumEntry[] = [];
  for (const d of legacy) {
    if (!isNodeObject(d) || typeof d.value !== "string") continue;
    out.push({
      name: typeof d.name === "string" ? d.name : d.value,
      value: d.value,
      internal: Array.isArray(d.tags) && d.tags.includes("internal"),
      ...(typeof d.documentation === "string" ? { documentation: d.documentation } : {}),
    });
  }
  return out;
}

/** Plans the generated code of one service. */
export function planService(model: Model, serviceId: string): ServicePlan {
  const closure = serviceClosure(model, serviceId);
  const service = closure.service;
  const events: ValidationEvent[] = [];
  const rename = service.rename ?? {};

  // Declaration order: depth-first from each operation, targets first.
  const order: Shape[] = [];
  const visited = new Set<string>();
  const visit = (id: string | undefined): void => {
    if (id === undefined || visited.has(id)) return;
    visited.add(id);
    const shape = model.getShape(id);
    if (!shape || !DATA_TYPES.has(shape.type) || isBuiltinSchema(shape)) return;
    if (shape.type !== "enum" && shape.type !== "intEnum") for (const m of shape.members.values()) visit(m.target);
    order.push(shape);
  };
  for (const op of closure.operations) {
    visit(op.input);
    visit(op.output);
    for (const e of op.errors ?? []) visit(e);
  }
  for (const e of service.errors ?? []) visit(e);
  for (const id of [...closure.shapes].sort()) visit(id);

  const scope = new NameScope();
  const names = new Map<string, ShapeNames>();
  const claimed = (shape: Shape | MemberShape, wanted: string, got: string, what: string): string => {
    if (got !== wanted && got !== `_${wanted}`) {
      events.push({
        severity: "WARNING",
        id: "CodegenName",
        message: `${what} \`${wanted}\` is taken in the generated code; it is named \`${got}\``,
        shapeId: shape.id,
        location: shape.location,
      });
    }
    return got;
  };
  const shapeName = (shape: Shape) => rename[shape.id] ?? nameOf(shape.id);

  // The service and operations first: their names are the ones users type most.
  const serviceName = claimed(service, shapeName(service), scope.value(shapeName(service)), "service");
  const methods = new Set<string>();
  const operations: PlannedOperation[] = closure.operations.map((op) => {
    const opName = shapeName(op);
    // The same keys `@anvil/dynamic` gives a service's operations.
    const method = operationKey(op.id, nameOf(op.id), (key) => methods.has(key));
    methods.add(method);
    return { shape: op, name: claimed(op, opName, scope.value(opName), "operation"), method };
  });
  // Data shapes in a stable order (by id), so names do not depend on traversal.
  // The shapes' own names first, derived names (`XSchema`, `XMembers`) after,
  // so that a derived name never takes a shape's.
  const sorted = [...order].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const base = new Map<string, string>();
  for (const shape of sorted) {
    const wanted = shapeName(shape);
    if (isError(shape)) base.set(shape.id, claimed(shape, wanted, scope.both(wanted), "error"));
    else if (enumEntries(shape)) base.set(shape.id, claimed(shape, wanted, scope.both(wanted), "enum"));
    else base.set(shape.id, claimed(shape, wanted, scope.type(wanted), "shape"));
  }
  for (const shape of sorted) {
    const name = base.get(shape.id)!;
    const schema = claimed(shape, `${name}Schema`, scope.value(`${name}Schema`), "schema");
    if (isError(shape)) names.set(shape.id, { type: claimed(shape, `${name}Members`, scope.type(`${name}Members`), "error members"), schema, value: name });
    else if (enumEntries(shape)) names.set(shape.id, { type: name, schema, value: name });
    else names.set(shape.id, { type: name, schema });
  }
  const operationsName = claimed(service, `${serviceName}Operations`, scope.type(`${serviceName}Operations`), "operations type");
  return { model, service, closure, serviceName, operationsName, operations, shapes: order, names, events };
}
