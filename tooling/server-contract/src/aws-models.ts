/**
 * Our own minimal Smithy models of a few operations of a few AWS services,
 * written for the AWS SDK interop test (`aws-sdk.test.ts`). Only what the
 * SDK clients rely on has to match the real services: the shape ids (the
 * SDK resolves errors by name in the service namespace), the protocol, the
 * operation names, the member names and the HTTP bindings. Everything else
 * (constraints, the handful of members kept) is ours.
 */

/** DynamoDB over `aws.protocols#awsJson1_0`: target `DynamoDB_20120810.<Operation>`. */
export const DYNAMODB_MODEL = `
$version: "2"
namespace com.amazonaws.dynamodb

use aws.api#service
use aws.auth#sigv4
use aws.protocols#awsJson1_0

@service(sdkId: "DynamoDB", endpointPrefix: "dynamodb")
@sigv4(name: "dynamodb")
@awsJson1_0
service DynamoDB_20120810 {
    version: "2012-08-10"
    operations: [DescribeTable, GetItem, PutItem, ListTables]
    errors: [InternalServerError]
}

operation DescribeTable {
    input := {
        @required
        TableName: TableName
    }
    output := {
        Table: TableDescription
    }
    errors: [ResourceNotFoundException]
}

operation GetItem {
    input := {
        @required
        TableName: TableName
        @required
        Key: AttributeMap
        ConsistentRead: Boolean
    }
    output := {
        Item: AttributeMap
    }
    errors: [ResourceNotFoundException]
}

operation PutItem {
    input := {
        @required
        TableName: TableName
        @required
        Item: AttributeMap
    }
    output := {
        Attributes: AttributeMap
    }
    errors: [ResourceNotFoundException]
}

operation ListTables {
    input := {
        ExclusiveStartTableName: TableName
        @range(min: 1, max: 100)
        Limit: Integer
    }
    output := {
        TableNames: TableNameList
        LastEvaluatedTableName: TableName
    }
}

@length(min: 3, max: 255)
@pattern("^[a-zA-Z0-9_.-]+$")
string TableName

list TableNameList {
    member: TableName
}

structure TableDescription {
    TableName: TableName
    TableStatus: TableStatus
    CreationDateTime: Timestamp
    ItemCount: Long
    KeySchema: KeySchema
}

enum TableStatus {
    CREATING
    UPDATING
    DELETING
    ACTIVE
}

list KeySchema {
    member: KeySchemaElement
}

structure KeySchemaElement {
    @required
    AttributeName: String
    @required
    KeyType: KeyType
}

enum KeyType {
    HASH
    RANGE
}

map AttributeMap {
    key: String
    value: AttributeValue
}

union AttributeValue {
    S: String
    N: String
    B: Blob
    SS: StringList
    NS: StringList
    BS: BlobList
    M: AttributeMap
    L: AttributeValueList
    NULL: Boolean
    BOOL: Boolean
}

list StringList {
    member: String
}

list BlobList {
    member: Blob
}

list AttributeValueList {
    member: AttributeValue
}

@error("client")
structure ResourceNotFoundException {
    message: String
}

@error("server")
structure InternalServerError {
    message: String
}
`;

