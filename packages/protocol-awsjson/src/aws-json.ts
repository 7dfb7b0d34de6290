/**
 * The AWS JSON protocol factories.
 */
import type { ClientProtocol, ServerProtocol } from "@anvil/core";
import { createAwsJsonClient } from "./client.js";
import { createAwsJsonServer } from "./server.js";
import { AWS_JSON_1_0, AWS_JSON_1_1 } from "./wire.js";

/** Both sides of an AWS JSON protocol. */
export interface AwsJsonProtocol {
  /** For `client-core`: serializes input, reads output and errors. */
  readonly client: ClientProtocol;
  /** For `server`: routes by `X-Amz-Target`, reads input, writes output and errors. */
  readonly server: ServerProtocol;
}

/**
 * `aws.protocols#awsJson1_0`: `POST /`, `Content-Type:
 * application/x-amz-json-1.0`, `X-Amz-Target: <Service>.<Operation>`;
 * errors carry `__type` as the absolute shape id.
 */
export function awsJson1_0(): AwsJsonProtocol {
  return Object.freeze({ client: createAwsJsonClient(AWS_JSON_1_0), server: createAwsJsonServer(AWS_JSON_1_0) });
}

/**
 * `aws.protocols#awsJson1_1`: as {@link awsJson1_0} with `Content-Type:
 * application/x-amz-json-1.1`; errors carry `__type` as the shape name.
 */
export function awsJson1_1(): AwsJsonProtocol {
  return Object.freeze({ client: createAwsJsonClient(AWS_JSON_1_1), server: createAwsJsonServer(AWS_JSON_1_1) });
}
