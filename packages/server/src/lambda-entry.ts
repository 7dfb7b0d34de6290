/**
 * `@anvil/server/lambda`: serving an Anvil server on AWS Lambda, behind API
 * Gateway (HTTP APIs with payload 2.0 or 1.0, REST APIs with the Lambda
 * proxy integration), a function URL (buffered, or streamed with
 * {@link streamingLambdaHandler}) or an Application Load Balancer. Each
 * event becomes a `Request` for the server's fetch handler, and its answer
 * the result in the event's format. Kept apart from the main entry, which
 * fetch hosts load, as the Node entry is.
 *
 * @packageDocumentation
 */
export { lambdaHandler, streamingLambdaHandler } from "./lambda.js";
export type { LambdaOptions, StreamingLambdaOptions } from "./lambda.js";
export type {
  AlbEvent,
  AlbResult,
  ApiGatewayV1Event,
  ApiGatewayV1Result,
  ApiGatewayV2Event,
  ApiGatewayV2Result,
  AwsLambdaRuntime,
  HttpResponsePrelude,
  LambdaContext,
  LambdaFields,
  LambdaHandler,
  LambdaHttpEvent,
  LambdaHttpResult,
  LambdaMultiValueFields,
  LambdaResponseStream,
  StreamingLambdaHandler,
} from "./lambda-types.js";
export { MALFORMED_EVENT, UNSUPPORTED_EVENT } from "./lambda-request.js";
