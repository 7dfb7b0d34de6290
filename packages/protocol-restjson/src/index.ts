/**
 * `@anvil/protocol-restjson`: the `aws.protocols#restJson1` and
 * `alloy#simpleRestJson` protocols, client and server sides, on one HTTP
 * binding engine with a settings object per protocol.
 *
 * @packageDocumentation
 */
export { restJson1 } from "./rest-json.js";
export type { RestJsonOptions, RestJsonProtocol } from "./rest-json.js";
export { simpleRestJson } from "./simple-rest-json.js";
export type { HttpBindingSettings } from "./bindings.js";
