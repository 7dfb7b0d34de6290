/**
 * The restJson1 protocol factory: the HTTP binding engine with restJson1's
 * settings.
 */
import type { ClientProtocol, ServerProtocol } from "@anvil/core";
import { REST_JSON_1 } from "./bindings.js";
import { createHttpBindingClient } from "./client.js";
import { createHttpBindingServer } from "./server.js";

/** Both sides of restJson1. */
export interface RestJsonProtocol {
  /** For `client-core`: binds input to the request, reads output and errors. */
  readonly client: ClientProtocol;
  /** For `server`: routes by `@http`, reads input, writes output and errors. */
  readonly server: ServerProtocol;
}

/** Options of {@link restJson1}. */
export interface RestJsonOptions {
  /**
   * The framing the client asks for for output event streams:
   * `"eventstream"` (`application/vnd.amazon.eventstream`, the default) or
   * `"sse"` (Server-Sent Events, `text/event-stream`: what browsers and
   * plain HTTP clients read). The client reads whichever the server
   * answers with. Input event streams are always the binary framing. The
   * server side answers every caller in the framing its `Accept` prefers,
   * whatever this says.
   */
  readonly eventStreams: "eventstream" | "sse";
}

/**
 * `aws.protocols#restJson1`: method and URI from `@http`, members bound to
 * labels, query, headers and payload, the rest as a JSON body
 * (`@jsonName` honoured, timestamps as epoch seconds); errors named by
 * `X-Amzn-Errortype`. The server refuses a `Content-Type` other than the
 * input's (415) and an `Accept` that does not admit the output's (406).
 * Output event streams go out as `application/vnd.amazon.eventstream`, or
 * as Server-Sent Events to a caller whose `Accept` prefers
 * `text/event-stream`.
 */
export function restJson1(options: Partial<RestJsonOptions> = {}): RestJsonProtocol {
  const eventStreams = options.eventStreams ?? "eventstream";
  if (eventStreams !== "eventstream" && eventStreams !== "sse")
    throw new TypeError(`restJson1: eventStreams must be "eventstream" or "sse", got ${JSON.stringify(eventStreams)}`);
  return Object.freeze({
    client: createHttpBindingClient(REST_JSON_1, { serverSentEvents: eventStreams === "sse" }),
    server: createHttpBindingServer(REST_JSON_1, { mediaTypeChecks: true, serverSentEvents: true }),
  });
}