/** Lambda over `aws.protocols#restJson1`: two read operations under `/2015-03-31/functions`. */
export const LAMBDA_MODEL = `
$version: "2"
namespace com.amazonaws.lambda

use aws.api#service
use aws.auth#sigv4
use aws.protocols#restJson1

@service(sdkId: "Lambda", endpointPrefix: "lambda")
@sigv4(name: "lambda")
@restJson1
service AWSGirApiService {
    version: "2015-03-31"
    operations: [ListFunctions, GetFunction]
}

@readonly
@http(method: "GET", uri: "/2015-03-31/functions", code: 200)
operation ListFunctions {
    input := {
        @httpQuery("MasterRegion")
        MasterRegion: String
        @httpQuery("FunctionVersion")
        FunctionVersion: String
        @httpQuery("Marker")
        Marker: String
        @httpQuery("MaxItems")
        @range(min: 1, max: 10000)
        MaxItems: Integer
    }
    output := {
        NextMarker: String
        Functions: FunctionList
    }
}

@readonly
@http(method: "GET", uri: "/2015-03-31/functions/{FunctionName}", code: 200)
operation GetFunction {
    input := {
        @required
        @httpLabel
        @length(min: 1, max: 170)
        FunctionName: String
        @httpQuery("Qualifier")
        Qualifier: String
    }
    output := {
        Configuration: FunctionConfiguration
        Code: FunctionCodeLocation
        Tags: Tags
    }
    errors: [ResourceNotFoundException]
}

list FunctionList {
    member: FunctionConfiguration
}

structure FunctionConfiguration {
    FunctionName: String
    FunctionArn: String
    Runtime: Runtime
    Handler: String
    CodeSize: Long
    Timeout: Integer
    MemorySize: Integer
    Version: String
    Architectures: ArchitecturesList
}

enum Runtime {
    NODEJS20 = "nodejs20.x"
    PYTHON312 = "python3.12"
}

list ArchitecturesList {
    member: Architecture
}

enum Architecture {
    X86_64 = "x86_64"
    ARM64 = "arm64"
}

structure FunctionCodeLocation {
    RepositoryType: String
    Location: String
}

map Tags {
    key: String
    value: String
}

@error("client")
@httpError(404)
structure ResourceNotFoundException {
    Type: String
    Message: String
}
`;

/**
 * CloudWatch, which the SDK speaks over `aws.protocols#awsJson1_0` (in
 * `@awsQueryCompatible` mode) by default, and over
 * `smithy.protocols#rpcv2Cbor` when given that protocol: one Anvil server
 * serves both.
 */
export const CLOUDWATCH_MODEL = `
$version: "2"
namespace com.amazonaws.cloudwatch

use aws.api#service
use aws.auth#sigv4
use aws.protocols#awsJson1_0
use aws.protocols#awsQueryCompatible
use aws.protocols#awsQueryError
use smithy.protocols#rpcv2Cbor

@service(sdkId: "CloudWatch", endpointPrefix: "monitoring")
@sigv4(name: "monitoring")
@awsJson1_0
@rpcv2Cbor
@awsQueryCompatible
service GraniteServiceVersion20100801 {
    version: "2010-08-01"
    operations: [PutMetricData, ListMetrics, GetDashboard]
}

operation PutMetricData {
    input := {
        @required
        Namespace: Namespace
        MetricData: MetricData
    }
    output: Unit
    errors: [InvalidParameterValueException]
}

operation ListMetrics {
    input := {
        Namespace: Namespace
        @length(min: 1, max: 255)
        MetricName: String
        Dimensions: DimensionFilters
        NextToken: String
    }
    output := {
        Metrics: Metrics
        NextToken: String
    }
}

operation GetDashboard {
    input := {
        @required
        DashboardName: String
    }
    output := {
        DashboardArn: String
        DashboardBody: String
        DashboardName: String
    }
    errors: [DashboardNotFoundError]
}

@length(min: 1, max: 255)
@pattern("^[^:].*$")
string Namespace

list MetricData {
    member: MetricDatum
}

structure MetricDatum {
    @required
    MetricName: String
    Dimensions: Dimensions
    Timestamp: Timestamp
    Value: Double
    Values: Values
    Unit: StandardUnit
}

list Values {
    member: Double
}

enum StandardUnit {
    Seconds
    Bytes
    Percent
    Count
    None
}

list Dimensions {
    member: Dimension
}

structure Dimension {
    @required
    Name: String
    @required
    Value: String
}

list DimensionFilters {
    member: DimensionFilter
}

structure DimensionFilter {
    @required
    Name: String
    Value: String
}

list Metrics {
    member: Metric
}

structure Metric {
    Namespace: Namespace
    MetricName: String
    Dimensions: Dimensions
}

@error("client")
@httpError(404)
structure DashboardNotFoundError {
    message: String
}

@error("client")
@httpError(400)
@awsQueryError(code: "InvalidParameterValue", httpResponseCode: 400)
structure InvalidParameterValueException {
    message: String
}
`;

