/**
 * What one service's generated code declares, decided before any text is
 * written: the names of the service and its operations, and the helpers
 * every planner shares (prelude schemas, errors, enum values).
 */
import { operationKey } from "@anvil/dynamic";
import type { MemberShape, Model, Shape } from "@anvil/model";
import { isNodeObject, nameOf, type ServiceClosure, type ValidationEvent } from "@anvil/model";
import { NameScope } from "./names.js";
import type { ShapesPlan } from "./shapes-plan.js";

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

/** The declarations of one service's generated code (its data shapes are in {@link ShapesPlan}). */
export interface ServicePlan {
  readonly model: Model;
  readonly service: Shape;
  readonly closure: ServiceClosure;
  /** Where the data shapes of every generated service are declared. */
  readonly shapes: ShapesPlan;
  /** The service constant. */
  readonly serviceName: string;
  /** The service constant without operations, which the service constant and per-operation clients are built from. */
  readonly baseName: string;
  /** The interface listing the service's operations by method name. */
  readonly operationsName: string;
  readonly operations: readonly PlannedOperation[];
  /** Problems met while planning (names that had to change). */
  readonly events: ValidationEvent[];
}

/**
 * Takes the name a name scope gave a declaration, warning (with the shape's
 * location) when it is not the one wanted: a clash renamed it. An escaped
 * reserved word (`_Object`) is no surprise and passes silently.
 */
export function nameClaimer(events: ValidationEvent[]): (shape: Shape | MemberShape, wanted: string, got: string, what: string) => string {
  return (shape, wanted, got, what) => {
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

/**
 * Plans the service file of one service: the names of the service and its
 * operations (the service's `rename` applies to them). Its data shapes are
 * planned for all services at once ({@link ShapesPlan}).
 */
export function planService(model: Model, closure: ServiceClosure, shapes: ShapesPlan): ServicePlan {
  const service = closure.service;
  const events: ValidationEvent[] = [];
  const rename = service.rename ?? {};
  const scope = new NameScope();
  const claimed = nameClaimer(events);

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
  const operationsName = claimed(service, `${serviceName}Operations`, scope.type(`${serviceName}Operations`), "operations type");
  const baseName = claimed(service, `${serviceName}Base`, scope.value(`${serviceName}Base`), "service base");
  return { model, service, closure, shapes, serviceName, baseName, operationsName, operations, events };
}
