import type { Model } from "../model.js";
import { isNodeObject } from "../node-value.js";
import { serviceClosure } from "../service-index.js";
import type { MemberShape, Shape } from "../shape.js";
import type { ValidationEvent } from "../validation-event.js";
import { validateRestJsonRules } from "./rest-json-rules.js";

const GRPC = "alloy.proto#grpc";
const PROTO_INDEX = "alloy.proto#protoIndex";

/**
 * Rules Anvil relies on beyond Smithy's own: HTTP binding consistency, gRPC
 * field numbers, streaming blobs of RPC protocols, streaming under
 * simpleRestJson and alloy JSON traits restJson1 ignores.
 */
export function validateAnvilRules(model: Model): ValidationEvent[] {
  return [...validateHttpBindings(model), ...validateGrpcServices(model), ...validateRpcStreamingBlobs(model), ...validateRestJsonRules(model)];
}

/**
 * Protocols whose body is the whole input or output document: they carry
 * event streams but have no binding for a `@streaming` blob, so their
 * clients and servers refuse an operation with one.
 */
const DOCUMENT_PROTOCOLS = ["aws.protocols#awsJson1_0", "aws.protocols#awsJson1_1", "smithy.protocols#rpcv2Cbor", "smithy.protocols#rpcv2Json"];

/**
 * Warns about an operation with a `@streaming` blob member in a service that
 * declares a protocol unable to carry it: callers on that protocol get an
 * error for the operation (the others, e.g. restJson1, still serve it).
 */
function validateRpcStreamingBlobs(model: Model): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  for (const service of model.shapesOfType("service")) {
    const protocols = DOCUMENT_PROTOCOLS.filter((p) => service.traits.has(p));
    if (protocols.length === 0) continue;
    for (const op of serviceClosure(model, service.id).operations) {
      for (const [where, id] of [
        ["input", op.input],
        ["output", op.output],
      ] as const) {
        const struct = id === undefined ? undefined : model.getShape(id);
        for (const member of struct?.members.values() ?? []) {
          const target = model.getShape(member.target);
          if (target?.type !== "blob" || !target.traits.has("smithy.api#streaming")) continue;
          for (const protocol of protocols) {
            events.push({
              severity: "WARNING",
              id: "AnvilProtocol.StreamingBlob",
              message: `Operation \`${op.id}\` has a @streaming blob (${where} member \`${member.name}\`), which the ${protocol} protocol of service \`${service.id}\` cannot carry: calls to it over ${protocol} fail with a SerializationError (use a protocol with HTTP bindings such as restJson1 for it)`,
              shapeId: member.id,
              location: member.location,
            });
          }
        }
      }
    }
  }
  return events;
}

/** Labels of an `@http` URI pattern: `{name}` and greedy `{name+}`. */
export function uriLabels(uri: string): { name: string; greedy: boolean }[] {
  const out: { name: string; greedy: boolean }[] = [];
  const re = /\{([^}]*)\}/g;
  for (let m = re.exec(uri); m; m = re.exec(uri)) {
    const raw = m[1]!;
    out.push({ name: raw.endsWith("+") ? raw.slice(0, -1) : raw, greedy: raw.endsWith("+") });
  }
  return out;
}

function validateHttpBindings(model: Model): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  const fail = (on: Shape | MemberShape, id: string, message: string) => events.push({ severity: "ERROR", id, message, shapeId: on.id, location: on.location });
  for (const op of model.shapesOfType("operation")) {
    const http = op.traits.get("smithy.api#http");
    if (!isNodeObject(http) || typeof http.uri !== "string") continue;
    const labels = uriLabels(http.uri);
    const input = op.input ? model.getShape(op.input) : undefined;
    const members = input ? [...input.members.values()] : [];
    for (const label of labels) {
      const member = members.find((m) => m.name === label.name);
      if (!member) {
        fail(op, "HttpLabelTrait", `The \`${label.name}\` label of the URI \`${http.uri}\` of \`${op.id}\` has no corresponding input member`);
      } else if (!member.traits.has("smithy.api#httpLabel")) {
        fail(
          member,
          "HttpLabelTrait",
          `Input member \`${member.name}\` of \`${op.id}\` must be marked with @httpLabel because the URI \`${http.uri}\` has a \`{${label.name}}\` label`,
        );
      }
    }
    for (const member of members) {
      if (!member.traits.has("smithy.api#httpLabel")) continue;
      if (!labels.some((l) => l.name === member.name)) {
        fail(
          member,
          "HttpLabelTrait",
          `Input member \`${member.name}\` of \`${op.id}\` is marked with @httpLabel, but the URI \`${http.uri}\` has no \`{${member.name}}\` label`,
        );
      }
      if (!member.traits.has("smithy.api#required")) {
        fail(member, "HttpLabelTrait", `Input member \`${member.name}\` of \`${op.id}\` is bound to a URI label and must be marked with @required`);
      }
    }
  }
  return events;
}

function validateGrpcServices(model: Model): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  for (const service of model.shapesOfType("service")) {
    if (!service.traits.has(GRPC)) continue;
    const closure = serviceClosure(model, service.id);
    const roots = new Set<string>();
    for (const op of closure.operations) {
      if (op.input) roots.add(op.input);
      if (op.output) roots.add(op.output);
    }
    const seen = new Set<string>();
    const stack = [...roots];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id) || id === "smithy.api#Unit") continue;
      seen.add(id);
      const shape = model.getShape(id);
      if (!shape) continue;
      if (shape.type === "structure" || shape.type === "union") checkProtoMembers(service, shape, events);
      if (shape.type === "blob" && shape.traits.has("smithy.api#streaming")) {
        events.push({
          severity: "ERROR",
          id: "AnvilGrpc.StreamingBlob",
          message: `\`${shape.id}\` is a @streaming blob, which gRPC cannot carry (service \`${service.id}\` uses alloy.proto#grpc); stream a union of events instead`,
          shapeId: shape.id,
          location: shape.location,
        });
      }
      for (const m of shape.members.values()) stack.push(m.target);
    }
  }
  return events;
}

function checkProtoMembers(service: Shape, shape: Shape, events: ValidationEvent[]): void {
  const used = new Map<number, string>();
  for (const m of shape.members.values()) {
    const index = m.traits.get(PROTO_INDEX);
    if (typeof index !== "number") {
      events.push({
        severity: "ERROR",
        id: "AnvilGrpc.ProtoIndex",
        message: `Member \`${m.id}\` has no @protoIndex; every member reachable from an operation of the gRPC service \`${service.id}\` needs one (field numbers are the wire contract)`,
        shapeId: m.id,
        location: m.location,
      });
      continue;
    }
    const prior = used.get(index);
    if (prior !== undefined) {
      events.push({
        severity: "ERROR",
        id: "AnvilGrpc.ProtoIndex",
        message: `Members \`${prior}\` and \`${m.name}\` of \`${shape.id}\` both use @protoIndex(${index}); field numbers must be unique`,
        shapeId: m.id,
        location: m.location,
      });
    } else used.set(index, m.name);
  }
}
