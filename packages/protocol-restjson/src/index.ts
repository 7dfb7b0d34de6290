/**
 * `@anvil/protocol-restjson`: the `aws.protocols#restJson1` protocol, client
 * and server sides, on an HTTP binding engine that other HTTP-binding JSON
 * protocols (alloy's simpleRestJson) can share with different settings.
 *
 * @packageDocumentation
 */
export { restJson1 } from "./rest-json.js";
export type { RestJsonProtocol } from "./rest-json.js";
export { simpleRestJson } from "./simple-rest-json.js";
export type { HttpBindingSettings } from "./bindings.js";
