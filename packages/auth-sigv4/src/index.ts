/**
 * `@anvil/auth-sigv4`: AWS Signature Version 4 (`aws.auth#sigv4`) as an
 * Anvil auth scheme (requests signed here; presigned URLs and event-stream
 * messages by `@smithy/signature-v4`), with credentials given or from the
 * standard AWS chain. Pass `sigv4({ region })` in a client's
 * `auth`; on a server, `sigv4Verifier({ secretOf })` in `createServer`'s
 * `auth.schemes` checks the signatures of the calls it serves. Imports
 * `@anvil/core` (whose `AuthScheme` and `ServerAuthScheme` it implements) and
 * `@anvil/eventstream` (the frames of signed event streams).
 *
 * @packageDocumentation
 */
export { sigv4 } from "./sigv4.js";
export type { AwsCredentials, SigV4Options, SigV4PresignOptions, SigV4Scheme } from "./sigv4.js";
export { sigv4Verifier } from "./verify.js";
export type { SigV4VerifierOptions } from "./verify.js";
