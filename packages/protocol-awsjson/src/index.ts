/**
 * `@anvil/protocol-awsjson`: the `aws.protocols#awsJson1_0` and
 * `aws.protocols#awsJson1_1` protocols, client and server sides.
 *
 * @packageDocumentation
 */
export { awsJson1_0, awsJson1_1 } from "./aws-json.js";
export type { AwsJsonProtocol } from "./aws-json.js";
