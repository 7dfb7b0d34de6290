/**
 * Runtime schemas built from a parsed model: the same objects generated code
 * builds with `@anvil/core/codegen`, so every codec and protocol works on a
 * model without code generation.
 */
import type { EnumValue, MemberSchema, OperationSchema, Schema, ScalarKind, ServiceSchema, StructSchema } from "@anvil/core";
import { NO_TRAITS } from "@anvil/core/protocol";
import * as b from "@anvil/core/codegenv1";
import type { MemberShape, Model, Shape } from "@anvil/model";
import { isNodeObject, nameOf, serviceClosure, serviceProtocols, SIMPLE_TYPES } from "@anvil/model";
import { operationKey } from "./operation-key.js";
import { operationTraits, schemaTraits, serviceTraits } from "./schema-traits.js";

/** The runtime schemas of one model. Every lookup is cached: the same id gives the same object. */
export interface DynamicSchemas {
  /** The model the schemas come from. */
  readonly model: Model;
  /**
   * The schema of a data shape (scalar, enum, intEnum, list, set, map,
   * structure or union), prelude shapes included: `smithy.api#String`
   * without extra traits is the core's shared `string`, and
   * `smithy.api#Unit` is the core's `unit`. A `set` is a list with
   * `uniqueItems`. Throws if the id is not a data shape of the model.
   */
  shape(id: string): Schema;
  /**
   * The schema of an operation. Its errors are the operation's, then its
   * service's, and its `@paginated` is merged with the service's: with
   * `serviceId`, of that service; without, of the one service in the model
   * that binds the operation (directly or through resources), if there is
   * exactly one, else of none. `service(s).operations[name]` is the same
   * object as `operation(id, s)`.
   */
  operation(id: string, serviceId?: string): OperationSchema;
  /**
   * The schema of a service. Operations (bound directly or through
   * resources) are keyed by their shape name in lower camel case
   * (`GetForecast` → `getForecast`); if two operations would share a key,
   * the later one keeps its shape name as is (`GetForecast`), and if that is
   * taken too, its absolute id. The service's `rename` map is not applied
   * yet: names are the shape names as they are in the model.
   */
  service(id: string): ServiceSchema;
  /** Every service of the model (bundled trait shapes excluded), in model order. */
  services(): ServiceSchema[];
}

const CONTEXT = "schemasFromModel";

/** Prelude scalars that map to the core's shared constants when they carry no extra traits. */
const PRELUDE_SCALARS: ReadonlyMap<string, Schema> = new Map<string, Schema>([
  ["smithy.api#String", b.string],
  ["smithy.api#Boolean", b.boolean],
  ["smithy.api#Blob", b.blob],
  ["smithy.api#Byte", b.byte],
  ["smithy.api#Short", b.short],
  ["smithy.api#Integer", b.integer],
  ["smithy.api#Long", b.long],
  ["smithy.api#Float", b.float],
  ["smithy.api#Double", b.double],
  ["smithy.api#BigInteger", b.bigInteger],
  ["smithy.api#BigDecimal", b.bigDecimal],
  ["smithy.api#Timestamp", b.timestamp],
  ["smithy.api#Document", b.document],
]);

/** Smithy's simple shape types: exactly the core's scalar kinds. */
const SCALAR_KINDS: ReadonlySet<string> = SIMPLE_TYPES;

const cache = new WeakMap<Model, DynamicSchemas>();

/**
 * The runtime schemas of a model, built lazily and cached per model (in a
 * `WeakMap`), so repeated calls share every schema object.
 *
 * Traits: each schema carries its shape's traits, each member its own (the
 * core merges the target's on access), mapped to the typed `Traits` fields;
 * every other trait except documentation, examples and test cases is kept
 * in `custom` by absolute id with its node value (a service keeps all its
 * traits in `traits`). `@default` values are converted to runtime values (a
 * `Date`, bytes, a `BigDecimal`, ...); `@default(null)` on a member is an
 * own `default: undefined`, so the target's default does not apply.
 *
 * @example
 * ```ts
 * const { model } = loadModel({ paths: ["model/"] });
 * const schemas = schemasFromModel(model);
 * const forecast = schemas.shape("example.weather#DailyForecast");
 * const weather = schemas.service("example.weather#Weather");
 * ```
 */
export function schemasFromModel(model: Model): DynamicSchemas {
  let schemas = cache.get(model);
  if (!schemas) cache.set(model, (schemas = build(model)));
  return schemas;
}

