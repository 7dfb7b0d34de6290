/**
 * What the client and server sides of AWS JSON share: the protocol
 * variants, codec settings, body helpers and error type names.
 *
 * @internal
 */
import type { OperationSchema, ServiceSchema } from "@anvil/core";
import type { JsonSettings } from "@anvil/codec-json";

/** How AWS JSON 1.0 and 1.1 differ. */
export interface AwsJsonVariant {
  /** The protocol trait id. */
  readonly id: string;
  /** `application/x-amz-json-1.0` or `-1.1`. */
  readonly contentType: string;
  /** Whether the server writes `__type` as the absolute shape id (1.0) or the shape name (1.1). */
  readonly typeAsShapeId: boolean;
}

/** AWS JSON 1.0. */
export const AWS_JSON_1_0: AwsJsonVariant = Object.freeze({
  id: "aws.protocols#awsJson1_0",
  contentType: "application/x-amz-json-1.0",
  typeAsShapeId: true,
});

/** AWS JSON 1.1. */
export const AWS_JSON_1_1: AwsJsonVariant = Object.freeze({
  id: "aws.protocols#awsJson1_1",
  contentType: "application/x-amz-json-1.1",
  typeAsShapeId: false,
});

/** awsJson ignores `@jsonName`; timestamps default to epoch seconds. */
export const JSON_SETTINGS: JsonSettings = Object.freeze({ useJsonName: false, timestampFormat: "epoch-seconds" });

/** How the server reads requests: strictly (UTC date-times, padded base64, known union members), so malformed input is a 400. */
export const REQUEST_JSON_SETTINGS: JsonSettings = Object.freeze({ ...JSON_SETTINGS, strict: true });

/** `smithy.api#Unit`: an operation without input or output. */
export const UNIT = "smithy.api#Unit";

/** The `X-Amz-Target` value of an operation: `<ServiceName>.<OperationName>`. */
export function targetOf(service: ServiceSchema, operation: OperationSchema): string {
  return `${service.name}.${operation.name}`;
}
