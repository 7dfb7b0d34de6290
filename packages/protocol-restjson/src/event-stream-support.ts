/**
 * What the HTTP binding engine knows of event streams without loading them:
 * which member of a structure is one, and their media type. The framing and
 * event codec (`./event-stream.js`, on `@anvil/eventstream`) load when an
 * operation with an event stream is first called, so a client whose calls
 * have none carries none of it.
 *
 * @internal
 */
import type { MemberSchema, StructSchema, UnionSchema } from "@anvil/core";
import { bindingsOf, type Direction } from "./bindings.js";
import { lazyModule } from "./lazy-module.js";

/** `application/vnd.amazon.eventstream` (`@anvil/eventstream`'s `EVENT_STREAM_MEDIA_TYPE`, spelled here so that naming it loads nothing). */
export const EVENT_STREAM_MEDIA_TYPE = "application/vnd.amazon.eventstream";

/** `text/event-stream`: Server-Sent Events, the framing browsers read (`@anvil/eventstream`'s `SSE_MEDIA_TYPE`). */
export const SSE_MEDIA_TYPE = "text/event-stream";

/** A range that could admit `text/event-stream` names `text/` (or is `*\/*`, which prefers neither). */
const TEXT_RANGE = /text\//i;

/**
 * Whether an `Accept` prefers Server-Sent Events to
 * `application/vnd.amazon.eventstream`: each type's quality is the q-value
 * of the most specific range that matches it (RFC 9110, 12.5.1), and
 * `text/event-stream` wins when its quality is higher, or as high and
 * named more specifically (`text/event-stream, *\/*`). No `Accept`, `*\/*`
 * or a tie keep the binary framing. A cheap look for `text/` comes first:
 * the binary path parses nothing.
 */
export function prefersServerSentEvents(accept: string | null | undefined): boolean {
  if (accept === null || accept === undefined || !TEXT_RANGE.test(accept)) return false;
  const ranges = parseAccept(accept);
  const sse = qualityOf(ranges, "text", "event-stream");
  if (sse.q <= 0) return false;
  const binary = qualityOf(ranges, "application", "vnd.amazon.eventstream");
  return sse.q > binary.q || (sse.q === binary.q && sse.specificity > binary.specificity);
}

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/** The ranges of an `Accept`, lower case; a range that is no `type/subtype` or has a q-value that is not one is left out. */
function parseAccept(accept: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part.split(";");
    const name = range.trim().toLowerCase();
    const slash = name.indexOf("/");
    if (slash <= 0 || slash === name.length - 1) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const eq = param.indexOf("=");
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "q") continue;
      const value = param.slice(eq + 1).trim();
      if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) valid = false;
      else q = Number(value);
    }
    if (valid) out.push({ type: name.slice(0, slash), subtype: name.slice(slash + 1), q });
  }
  return out;
}

/** The quality an `Accept`'s ranges give a type, and how specific the range that gave it is (3 exact, 2 `type/*`, 1 `*\/*`, 0 none: quality 0). */
function qualityOf(ranges: readonly MediaRange[], type: string, subtype: string): { q: number; specificity: number } {
  let q = 0;
  let specificity = 0;
  for (const r of ranges) {
    const s = r.type === type && r.subtype === subtype ? 3 : r.type === type && r.subtype === "*" ? 2 : r.type === "*" && r.subtype === "*" ? 1 : 0;
    if (s === 0 || s < specificity) continue;
    if (s > specificity) {
      specificity = s;
      q = r.q;
    } else q = Math.max(q, r.q);
  }
  return { q, specificity };
}

/** A member carrying an event stream. */
export interface EventStreamMember extends MemberSchema {
  readonly target: UnionSchema;
}

/** The `@httpPayload` member of a structure that is an event stream, if any. */
export function eventStreamPayload(schema: StructSchema, direction: Direction): EventStreamMember | undefined {
  const payload = bindingsOf(schema, direction).payload;
  return payload !== undefined && payload.target.kind === "union" && payload.traits.streaming ? (payload as EventStreamMember) : undefined;
}

/** The event-stream machinery: bodies of events and events of bodies. */
export type EventStreams = typeof import("./event-stream.js");

/** The event-stream machinery, loaded by the first operation that has an event stream. */
export const eventStreams = lazyModule<EventStreams>(() => import("./event-stream.js"));

/**
 * Runs `use` with the event-stream machinery: at once when it has loaded
 * (every call after the first), else once it has (a server protocol may
 * answer with a promise).
 */
export function withEventStreams<T>(use: (streams: EventStreams) => T): T | Promise<T> {
  const loaded = eventStreams.current;
  return loaded !== undefined ? use(loaded) : eventStreams.load().then(use);
}
