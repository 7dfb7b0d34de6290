/**
 * Rules about the two REST JSON protocols, restJson1 and alloy's
 * simpleRestJson: where a model relies on what only one of them defines.
 */
import type { Model } from "../model.js";
import { serviceClosure } from "../service-index.js";
import type { MemberShape, Shape } from "../shape.js";
import type { ValidationEvent } from "../validation-event.js";

const REST_JSON_1 = "aws.protocols#restJson1";
const SIMPLE_REST_JSON = "alloy#simpleRestJson";
const STREAMING = "smithy.api#streaming";
const UNIT = "smithy.api#Unit";

/** Event id of a `@streaming` member under simpleRestJson (an ERROR). */
export const SIMPLE_REST_JSON_STREAMING = "AnvilSimpleRestJson.Streaming";
/** Event id of an alloy JSON trait on a shape only restJson1 services use (a WARNING). */
export const IGNORED_ALLOY_TRAIT = "AnvilRestJson1.IgnoredAlloyTrait";

/** Both rules. */
export function validateRestJsonRules(model: Model): ValidationEvent[] {
  return [...validateSimpleRestJsonStreaming(model), ...validateIgnoredAlloyTraits(model)];
}

/**
 * simpleRestJson defines no streaming (alloy's protocol definition lists no
 * `@streaming`, its spec no event-stream framing), so an operation of a
 * simpleRestJson service whose input or output reaches a `@streaming` blob
 * or union is an error, at the member targeting it. It stays an error when
 * the service also declares restJson1, which could carry the stream: every
 * protocol a service declares serves every operation, and a simpleRestJson
 * peer (smithy4s, alloy tooling, Anvil's own client) has no wire for it.
 * Such operations belong in a service without `@simpleRestJson`.
 */
function validateSimpleRestJsonStreaming(model: Model): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  for (const service of model.shapesOfType("service")) {
    if (!service.traits.has(SIMPLE_REST_JSON)) continue;
    const alsoRestJson1 = service.traits.has(REST_JSON_1);
    // Shapes are walked once per service: a member several operations reach is reported once, for the first.
    const seen = new Set<string>();
    for (const op of serviceClosure(model, service.id).operations) {
      for (const [direction, root] of [
        ["input", op.input],
        ["output", op.output],
      ] as const) {
        if (root === undefined || root === UNIT) continue;
        forEachMember(model, root, seen, (member, target) => {
          if (!target.traits.has(STREAMING)) return;
          const where = member.container === root ? `${direction} member \`${member.name}\`` : `member \`${member.id}\`, reached from its ${direction},`;
          const kind = target.type === "union" ? "union (an event stream)" : target.type;
          events.push({
            severity: "ERROR",
            id: SIMPLE_REST_JSON_STREAMING,
            message:
              `Operation \`${op.id}\` streams: its ${where} targets the @streaming ${kind} \`${target.id}\`, but service \`${service.id}\` declares ` +
              `alloy#simpleRestJson, which defines no streaming` +
              (alsoRestJson1
                ? ` (restJson1, which the service also declares, could carry it, but every protocol of a service serves all of its operations)`
                : "") +
              `: move the operation to a service without @simpleRestJson (restJson1 streams blobs and event streams), or remove @streaming from \`${target.id}\``,
            shapeId: member.id,
            location: member.location,
          });
        });
      }
    }
  }
  return events;
}

/**
 * Calls `visit` for every member reachable from a shape (through structures,
 * unions, lists and maps), with the member's target, skipping shapes already
 * in `seen` (and adding those it walks).
 */
function forEachMember(model: Model, rootId: string, seen: Set<string>, visit: (member: MemberShape, target: Shape) => void): void {
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const shape = model.getShape(id);
    if (shape === undefined) continue;
    for (const member of shape.members.values()) {
      const target = model.getShape(member.target);
      if (target === undefined) continue;
      visit(member, target);
      if (target.members.size > 0) stack.push(target.id);
    }
  }
}

/** The alloy JSON traits only simpleRestJson honours, and what restJson1 does instead. */
const ALLOY_JSON_TRAITS: readonly (readonly [trait: string, restJson1: string])[] = [
  ["alloy#discriminated", "writes and reads the union as an object keyed by the member name, without a discriminator field"],
  ["alloy#untagged", "writes and reads the union as an object keyed by the member name, not as the bare value"],
  ["alloy#jsonUnknown", "treats the member as an ordinary one instead of collecting unknown JSON fields into it"],
];

/**
 * `@alloy#discriminated`, `@alloy#untagged` and `@alloy#jsonUnknown` change
 * the JSON of simpleRestJson only. On a shape that services declaring
 * restJson1 (and not simpleRestJson) use, and no simpleRestJson service
 * does, the trait changes nothing on the wire, which is rarely what its
 * author meant: a warning at the shape (or member) suggests simpleRestJson.
 */
function validateIgnoredAlloyTraits(model: Model): ValidationEvent[] {
  const honoured = new Set<string>();
  const restJson1Only = new Map<string, string[]>();
  for (const service of model.shapesOfType("service")) {
    const shapes = service.traits.has(SIMPLE_REST_JSON) || service.traits.has(REST_JSON_1) ? serviceClosure(model, service.id).shapes : undefined;
    if (shapes === undefined) continue;
    if (service.traits.has(SIMPLE_REST_JSON)) {
      for (const id of shapes) honoured.add(id);
      continue;
    }
    for (const id of shapes) {
      const services = restJson1Only.get(id);
      if (services === undefined) restJson1Only.set(id, [service.id]);
      else services.push(service.id);
    }
  }
  const events: ValidationEvent[] = [];
  for (const [id, services] of restJson1Only) {
    if (honoured.has(id) || model.isBuiltin(id)) continue;
    const shape = model.getShape(id);
    if (shape === undefined) continue;
    for (const on of [shape, ...shape.members.values()]) {
      for (const [trait, instead] of ALLOY_JSON_TRAITS) {
        if (!on.traits.has(trait)) continue;
        const who =
          services.length === 1 ? `service \`${services[0]}\`, which uses it,` : `services ${services.map((s) => `\`${s}\``).join(", ")}, which use it,`;
        events.push({
          severity: "WARNING",
          id: IGNORED_ALLOY_TRAIT,
          message:
            `\`${on.id}\` has @${trait}, which only alloy#simpleRestJson honours: ${who} declare${services.length === 1 ? "s" : ""} restJson1 and not simpleRestJson, ` +
            `so the trait has no effect (restJson1 ${instead}). Declare @simpleRestJson on the service (beside or instead of restJson1) for alloy's JSON, or remove the trait`,
          shapeId: on.id,
          location: on.location,
        });
      }
    }
  }
  return events;
}
