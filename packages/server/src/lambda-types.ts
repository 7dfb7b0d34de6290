/**
 * The AWS Lambda events and results `@anvil/server/lambda` speaks, written
 * from AWS's documented formats (API Gateway's Lambda proxy integrations,
 * Lambda function URLs, Application Load Balancer targets) with only the
 * fields the adapter reads or writes, so that neither `@types/aws-lambda`
 * nor the Lambda runtime is needed to use or type-check it.
 */

/** Header or query values by name, one value each, as the events carry them. */
export type LambdaFields = Readonly<Record<string, string | undefined>>;

/** Header or query values by name, every value of each, as the multi-value fields carry them. */
export type LambdaMultiValueFields = Readonly<Record<string, readonly string[] | undefined>>;

/**
 * An API Gateway HTTP API event in payload format 2.0, which is also the
 * event of a Lambda function URL.
 */
export interface ApiGatewayV2Event {
  /** `2.0`. */
  readonly version: string;
  /** The route that matched (`$default`, `GET /books/{id}`). */
  readonly routeKey?: string;
  /**
   * The request path. An HTTP API gives it percent-decoded, and with the
   * stage in front for a stage other than `$default` called on the
   * `execute-api` domain; a function URL gives it as sent.
   */
  readonly rawPath: string;
  /** The query string as sent, without the `?`. */
  readonly rawQueryString?: string;
  /** The request's cookies, one `name=value` each (they are not in `headers`). */
  readonly cookies?: readonly string[];
  /** Request headers by lower-case name; repeated headers joined with commas. */
  readonly headers?: LambdaFields;
  /** The query parameters, decoded, repeated ones joined with commas (the adapter reads `rawQueryString`). */
  readonly queryStringParameters?: LambdaFields;
  /** Values of the route's path parameters. */
  readonly pathParameters?: LambdaFields;
  /** The stage's variables. */
  readonly stageVariables?: LambdaFields;
  /** The request's context. */
  readonly requestContext: {
    readonly accountId?: string;
    /** The API's id (a function URL's id for function URLs). */
    readonly apiId?: string;
    /** The host the request was sent to: the `execute-api` domain, a custom domain, or the function URL's. */
    readonly domainName?: string;
    readonly domainPrefix?: string;
    readonly http: {
      readonly method: string;
      readonly path?: string;
      readonly protocol?: string;
      /** The caller's address. */
      readonly sourceIp?: string;
      readonly userAgent?: string;
    };
    /** API Gateway's id of the request (what it answers in `apigw-requestid`). */
    readonly requestId?: string;
    readonly routeKey?: string;
    /** The stage (`$default` when the API has no named stage). */
    readonly stage?: string;
    readonly time?: string;
    readonly timeEpoch?: number;
  };
  /** The request body: text, or base64 when `isBase64Encoded`. Absent without a body. */
  readonly body?: string | null;
  /** Whether `body` is base64. */
  readonly isBase64Encoded?: boolean;
}

/**
 * An API Gateway REST API event (Lambda proxy integration), which is also
 * the event of an HTTP API in payload format 1.0 (then with `version: "1.0"`).
 */
export interface ApiGatewayV1Event {
  /** `1.0` for an HTTP API's payload format 1.0; absent for REST APIs. */
  readonly version?: string;
  /** The resource that matched (`/{proxy+}`). */
  readonly resource?: string;
  /**
   * The request path, as sent. A REST API gives it without the stage, but
   * with the base path of a custom domain's mapping in front; an HTTP API
   * (format 1.0) gives it as `rawPath` in format 2.0.
   */
  readonly path: string;
  /** The request method. */
  readonly httpMethod: string;
  /** Request headers, the last value of each. */
  readonly headers: LambdaFields | null;
  /** Request headers, every value of each (the adapter reads these when present). */
  readonly multiValueHeaders?: LambdaMultiValueFields | null;
  /** Query parameters, decoded, the last value of each. */
  readonly queryStringParameters: LambdaFields | null;
  /** Query parameters, decoded, every value of each (the adapter reads these when present). */
  readonly multiValueQueryStringParameters?: LambdaMultiValueFields | null;
  /** Values of the resource's path parameters. */
  readonly pathParameters?: LambdaFields | null;
  /** The stage's variables. */
  readonly stageVariables?: LambdaFields | null;
  /** The request's context. */
  readonly requestContext: {
    readonly accountId?: string;
    readonly apiId?: string;
    readonly domainName?: string;
    readonly domainPrefix?: string;
    readonly httpMethod?: string;
    /** The path the caller used: with the stage (or a custom domain's base path) in front. The adapter reads `path`. */
    readonly path?: string;
    readonly protocol?: string;
    /** API Gateway's id of the request (what it answers in `x-amzn-RequestId`). */
    readonly requestId?: string;
    readonly resourcePath?: string;
    readonly stage?: string;
    readonly requestTimeEpoch?: number;
    readonly identity?: {
      /** The caller's address. */
      readonly sourceIp?: string;
      readonly userAgent?: string | null;
    };
  };
  /** The request body: text, or base64 when `isBase64Encoded`. */
  readonly body: string | null;
  /** Whether `body` is base64. */
  readonly isBase64Encoded: boolean;
}

/**
 * An Application Load Balancer's event for a Lambda target. With the
 * target group's multi-value headers on, it carries `multiValueHeaders` and
 * `multiValueQueryStringParameters` instead of `headers` and
 * `queryStringParameters`, and expects the same of the result.
 */
