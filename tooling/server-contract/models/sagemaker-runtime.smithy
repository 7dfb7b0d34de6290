$version: "2"
// SageMaker Runtime over `aws.protocols#restJson1`: a blob `@httpPayload`
// in and out with its media types and attributes in headers, and an event
// stream of payload parts whose union also names two errors.
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
@pattern("\\p{ASCII}*")
string Header

@length(max: 1024)
@pattern("\\p{ASCII}*")
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
