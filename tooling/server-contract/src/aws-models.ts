/**
 * Our own minimal Smithy models of a few operations of a few AWS services,
 * written for the AWS SDK interop test (`aws-sdk.test.ts`), in
 * `models/*.smithy`. Only what the SDK clients rely on has to match the real
 * services: the shape ids (the SDK resolves errors by name in the service
 * namespace), the protocol, the operation names, the member names and the
 * HTTP bindings. Everything else (constraints, the handful of members kept)
 * is ours.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The folder of the models. */
export const AWS_MODELS = join(import.meta.dirname, "..", "models");

const model = (name: string): string => readFileSync(join(AWS_MODELS, `${name}.smithy`), "utf8");

/** DynamoDB over `aws.protocols#awsJson1_0`. */
export const DYNAMODB_MODEL: string = model("dynamodb");
/** Lambda over `aws.protocols#restJson1`. */
export const LAMBDA_MODEL: string = model("lambda");
/** CloudWatch over `aws.protocols#awsJson1_0` (`@awsQueryCompatible`) and `smithy.protocols#rpcv2Cbor`. */
export const CLOUDWATCH_MODEL: string = model("cloudwatch");
/** The AWS Price List service over `aws.protocols#awsJson1_1`. */
export const PRICING_MODEL: string = model("pricing");
/** SageMaker Runtime over `aws.protocols#restJson1`, with a blob payload and a response stream. */
export const SAGEMAKER_RUNTIME_MODEL: string = model("sagemaker-runtime");
/** The API Gateway Management API over `aws.protocols#restJson1`. */
export const APIGATEWAY_MANAGEMENT_MODEL: string = model("apigateway-management");
/** Amazon Transcribe Streaming over restJson1 on HTTP/2, with event streams both ways. */
export const TRANSCRIBE_STREAMING_MODEL: string = model("transcribe-streaming");
