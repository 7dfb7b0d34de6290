/**
 * Output event streams as Server-Sent Events, as restJson1 answers a
 * caller whose `Accept` prefers `text/event-stream`: the documentation's
 * account of it (the OpenAPI answer, the /docs sample). One message per
 * event: `event:` the union member's name (an error's: its shape name),
 * `id:` a sequence number from 1, `data:` the event's JSON.
 */
import { getErrorKind, isNodeObject, nameOf, type MemberShape, type Model, type NodeValue } from "@anvil/model";
import type { ProtocolInfo } from "./protocols.js";
import { toWireJson } from "./wire.js";

/** `text/event-stream`. */
export const SSE_MEDIA_TYPE = "text/event-stream";

/** Whether a protocol answers output event streams as Server-Sent Events when asked to: restJson1 only. */
export function offersServerSentEvents(protocol: ProtocolInfo): boolean {
  return protocol.id === "aws.protocols#restJson1";
}

/** The member of a payload binding that is an event stream (it targets a `@streaming` union), if it is one. */
export function isEventStreamMember(model: Model, member: MemberShape): boolean {
  const target = model.getShape(member.target);
  return target?.type === "union" && target.traits.has("smithy.api#streaming");
}

/**
 * The Server-Sent Events text of an example's events (a list of
 * `{ member: value }`), or undefined when the value is none.
 */
export function sseText(model: Model, member: MemberShape, events: NodeValue | undefined, protocol: ProtocolInfo): string | undefined {
  const union = model.getShape(member.target);
  if (union === undefined || !Array.isArray(events)) return undefined;
  let out = "";
  let id = 0;
  for (const event of events) {
    if (!isNodeObject(event)) continue;
    for (const [name, value] of Object.entries(event as Record<string, NodeValue>)) {
      const variant = union.members.get(name);
      if (variant === undefined) continue;
      const target = model.getShape(variant.target);
      const type = target !== undefined && getErrorKind(target) !== undefined ? nameOf(target.id) : name;
      out += `event: ${type}\nid: ${++id}\ndata: ${JSON.stringify(toWireJson(model, variant.target, value, protocol))}\n\n`;
    }
  }
  return out === "" ? undefined : out;
}

/** How the OpenAPI document and the docs describe the framing, in a sentence. */
export const SSE_DESCRIPTION =
  "Server-Sent Events, for a caller whose Accept prefers text/event-stream (a browser's EventSource, fetch, curl -N): one message per event, `event:` the event's name (a modeled error's: its shape name), `id:` a sequence number from 1, `data:` the event's JSON. A failure the model does not name ends the stream with an `error` event of `code` and `message`; comment lines keep an idle stream open.";
