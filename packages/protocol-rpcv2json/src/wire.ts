/**
 * What the client and server sides of RPC v2 JSON share: the protocol
 * constants, codec settings and error type names.
 *
 * @internal
 */
import { baseMediaType } from "@anvil/core/protocol";
import type { JsonSettings } from "@anvil/codec-json";

/** The protocol trait id. */
export const PROTOCOL_ID = "smithy.protocols#rpcv2Json";

/** The `smithy-protocol` header every request and response carries. */
export const SMITHY_PROTOCOL = "smithy-protocol";
/** Its value for this protocol. */
export const RPC_V2_JSON = "rpc-v2-json";

/** The media type of every body. */
export const JSON_MEDIA_TYPE = "application/json";

/**
 * Member names as in the model (`@jsonName` ignored), every timestamp as
 * epoch seconds whatever its `@timestampFormat` says, and `bigInteger` /
 * `bigDecimal` values as JSON strings (no precision lost to doubles).
 */
export const JSON_SETTINGS: JsonSettings = Object.freeze({
  useJsonName: false,
  timestampFormat: "epoch-seconds",
  ignoreTimestampFormat: true,
  bigNumbersAsStrings: true,
});

/** How the server reads requests: strictly (padded base64, known union members), so malformed input is a 400. */
export const REQUEST_JSON_SETTINGS: JsonSettings = Object.freeze({ ...JSON_SETTINGS, strict: true });

/** `smithy.api#Unit`: an operation without input or output. */
export const UNIT = "smithy.api#Unit";

/** Whether a `Content-Type` value is `application/json` (parameters ignored). */
export function isJsonContentType(value: string | null): boolean {
  return value !== null && baseMediaType(value) === JSON_MEDIA_TYPE;
}