/** The AWS Price List service over `aws.protocols#awsJson1_1`: target `AWSPriceListService.<Operation>`; errors spell their member `Message`, as most AWS models do. */
export const PRICING_MODEL = `
$version: "2"
namespace com.amazonaws.pricing

use aws.api#service
use aws.auth#sigv4
use aws.protocols#awsJson1_1

@service(sdkId: "Pricing", endpointPrefix: "api.pricing")
@sigv4(name: "pricing")
@awsJson1_1
service AWSPriceListService {
    version: "2017-10-15"
    operations: [DescribeServices, GetAttributeValues]
    errors: [InternalErrorException]
}

@readonly
@paginated(inputToken: "NextToken", outputToken: "NextToken", pageSize: "MaxResults")
operation DescribeServices {
    input := {
        ServiceCode: String
        FormatVersion: String
        NextToken: String
        @range(min: 1, max: 100)
        MaxResults: Integer
    }
    output := {
        Services: ServiceList
        FormatVersion: String
        NextToken: String
    }
    errors: [NotFoundException, InvalidParameterException]
}

@readonly
operation GetAttributeValues {
    input := {
        @required
        ServiceCode: String
        @required
        AttributeName: String
        NextToken: String
        @range(min: 1, max: 100)
        MaxResults: Integer
    }
    output := {
        AttributeValues: AttributeValueList
        NextToken: String
    }
    errors: [NotFoundException, InvalidParameterException]
}

list ServiceList {
    member: Service
}

structure Service {
    @required
    ServiceCode: String
    AttributeNames: AttributeNameList
}

list AttributeNameList {
    member: String
}

list AttributeValueList {
    member: AttributeValue
}

structure AttributeValue {
    Value: String
}

@error("client")
@httpError(404)
structure NotFoundException {
    Message: String
}

@error("client")
@httpError(400)
structure InvalidParameterException {
    Message: String
}

@error("server")
@httpError(500)
structure InternalErrorException {
    Message: String
}
`;

/**
 * SageMaker Runtime over `aws.protocols#restJson1`: a blob `@httpPayload`
 * in and out with its media types and attributes in headers, and an event
 * stream of payload parts whose union also names two errors.
 */
export const SAGEMAKER_RUNTIME_MODEL = `
$version: "2"
namespace com.amazonaws.sagemakerruntime

use aws.api#service
use aws.auth#sigv4
use aws.protocols#restJson1

@service(sdkId: "SageMaker Runtime", endpointPrefix: "runtime.sagemaker")
@sigv4(name: "sagemaker")
@restJson1
service AmazonSageMakerRuntime {
    version: "2017-05-13"
    operations: [InvokeEndpoint, InvokeEndpointWithResponseStream]
}

@http(method: "POST", uri: "/endpoints/{EndpointName}/invocations", code: 200)
operation InvokeEndpoint {
    input := {
        @required
        @httpLabel
        EndpointName: EndpointName
        @required
        @httpPayload
        Body: BodyBlob
        @httpHeader("Content-Type")
        ContentType: Header
        @httpHeader("Accept")
        Accept: Header
        @httpHeader("X-Amzn-SageMaker-Custom-Attributes")
        CustomAttributes: CustomAttributesHeader
        @httpHeader("X-Amzn-SageMaker-Target-Variant")
        TargetVariant: Header
        @httpHeader("X-Amzn-SageMaker-Inference-Id")
        @length(min: 1, max: 64)
        InferenceId: String
    }
    output := {
        @required
        @httpPayload
        Body: BodyBlob
        @httpHeader("Content-Type")
        ContentType: Header
        @httpHeader("x-Amzn-Invoked-Production-Variant")
        InvokedProductionVariant: Header
        @httpHeader("X-Amzn-SageMaker-Custom-Attributes")
        CustomAttributes: CustomAttributesHeader
    }
    errors: [InternalFailure, ServiceUnavailable, ValidationError, ModelError]
}

@http(method: "POST", uri: "/endpoints/{EndpointName}/invocations-response-stream", code: 200)
operation InvokeEndpointWithResponseStream {
    input := {
        @required
        @httpLabel
        EndpointName: EndpointName
        @required
        @httpPayload
        Body: BodyBlob
        @httpHeader("Content-Type")
        ContentType: Header
        @httpHeader("X-Amzn-SageMaker-Accept")
        Accept: Header
        @httpHeader("X-Amzn-SageMaker-Custom-Attributes")
        CustomAttributes: CustomAttributesHeader
    }
    output := {
        @required
        @httpPayload
        Body: ResponseStream
        @httpHeader("X-Amzn-SageMaker-Content-Type")
        ContentType: Header
        @httpHeader("x-Amzn-Invoked-Production-Variant")
        InvokedProductionVariant: Header
        @httpHeader("X-Amzn-SageMaker-Custom-Attributes")
        CustomAttributes: CustomAttributesHeader
    }
    errors: [InternalFailure, ServiceUnavailable, ValidationError, ModelError, ModelStreamError, InternalStreamFailure]
}

@length(max: 63)
@pattern("^[a-zA-Z0-9](-*[a-zA-Z0-9])*")
string EndpointName

@length(max: 1024)
@pattern("\\\\p{ASCII}*")
string Header

@length(max: 1024)
@pattern("\\\\p{ASCII}*")
@sensitive
string CustomAttributesHeader

@length(max: 6291456)
@sensitive
blob BodyBlob

@streaming
union ResponseStream {
    PayloadPart: PayloadPart
    ModelStreamError: ModelStreamError
    InternalStreamFailure: InternalStreamFailure
}

structure PayloadPart {
    @eventPayload
    Bytes: PartBlob
}

@sensitive
blob PartBlob

@error("client")
structure ModelStreamError {
    Message: String
    ErrorCode: String
}

@error("server")
structure InternalStreamFailure {
    Message: String
}

@error("client")
@httpError(400)
structure ValidationError {
    Message: String
}

@error("client")
@httpError(424)
structure ModelError {
    Message: String
    OriginalStatusCode: Integer
    OriginalMessage: String
    LogStreamArn: String
}

@error("server")
@httpError(500)
structure InternalFailure {
    Message: String
}

@error("server")
@httpError(503)
structure ServiceUnavailable {
    Message: String
}
`;

