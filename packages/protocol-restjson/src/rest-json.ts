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

/**
 * `aws.protocols#restJson1`: method and URI from `@http`, members bound to
 * labels, query, headers and payload, the rest as a JSON body
 * (`@jsonName` honoured, timestamps as epoch seconds); errors named by
 * `X-Amzn-Errortype`. The server refuses a `Content-Type` other than the
 * input's (415) and an `Accept` that does not admit the output's (406).
 */
export function restJson1(): RestJsonProtocol {
  return Object.freeze({ client: createHttpBindingClient(REST_JSON_1), server: createHttpBindingServer(REST_JSON_1, { mediaTypeChecks: true }) });
}
