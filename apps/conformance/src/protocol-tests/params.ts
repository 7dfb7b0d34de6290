/**
 * Converts the `params` of protocol test cases (node values) to Anvil runtime
 * values, the values a client takes as input and a server handler returns.
 *
 * Protocol tests write values as Smithy's own test runners read them, which
 * differs from trait node values in one place: a blob (streaming or not) is
 * written as its UTF-8 text (`blob: "blobby blob blob"` is the bytes of that
 * text), not as base64. Everything else follows `runtimeValue` from
 * `@anvil/dynamic`: timestamps from epoch seconds (or RFC 3339 text), floats
 * from numbers or `"NaN"` / `"Infinity"` / `"-Infinity"`, bigDecimal as
 * `BigDecimal`, unions as `{ $case, value }`, documents as they are.
 */
import { runtimeValue } from "@anvil/dynamic";
import { copyExactNumbers, isNodeObject, type Model, type NodeObject, type NodeValue, type Shape } from "@anvil/model";
import type { EventStreamCase, HttpRequestCase, HttpResponseCase } from "./cases.js";

/** Thrown when params do not fit the shape they are for. */
export class ParamsError extends Error {
  override readonly name = "ParamsError";
}

const UNIT = "smithy.api#Unit";

/**
 * The shape a case's `params` are for: a request case's operation input, a
 * response case's operation output, or the error structure a response case
 * is attached to. `smithy.api#Unit` when the operation has no input/output.
 */
export function paramsShapeOf(model: Model, c: HttpRequestCase | HttpResponseCase): string {
  if (c.attachedTo.type === "error") return c.attachedTo.id;
  const operation = model.getShape(c.attachedTo.id);
  if (!operation || operation.type !== "operation") throw new ParamsError(`${c.attachedTo.id} is not an operation of the model`);
  return (c.kind === "request" ? operation.input : operation.output) ?? UNIT;
}

/** A case's `params` as the runtime value of {@link paramsShapeOf}. */
export function caseParamsValue(model: Model, c: HttpRequestCase | HttpResponseCase): unknown {
  return paramsToValue(model, paramsShapeOf(model, c), c.params, `${c.id}.params`);
}

/**
 * The event-stream union of an operation's input (`request`) or output
 * (`response`): the target of its member that targets a `@streaming` union.
 * Undefined when that side has no event stream.
 */
export function eventStreamShapeOf(model: Model, operationId: string, direction: "request" | "response"): string | undefined {
  const operation = model.getShape(operationId);
  const io = direction === "request" ? operation?.input : operation?.output;
  const structure = io === undefined ? undefined : model.getShape(io);
  for (const member of structure?.members.values() ?? []) {
    const target = model.getShape(member.target);
    if (target?.type === "union" && target.traits.has("smithy.api#streaming")) return target.id;
  }
  return undefined;
}

/** The runtime value of one event's `params` (a value of the operation's event-stream union). */
export function eventParamsValue(model: Model, c: EventStreamCase, eventIndex: number): unknown {
  const event = c.events[eventIndex];
  if (event === undefined) throw new ParamsError(`${c.id}: no event ${eventIndex}`);
  if (event.params === undefined) return undefined;
  const union = eventStreamShapeOf(model, c.attachedTo.id, event.type);
  if (union === undefined) throw new ParamsError(`${c.id}: ${c.attachedTo.id} has no ${event.type} event stream`);
  return paramsToValue(model, union, event.params, `${c.id}.events[${eventIndex}].params`);
}

/**
 * Converts protocol-test params to the runtime value of the shape `targetId`.
 * Throws a {@link ParamsError} for a member the shape does not have or a blob
 * that is not text, and rethrows `runtimeValue`'s errors (a timestamp that is
 * neither a number nor RFC 3339 text, ...) as ParamsErrors.
 */
export function paramsToValue(model: Model, targetId: string, params: NodeValue, where: string): unknown {
  const normalized = normalize(model, shapeOf(model, targetId, where), params, where);
  try {
    return runtimeValue(model, targetId, normalized, where);
  } catch (error) {
    throw new ParamsError(error instanceof Error ? error.message : String(error));
  }
}

function shapeOf(model: Model, id: string, where: string): Shape {
  const shape = model.getShape(id);
  if (!shape) throw new ParamsError(`${where}: unknown shape \`${id}\``);
  return shape;
}

/**
 * The params with every blob's text replaced by the base64 of its UTF-8
 * bytes (the form `runtimeValue` reads), checking member names on the way.
 */
function normalize(model: Model, shape: Shape, value: NodeValue, where: string): NodeValue {
  if (value === null) return value;
  switch (shape.type) {
    case "blob":
      if (typeof value !== "string") throw new ParamsError(`${where}: a blob param must be text, got ${typeof value}`);
      return Buffer.from(value, "utf8").toString("base64");
    case "list":
    case "set": {
      if (!Array.isArray(value)) throw new ParamsError(`${where}: expected a list for ${shape.id}`);
      const item = shapeOf(model, shape.members.get("member")!.target, where);
      const out = value.map((v, i) => normalize(model, item, v, `${where}[${i}]`));
      copyExactNumbers(value, out);
      return out;
    }
    case "map": {
      if (!isNodeObject(value)) throw new ParamsError(`${where}: expected an object for ${shape.id}`);
      const target = shapeOf(model, shape.members.get("value")!.target, where);
      return mapObject(value, (key, v) => normalize(model, target, v, `${where}.${key}`));
    }
    case "structure":
    case "union": {
      if (!isNodeObject(value)) throw new ParamsError(`${where}: expected an object for ${shape.id}`);
      const keys = Object.keys(value);
      if (shape.type === "union" && keys.length !== 1) {
        throw new ParamsError(`${where}: a union value needs exactly one member, got {${keys.join(", ")}}`);
      }
      return mapObject(value, (key, v) => {
        const member = shape.members.get(key);
        if (!member) throw new ParamsError(`${where}: ${shape.id} has no member \`${key}\``);
        // A member written `null` has no value, as in Smithy's node-to-shape reading
        // (only sparse lists and maps hold nulls as values).
        if (v === null && shape.type === "structure") return undefined;
        return normalize(model, shapeOf(model, member.target, where), v, `${where}.${key}`);
      });
    }
    default:
      return value;
  }
}

/** Maps an object's values (keeping the exact texts of approximate numbers); a key mapped to `undefined` is left out. */
function mapObject(value: NodeObject, f: (key: string, v: NodeValue) => NodeValue | undefined): NodeObject {
  const out: NodeObject = {};
  copyExactNumbers(value, out);
  for (const key of Object.keys(value)) {
    const v = f(key, value[key]!);
    if (v === undefined) continue;
    if (key === "__proto__") Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}
