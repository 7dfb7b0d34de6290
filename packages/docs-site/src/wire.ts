/**
 * Example values (`@examples` node values) as a protocol sends them: member
 * names after `@jsonName`, timestamps in the format the location asks for,
 * blobs as base64 in JSON and as bytes in CBOR.
 */
import { getTimestampFormat, isNodeObject, type MemberShape, type Model, type NodeValue, type Shape } from "@anvil/model";
import { CborFloat, CborTime } from "./cbor.js";
import type { ProtocolInfo } from "./protocols.js";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The timestamp format of a member: its own trait, its target's, then the location's default. */
export function timestampFormat(model: Model, member: MemberShape | undefined, fallback: string): string {
  if (member === undefined) return fallback;
  return getTimestampFormat(member) ?? (model.getShape(member.target) ? getTimestampFormat(model.getShape(member.target)!) : undefined) ?? fallback;
}

/** Milliseconds since the epoch of a node value written as an ISO string or as epoch seconds. */
function instant(value: NodeValue): number | undefined {
  if (typeof value === "number") return value * 1000;
  if (typeof value === "string") {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** A timestamp in a Smithy timestamp format. */
export function formatTimestamp(value: NodeValue, format: string): Json {
  const ms = instant(value);
  if (ms === undefined) return value as Json;
  if (format === "epoch-seconds") return ms / 1000;
  if (format === "http-date") return new Date(ms).toUTCString();
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

function base64ToBytes(text: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return new TextEncoder().encode(text);
  }
}

/** The wire name of a member in a body. */
export function wireName(member: MemberShape, protocol: ProtocolInfo): string {
  if (!protocol.jsonName) return member.name;
  const name = member.traits.get("smithy.api#jsonName");
  return typeof name === "string" ? name : member.name;
}

function walk(model: Model, shape: Shape | undefined, member: MemberShape | undefined, value: NodeValue, protocol: ProtocolInfo, cbor: boolean): unknown {
  if (shape === undefined || value === null) return nodeToJson(value);
  switch (shape.type) {
    case "structure":
    case "union": {
      if (!isNodeObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) {
        const m = shape.members.get(key);
        if (m === undefined) out[key] = v;
        else out[wireName(m, protocol)] = walk(model, model.getShape(m.target), m, v, protocol, cbor);
      }
      return out;
    }
    case "list":
    case "set": {
      const m = shape.members.get("member");
      return Array.isArray(value) && m ? value.map((v) => walk(model, model.getShape(m.target), m, v, protocol, cbor)) : value;
    }
    case "map": {
      const m = shape.members.get("value");
      if (!isNodeObject(value) || m === undefined) return value;
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) out[key] = walk(model, model.getShape(m.target), m, v, protocol, cbor);
      return out;
    }
    case "timestamp": {
      if (cbor) {
        const ms = instant(value);
        return ms === undefined ? value : new CborTime(ms / 1000);
      }
      return formatTimestamp(value, timestampFormat(model, member, protocol.bodyTimestamp));
    }
    case "blob":
      return cbor && typeof value === "string" ? base64ToBytes(value) : value;
    case "float":
    case "double":
      return cbor && typeof value === "number" ? new CborFloat(value) : value;
    default:
      return typeof value === "bigint" ? Number(value) : value;
  }
}

/** A node value as JSON (`bigint`s become numbers). */
export function nodeToJson(value: NodeValue): Json {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(nodeToJson);
  if (isNodeObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nodeToJson(v)]));
  return value;
}

/** A value of a shape as a JSON protocol writes it in a body. */
export function toWireJson(model: Model, shapeId: string, value: NodeValue, protocol: ProtocolInfo, member?: MemberShape): Json {
  return walk(model, model.getShape(shapeId), member, value, protocol, false) as Json;
}

/** A value of a shape as rpcv2Cbor writes it: bytes for blobs, tagged epoch seconds for timestamps. */
export function toWireCbor(model: Model, shapeId: string, value: NodeValue, protocol: ProtocolInfo): unknown {
  return walk(model, model.getShape(shapeId), undefined, value, protocol, true);
}

/** A value as an HTTP header, query or label string (lists joined with commas). */
export function toHttpString(model: Model, member: MemberShape, value: NodeValue, fallbackTimestamp: string): string {
  const target = model.getShape(member.target);
  if (Array.isArray(value)) {
    const item = target?.members.get("member");
    return value.map((v) => (item ? toHttpString(model, item, v, fallbackTimestamp) : String(v))).join(",");
  }
  if (target?.type === "timestamp") return String(formatTimestamp(value, timestampFormat(model, member, fallbackTimestamp)));
  if (target?.type === "document" || isNodeObject(value)) return JSON.stringify(value);
  return String(value);
}