/**
 * The API Gateway Management API (of WebSocket APIs) over
 * `aws.protocols#restJson1`: a required blob `@httpPayload`, a connection id
 * as label under the literal `@connections`, `@jsonName`s and `date-time`
 * timestamps, a 204, and errors without members.
 */
export const APIGATEWAY_MANAGEMENT_MODEL = `
$version: "2"
namespace com.amazonaws.apigatewaymanagementapi

use aws.api#service
use aws.auth#sigv4
use aws.protocols#restJson1

@service(sdkId: "ApiGatewayManagementApi", endpointPrefix: "execute-api")
@sigv4(name: "execute-api")
@restJson1
service ApiGatewayManagementApi {
    version: "2018-11-29"
    operations: [DeleteConnection, GetConnection, PostToConnection]
}

@idempotent
@http(method: "DELETE", uri: "/@connections/{ConnectionId}", code: 204)
operation DeleteConnection {
    input := {
        @required
        @httpLabel
        ConnectionId: String
    }
    output: Unit
    errors: [ForbiddenException, GoneException, LimitExceededException]
}

@readonly
@http(method: "GET", uri: "/@connections/{ConnectionId}", code: 200)
operation GetConnection {
    input := {
        @required
        @httpLabel
        ConnectionId: String
    }
    output := {
        @jsonName("connectedAt")
        ConnectedAt: TimestampIso8601
        @jsonName("identity")
        Identity: Identity
        @jsonName("lastActiveAt")
        LastActiveAt: TimestampIso8601
    }
    errors: [ForbiddenException, GoneException, LimitExceededException]
}

@http(method: "POST", uri: "/@connections/{ConnectionId}", code: 200)
operation PostToConnection {
    input := {
        @required
        @httpPayload
        Data: Data
        @required
        @httpLabel
        ConnectionId: String
    }
    output: Unit
    errors: [ForbiddenException, GoneException, LimitExceededException, PayloadTooLargeException]
}

@length(max: 131072)
blob Data

@timestampFormat("date-time")
timestamp TimestampIso8601

structure Identity {
    @required
    @jsonName("sourceIp")
    SourceIp: String
    @required
    @jsonName("userAgent")
    UserAgent: String
}

@error("client")
@httpError(403)
structure ForbiddenException {}

@error("client")
@httpError(410)
structure GoneException {}

@error("client")
@httpError(429)
structure LimitExceededException {}

@error("client")
@httpError(413)
structure PayloadTooLargeException {
    @jsonName("message")
    Message: String
}
`;

