/**
 * `@anvil/auth-sigv4`: AWS Signature Version 4 (`aws.auth#sigv4`) as an
 * Anvil auth scheme, on `@smithy/signature-v4`, with credentials given or
 * from the standard AWS chain. Pass `sigv4({ region })` in a client's
 * `auth`. Imports only `@anvil/core` (whose `AuthScheme` it implements).
 *
 * @packageDocumentation
 */
export { sigv4 } from "./sigv4.js";
export type { AwsCredentials, SigV4Options } from "./sigv4.js";