function build(model: Model): DynamicSchemas {
  const shapes = new Map<string, Schema>();
  const operations = new Map<string, OperationSchema>();
  const services = new Map<string, ServiceSchema>();

  const require = (id: string, what: string): Shape => {
    const s = model.getShape(id);
    if (!s) throw new Error(`${CONTEXT}: \`${id}\` is not a shape in the model (expected ${what})`);
    return s;
  };

  const shape = (id: string): Schema => {
    const cached = shapes.get(id);
    if (cached) return cached;
    const s = require(id, "a data shape");
    // Register before anything can recurse: members refer to targets through thunks only.
    const schema = buildShape(s);
    shapes.set(id, schema);
    return schema;
  };

  const memberOf = (m: MemberShape, name = m.name): MemberSchema => {
    require(m.target, `the target of \`${m.id}\``);
    return b.member(name, () => shape(m.target), schemaTraits(model, m, m.target));
  };

  const buildShape = (s: Shape): Schema => {
    if (s.id === "smithy.api#Unit") return b.unit;
    const traits = schemaTraits(model, s, s.id);
    const legacyEnum = s.type === "string" ? s.traits.get("smithy.api#enum") : undefined;
    if (Array.isArray(legacyEnum)) {
      // A 1.0-style `@enum` string is an enum to the runtime: same values, same validation.
      const values: EnumValue<string>[] = [];
      for (const d of legacyEnum) {
        if (!isNodeObject(d) || typeof d.value !== "string") continue;
        const internal = Array.isArray(d.tags) && d.tags.includes("internal");
        values.push(Object.freeze({ name: typeof d.name === "string" ? d.name : d.value, value: d.value, ...(internal ? { internal } : {}) }));
      }
      return b.enumeration(s.id, values, traits);
    }
    if (SCALAR_KINDS.has(s.type)) {
      const shared = PRELUDE_SCALARS.get(s.id);
      return shared && traits === NO_TRAITS ? shared : b.scalar(s.type as ScalarKind, s.id, traits);
    }
    switch (s.type) {
      case "enum":
      case "intEnum": {
        const values: EnumValue[] = [];
        for (const m of s.members.values()) {
          const v = m.traits.get("smithy.api#enumValue");
          // An enum member without @enumValue has its name as value; an intEnum member always has one.
          const value = typeof v === "string" || typeof v === "number" ? v : m.name;
          const internal = m.traits.has("smithy.api#internal");
          const protoIndex = m.traits.get("alloy.proto#protoIndex");
          values.push(Object.freeze({ name: m.name, value, ...(internal ? { internal } : {}), ...(typeof protoIndex === "number" ? { protoIndex } : {}) }));
        }
        return s.type === "enum" ? b.enumeration(s.id, values as EnumValue<string>[], traits) : b.intEnum(s.id, values as EnumValue<number>[], traits);
      }
      case "list":
      case "set": {
        const item = s.members.get("member");
        if (!item) throw new Error(`${CONTEXT}: list \`${s.id}\` has no member`);
        const listTraits = s.type === "set" && !traits.uniqueItems ? Object.freeze({ ...traits, uniqueItems: true }) : traits;
        return b.list(s.id, memberOf(item), listTraits);
      }
      case "map": {
        const key = s.members.get("key");
        const value = s.members.get("value");
        if (!key || !value) throw new Error(`${CONTEXT}: map \`${s.id}\` needs a key and a value member`);
        return b.map(s.id, memberOf(key) as MemberSchema<string>, memberOf(value), traits);
      }
      case "structure":
        return b.struct(
          s.id,
          [...s.members.values()].map((m) => memberOf(m)),
          traits,
        );
      case "union":
        return b.union(
          s.id,
          [...s.members.values()].map((m) => memberOf(m)),
          traits,
        );
      default:
        throw new Error(`${CONTEXT}: \`${s.id}\` is a ${s.type}, not a data shape`);
    }
  };

  const struct = (id: string | undefined, what: string): StructSchema => {
    if (id === undefined || id === "smithy.api#Unit") return b.unit;
    const schema = shape(id);
    if (schema.kind !== "structure") throw new Error(`${CONTEXT}: ${what} \`${id}\` is a ${schema.kind}, not a structure`);
    return schema as StructSchema;
  };

  const bindingServices = (opId: string): Shape[] => {
    const out: Shape[] = [];
    for (const svc of model.shapesOfType("service")) {
      if (model.isBuiltin(svc.id)) continue;
      if (serviceClosure(model, svc.id).operations.some((o) => o.id === opId)) out.push(svc);
    }
    return out;
  };

  const operation = (id: string, serviceId?: string): OperationSchema => {
    let svc: Shape | undefined;
    if (serviceId !== undefined) {
      svc = require(serviceId, "a service");
      if (svc.type !== "service") throw new Error(`${CONTEXT}: \`${serviceId}\` is a ${svc.type}, not a service`);
    } else {
      const found = bindingServices(id);
      if (found.length === 1) svc = found[0];
    }
    const key = `${id} ${svc?.id ?? ""}`;
    const cached = operations.get(key);
    if (cached) return cached;
    const op = require(id, "an operation");
    if (op.type !== "operation") throw new Error(`${CONTEXT}: \`${id}\` is a ${op.type}, not an operation`);
    const errorIds = [...(op.errors ?? []), ...(svc?.errors ?? [])];
    const schema = b.operation(id, {
      input: () => struct(op.input, `the input of \`${id}\``),
      output: () => struct(op.output, `the output of \`${id}\``),
      errors: errorIds.map((e) => () => struct(e, `an error of \`${id}\``)),
      traits: operationTraits(op, svc),
    });
    operations.set(key, schema);
    return schema;
  };

  const service = (id: string): ServiceSchema => {
    const cached = services.get(id);
    if (cached) return cached;
    const svc = require(id, "a service");
    if (svc.type !== "service") throw new Error(`${CONTEXT}: \`${id}\` is a ${svc.type}, not a service`);
    const ops: Record<string, OperationSchema> = {};
    for (const op of serviceClosure(model, id).operations) {
      const name = nameOf(op.id);
      const key = operationKey(op.id, name, (k) => Object.hasOwn(ops, k));
      // defineProperty: an operation may be named `__proto__`, and must stay a plain key.
      Object.defineProperty(ops, key, { value: operation(op.id, id), enumerable: true, writable: true, configurable: true });
    }
    const schema = b.service(id, {
      version: svc.version ?? "",
      operations: ops,
      protocols: serviceProtocols(model, svc),
      errors: (svc.errors ?? []).map((e) => () => struct(e, `an error of \`${id}\``)),
      ...serviceTraits(model, svc),
    });
    services.set(id, schema);
    return schema;
  };

  return Object.freeze({
    model,
    shape,
    operation,
    service,
    services: () => [...model.shapesOfType("service")].filter((s) => !model.isBuiltin(s.id)).map((s) => service(s.id)),
  });
}
