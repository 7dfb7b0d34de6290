/**
 * The simpleRestJson protocol factory: the HTTP binding engine with alloy's
 * settings.
 */
import { SIMPLE_REST_JSON } from "./bindings.js";
import { createHttpBindingClient } from "./client.js";
import type { RestJsonProtocol } from "./rest-json.js";
import { createHttpBindingServer } from "./server.js";

/**
 * `alloy#simpleRestJson`: restJson1's HTTP bindings with every body a JSON
 * value (an `@httpPayload` string or blob too), alloy's JSON traits
 * (`@discriminated`, `@untagged`, `@jsonUnknown`, `@nullable`, open enums)
 * honoured, and errors named by `X-Error-Type`.
 */
export function simpleRestJson(): RestJsonProtocol {
  return Object.freeze({ client: createHttpBindingClient(SIMPLE_REST_JSON), server: createHttpBindingServer(SIMPLE_REST_JSON) });
}