export interface AlbEvent {
  /** The target group the load balancer sent the request to. */
  readonly requestContext: { readonly elb: { readonly targetGroupArn: string } };
  /** The request method. */
  readonly httpMethod: string;
  /** The request path, as sent (not decoded). */
  readonly path: string;
  /** Query parameters as sent (not decoded), the last value of each. */
  readonly queryStringParameters?: LambdaFields;
  /** Query parameters as sent (not decoded), every value of each. */
  readonly multiValueQueryStringParameters?: LambdaMultiValueFields;
  /** Request headers by lower-case name, the last value of each. */
  readonly headers?: LambdaFields;
  /** Request headers by lower-case name, every value of each. */
  readonly multiValueHeaders?: LambdaMultiValueFields;
  /** The request body: text, or base64 when `isBase64Encoded`. */
  readonly body: string;
  /** Whether `body` is base64. */
  readonly isBase64Encoded: boolean;
}

/** Any event the adapter serves. */
export type LambdaHttpEvent = ApiGatewayV2Event | ApiGatewayV1Event | AlbEvent;

/** The result for a payload 2.0 event (HTTP API, function URL). */
export interface ApiGatewayV2Result {
  /** The response status. */
  readonly statusCode: number;
  /** Response headers by lower-case name, repeated ones joined with commas; `set-cookie` is in `cookies`. */
  readonly headers: Record<string, string>;
  /** Each `Set-Cookie` of the response. */
  readonly cookies?: string[];
  /** The body: text, or base64 when `isBase64Encoded`. */
  readonly body: string;
  /** Whether `body` is base64. */
  readonly isBase64Encoded: boolean;
}

/** The result for a REST API (or HTTP API payload 1.0) event. */
export interface ApiGatewayV1Result {
  /** The response status. */
  readonly statusCode: number;
  /** Response headers by lower-case name, repeated ones joined with commas, but for `set-cookie`. */
  readonly headers: Record<string, string>;
  /** Each `Set-Cookie` of the response, when it has any (API Gateway merges this with `headers`). */
  readonly multiValueHeaders?: Record<string, string[]>;
  /** The body: text, or base64 when `isBase64Encoded`. */
  readonly body: string;
  /** Whether `body` is base64. */
  readonly isBase64Encoded: boolean;
}

/** The result for an Application Load Balancer event. */
export interface AlbResult {
  /** The response status. */
  readonly statusCode: number;
  /** The status line's text: `200 OK`. */
  readonly statusDescription: string;
  /** Response headers, when the event had no multi-value headers (then only one `Set-Cookie` can be sent). */
  readonly headers?: Record<string, string>;
  /** Response headers, every value of each, when the event had multi-value headers. */
  readonly multiValueHeaders?: Record<string, string[]>;
  /** The body: text, or base64 when `isBase64Encoded`. */
  readonly body: string;
  /** Whether `body` is base64. */
  readonly isBase64Encoded: boolean;
}

/** Any result the adapter answers with. */
export type LambdaHttpResult = ApiGatewayV2Result | ApiGatewayV1Result | AlbResult;

/** What the adapter reads of the Lambda runtime's context object. */
export interface LambdaContext {
  /** The invocation's id. */
  readonly awsRequestId: string;
  /** How long the invocation may still run, in milliseconds. */
  getRemainingTimeInMillis(): number;
}

/**
 * A buffered Lambda handler over an Anvil server: takes any event the
 * adapter serves and answers in the event's own format.
 */
export interface LambdaHandler {
  /** Answers an HTTP API (payload 2.0) or function URL event. */
  (event: ApiGatewayV2Event, context?: LambdaContext): Promise<ApiGatewayV2Result>;
  /** Answers an Application Load Balancer event. */
  (event: AlbEvent, context?: LambdaContext): Promise<AlbResult>;
  /** Answers a REST API (or HTTP API payload 1.0) event. */
  (event: ApiGatewayV1Event, context?: LambdaContext): Promise<ApiGatewayV1Result>;
  /** Answers any of them, in its own format. */
  (event: LambdaHttpEvent, context?: LambdaContext): Promise<LambdaHttpResult>;
}

/**
 * What the adapter uses of the response stream the Lambda Node.js runtime
 * hands a streaming handler (a Node `Writable`).
 */
export interface LambdaResponseStream {
  /** Writes a chunk; false when the stream wants the writer to wait for `drain`. */
  write(chunk: Uint8Array): boolean;
  /** Ends the stream; the callback runs once it has finished. */
  end(callback?: () => void): unknown;
  /** Listens once for `drain`, `close` or `error`. */
  once(event: "drain" | "close" | "error", listener: () => void): unknown;
  /** Stops listening. */
  off(event: "drain" | "close" | "error", listener: () => void): unknown;
}

/** The status and headers of a streamed answer, written ahead of its body. */
export interface HttpResponsePrelude {
  /** The response status. */
  readonly statusCode: number;
  /** Response headers by lower-case name, repeated ones joined with commas; `set-cookie` is in `cookies`. */
  readonly headers: Record<string, string>;
  /** Each `Set-Cookie` of the response. */
  readonly cookies?: string[];
}

/** A streaming handler, as the Lambda Node.js runtime calls it. */
export type StreamingLambdaHandler = (event: LambdaHttpEvent, responseStream: LambdaResponseStream, context?: LambdaContext) => Promise<void>;

/**
 * The part of the Lambda Node.js runtime's `awslambda` global that
 * response streaming uses.
 */
export interface AwsLambdaRuntime {
  /** Marks a handler as streaming; the runtime then calls it with a response stream. */
  streamifyResponse(handler: StreamingLambdaHandler): StreamingLambdaHandler;
  /** Writes the status and headers of an HTTP answer ahead of its streamed body. */
  readonly HttpResponseStream: {
    /** The stream with the prelude (status, headers, cookies) written ahead of its first chunk. */
    from(stream: LambdaResponseStream, prelude: HttpResponsePrelude): LambdaResponseStream;
  };
}