/**
 * Amazon Transcribe Streaming in its shape (restJson1 over HTTP/2): one
 * operation whose input is an event stream of audio (bidirectional: the
 * transcript streams back while audio still streams in). The SDK signs
 * every audio event (SigV4 event signing).
 */
export const TRANSCRIBE_STREAMING_MODEL = `
$version: "2"
namespace com.amazonaws.transcribestreaming

use aws.api#service
use aws.auth#sigv4
use aws.protocols#restJson1

@service(sdkId: "Transcribe Streaming", endpointPrefix: "transcribestreaming")
@sigv4(name: "transcribe")
@restJson1
service Transcribe {
    version: "2017-10-26"
    operations: [StartStreamTranscription]
}

@http(method: "POST", uri: "/stream-transcription", code: 200)
operation StartStreamTranscription {
    input := {
        @required
        @httpHeader("x-amzn-transcribe-sample-rate")
        @range(min: 8000, max: 48000)
        MediaSampleRateHertz: Integer
        @required
        @httpHeader("x-amzn-transcribe-media-encoding")
        MediaEncoding: MediaEncoding
        @required
        @httpPayload
        AudioStream: AudioStream
        @httpHeader("x-amzn-transcribe-language-code")
        LanguageCode: LanguageCode
        @httpHeader("x-amzn-transcribe-session-id")
        @pattern("[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}")
        SessionId: String
        @httpHeader("x-amzn-transcribe-enable-partial-results-stabilization")
        EnablePartialResultsStabilization: Boolean
    }
    output := {
        @httpHeader("x-amzn-request-id")
        RequestId: String
        @httpHeader("x-amzn-transcribe-language-code")
        LanguageCode: LanguageCode
        @httpHeader("x-amzn-transcribe-sample-rate")
        MediaSampleRateHertz: Integer
        @httpHeader("x-amzn-transcribe-media-encoding")
        MediaEncoding: MediaEncoding
        @httpHeader("x-amzn-transcribe-session-id")
        SessionId: String
        @httpPayload
        TranscriptResultStream: TranscriptResultStream
    }
    errors: [BadRequestException, LimitExceededException, InternalFailureException, ConflictException, ServiceUnavailableException]
}

enum MediaEncoding {
    PCM = "pcm"
    OGG_OPUS = "ogg-opus"
    FLAC = "flac"
}

enum LanguageCode {
    EN_US = "en-US"
    EN_GB = "en-GB"
    DE_DE = "de-DE"
}

@streaming
union AudioStream {
    AudioEvent: AudioEvent
    ConfigurationEvent: ConfigurationEvent
}

structure AudioEvent {
    @eventPayload
    AudioChunk: Blob
}

structure ConfigurationEvent {
    ChannelDefinitions: ChannelDefinitions
}

@length(min: 2, max: 2)
list ChannelDefinitions {
    member: ChannelDefinition
}

structure ChannelDefinition {
    @required
    @range(min: 0, max: 1)
    ChannelId: Integer
    @required
    ParticipantRole: String
}

@streaming
union TranscriptResultStream {
    TranscriptEvent: TranscriptEvent
    BadRequestException: BadRequestException
    LimitExceededException: LimitExceededException
    InternalFailureException: InternalFailureException
    ConflictException: ConflictException
    ServiceUnavailableException: ServiceUnavailableException
}

structure TranscriptEvent {
    Transcript: Transcript
}

structure Transcript {
    Results: ResultList
}

list ResultList {
    member: Result
}

structure Result {
    ResultId: String
    StartTime: Double = 0
    EndTime: Double = 0
    IsPartial: Boolean = false
    Alternatives: AlternativeList
    ChannelId: String
}

list AlternativeList {
    member: Alternative
}

structure Alternative {
    Transcript: String
}

@error("client")
@httpError(400)
structure BadRequestException {
    Message: String
}

@error("client")
@httpError(429)
structure LimitExceededException {
    Message: String
}

@error("server")
@httpError(500)
structure InternalFailureException {
    Message: String
}

@error("client")
@httpError(409)
structure ConflictException {
    Message: String
}

@error("server")
@httpError(503)
structure ServiceUnavailableException {
    Message: String
}
`;
