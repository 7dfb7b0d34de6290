/**
 * Hand-built models for the selector tests (the loader is not used here).
 * @internal
 */
import { Model } from "../model.js";
import type { NodeValue } from "../node-value.js";
import type { MemberShape, Shape } from "../shape.js";
import { NO_LOCATION } from "../source-location.js";

type MemberSpec = string | { readonly target: string; readonly traits?: Record<string, NodeValue> };

/** Options of {@link shape}: traits and members by name, plus any service/resource/operation properties. */
export type ShapeSpec = Omit<Partial<Shape>, "traits" | "members" | "id" | "type"> & {
  readonly traits?: Record<string, NodeValue>;
  readonly members?: Record<string, MemberSpec>;
};

const traitMap = (traits: Record<string, NodeValue> = {}): Map<string, NodeValue> =>
  new Map(Object.entries(traits).map(([k, v]) => [k.includes("#") ? k : `smithy.api#${k}`, v]));

/** Builds a top-level shape; relative trait ids resolve to `smithy.api`. @internal */
export function shape(id: string, type: Shape["type"], spec: ShapeSpec = {}): Shape {
  const { traits, members, mixins, ...rest } = spec;
  const memberMap = new Map<string, MemberShape>();
  for (const [name, m] of Object.entries(members ?? {})) {
    const target = typeof m === "string" ? m : m.target;
    memberMap.set(name, {
      type: "member",
      id: `${id}$${name}`,
      name,
      container: id,
      target,
      traits: traitMap(typeof m === "string" ? {} : m.traits),
      location: NO_LOCATION,
    });
  }
  return { ...rest, id, type, traits: traitMap(traits), members: memberMap, mixins: mixins ?? [], location: NO_LOCATION };
}

/** Builds a model from shapes. @internal */
export function modelOf(...shapes: Shape[]): Model {
  return new Model(new Map(shapes.map((s) => [s.id, s])));
}

/**
 * A small model exercising every shape type and relationship:
 * a service with an operation, a resource with lifecycle, instance and
 * collection operations and a child resource, errors, mixins, enums,
 * collections and a few trait definitions.
 * @internal
 */
export function exampleModel(): Model {
  return modelOf(
    // prelude bits
    shape("smithy.api#String", "string"),
    shape("smithy.api#Unit", "structure", { traits: { unitType: {} } }),
    shape("smithy.api#trait", "structure", { traits: { trait: { selector: "structure" } } }),
    shape("smithy.api#required", "structure", { traits: { trait: { selector: "structure > member" } } }),
    shape("smithy.api#documentation", "string", { traits: { trait: { selector: "*" } } }),
    shape("smithy.api#protocolDefinition", "structure", { traits: { trait: { selector: "[trait|trait]" } } }),
    // a protocol trait
    shape("ex#restish", "structure", { traits: { trait: { selector: "service" }, protocolDefinition: {} } }),
    shape("ex#unusedTrait", "structure", { traits: { trait: {} } }),
    // simple shapes
    shape("ex#Name", "string", { traits: { documentation: "A name", length: { min: 1, max: 64 } } }),
    shape("ex#Count", "integer", { traits: { range: { min: 1, max: 10 } } }),
    shape("ex#BadRange", "long", { traits: { range: { min: 10, max: 1 } } }),
    shape("ex#Ratio", "float"),
    shape("ex#Data", "blob", { traits: { streaming: {} } }),
    shape("ex#When", "timestamp"),
    shape("ex#Doc", "document"),
    shape("ex#Flag", "boolean"),
    shape("ex#Color", "enum", { members: { RED: "smithy.api#Unit", GREEN: "smithy.api#Unit" } }),
    shape("ex#Level", "intEnum", { members: { LOW: "smithy.api#Unit" } }),
    shape("ex#Legacy", "string", {
      traits: {
        enum: [
          { value: "a", tags: ["internal"] },
          { value: "b", deprecated: true, tags: ["deprecated", "internal"] },
        ],
        tags: ["Alpha", "beta"],
      },
    }),
    // aggregates
    shape("ex#Names", "list", { members: { member: "ex#Name" } }),
    shape("ex#OldSet", "set", { members: { member: "ex#Name" } }),
    shape("ex#Tags", "map", { members: { key: "ex#Name", value: "ex#Count" } }),
    shape("ex#Choice", "union", { members: { name: "ex#Name", count: "ex#Count" } }),
    shape("ex#Base", "structure", { traits: { mixin: {} }, members: { id: "ex#Name" } }),
    shape("ex#WithMixin", "structure", { mixins: ["ex#Base"], members: { id: "ex#Name", when: "ex#When" } }),
    shape("ex#Input", "structure", {
      traits: { input: {} },
      members: { name: { target: "ex#Name", traits: { required: {} } }, data: "ex#Data", count: "ex#Count", legacy: "ex#Legacy" },
    }),
    shape("ex#Output", "structure", { traits: { output: {} }, members: { names: "ex#Names", ratio: "ex#Ratio" } }),
    shape("ex#NotFound", "structure", {
      traits: { error: "client", httpError: 404 },
      members: { message: { target: "smithy.api#String", traits: { required: {} } } },
    }),
    shape("ex#Throttled", "structure", { traits: { error: "server", httpError: 503, retryable: {} } }),
    // operations, resources, service
    shape("ex#GetThing", "operation", { input: "ex#Input", output: "ex#Output", errors: ["ex#NotFound"], traits: { readonly: {} } }),
    shape("ex#PutThing", "operation", { input: "smithy.api#Unit", output: "smithy.api#Unit" }),
    shape("ex#DeleteThing", "operation", { traits: { idempotent: {} } }),
    shape("ex#ListThings", "operation"),
    shape("ex#TouchThing", "operation"),
    shape("ex#BatchThings", "operation"),
    shape("ex#GetPart", "operation", { traits: { "ex#dataPlane": {} } }),
    shape("ex#Ping", "operation", { traits: { documentation: "Ping!" } }),
    shape("ex#Part", "resource", {
      traits: { "ex#controlPlane": {} },
      identifiers: { thingId: "ex#Name", partId: "ex#Name" },
      read: "ex#GetPart",
    }),
    shape("ex#Thing", "resource", {
      traits: { "ex#dataPlane": {} },
      identifiers: { thingId: "ex#Name" },
      properties: { count: "ex#Count" },
      put: "ex#PutThing",
      read: "ex#GetThing",
      delete: "ex#DeleteThing",
      list: "ex#ListThings",
      operations: ["ex#TouchThing"],
      collectionOperations: ["ex#BatchThings"],
      resources: ["ex#Part"],
    }),
    shape("ex#Service", "service", {
      version: "2020-01-01",
      operations: ["ex#Ping"],
      resources: ["ex#Thing"],
      errors: ["ex#Throttled"],
      traits: { "ex#restish": {} },
    }),
    shape("ex#Unused", "structure", { members: { flag: "ex#Flag", doc: "ex#Doc" } }),
  );
}
