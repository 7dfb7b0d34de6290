// AWS protocol traits (namespace aws.protocols), written for Anvil from the
// public Smithy AWS protocol specifications on smithy.io.
$version: "2.0"

namespace aws.protocols

/// HTTP versions a protocol may use, shared by the HTTP-based protocol traits.
@private
@mixin(localTraits: ["smithy.api#private"])
structure HttpConfiguration {
    /// HTTP versions for ordinary requests, in preference order (for example "h2", "http/1.1").
    http: StringList

    /// HTTP versions for event stream requests, in preference order.
    eventStreamHttp: StringList
}

/// AWS restJson1: HTTP bindings with JSON documents.
@trait(selector: "service")
@protocolDefinition(
    traits: [
        "smithy.api#timestampFormat"
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "smithy.api#http"
        "smithy.api#httpError"
        "smithy.api#httpHeader"
        "smithy.api#httpLabel"
        "smithy.api#httpPayload"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpResponseCode"
        "aws.protocols#httpChecksum"
        "smithy.api#httpChecksumRequired"
        "smithy.api#jsonName"
    ]
)
structure restJson1 with [HttpConfiguration] {}

/// AWS JSON 1.0: RPC over HTTP POST with JSON bodies.
@trait(selector: "service")
@protocolDefinition(
    traits: ["smithy.api#timestampFormat", "smithy.api#cors", "smithy.api#endpoint", "smithy.api#hostLabel"]
)
structure awsJson1_0 with [HttpConfiguration] {}

/// AWS JSON 1.1: like 1.0, with the 1.1 content type.
@trait(selector: "service")
@protocolDefinition(
    traits: ["smithy.api#timestampFormat", "smithy.api#cors", "smithy.api#endpoint", "smithy.api#hostLabel"]
)
structure awsJson1_1 with [HttpConfiguration] {}

/// AWS restXml: HTTP bindings with XML documents.
@trait(selector: "service")
@deprecated
@protocolDefinition(
    traits: [
        "smithy.api#timestampFormat"
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "smithy.api#http"
        "smithy.api#httpError"
        "smithy.api#httpHeader"
        "smithy.api#httpLabel"
        "smithy.api#httpPayload"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpResponseCode"
        "aws.protocols#httpChecksum"
        "smithy.api#httpChecksumRequired"
        "smithy.api#xmlAttribute"
        "smithy.api#xmlFlattened"
        "smithy.api#xmlName"
        "smithy.api#xmlNamespace"
    ]
)
@traitValidators(
    UnsupportedProtocolDocument: {
        selector: "~> member :test(> document)"
        message: "restXml cannot serialize document types"
    }
)
structure restXml with [HttpConfiguration] {
    /// Error responses are not wrapped in an ErrorResponse element.
    @deprecated
    noErrorWrapping: Boolean
}

/// AWS query protocol: form-encoded requests, XML responses.
@trait(selector: "service [trait|xmlNamespace]")
@deprecated
@protocolDefinition(
    traits: [
        "smithy.api#timestampFormat"
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "aws.protocols#awsQueryError"
        "smithy.api#xmlAttribute"
        "smithy.api#xmlFlattened"
        "smithy.api#xmlName"
        "smithy.api#xmlNamespace"
    ]
)
@traitValidators(
    UnsupportedProtocolDocument: {
        selector: "~> member :test(> document)"
        message: "awsQuery cannot serialize document types"
    }
)
structure awsQuery {}

/// EC2 query protocol: a variant of awsQuery used by Amazon EC2.
@trait(selector: "service [trait|xmlNamespace]")
@deprecated
@protocolDefinition(
    traits: [
        "smithy.api#timestampFormat"
        "smithy.api#cors"
        "smithy.api#endpoint"
        "smithy.api#hostLabel"
        "aws.protocols#ec2QueryName"
        "smithy.api#xmlAttribute"
        "smithy.api#xmlFlattened"
        "smithy.api#xmlName"
        "smithy.api#xmlNamespace"
    ]
)
@traitValidators(
    UnsupportedProtocolDocument: {
        selector: "~> member :test(> document)"
        message: "ec2Query cannot serialize document types"
    }
)
structure ec2Query {}

/// Error code and HTTP status of an awsQuery error.
@trait(
    selector: "structure [trait|error]"
    breakingChanges: [{ change: "any" }]
)
structure awsQueryError {
    /// Error code sent on the wire.
    @required
    code: String

    /// HTTP status code of the error.
    @required
    httpResponseCode: Integer
}

/// The service was migrated from awsQuery and keeps awsQuery-compatible error codes.
@trait(selector: "service :test([trait|aws.protocols#awsJson1_0], [trait|smithy.protocols#rpcv2Cbor], [trait|smithy.protocols#rpcv2Json])")
structure awsQueryCompatible {}

/// Query key used for the member by ec2Query.
@trait(selector: "structure > member")
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*$")
string ec2QueryName

/// Request and response checksum behavior of an operation.
@trait(
    selector: "operation"
    breakingChanges: [
        {
            change: "remove"
            severity: "DANGER"
            message: "Clients lose request and response checksums; the service must keep honouring them for older clients."
        }
        {
            change: "remove"
            path: "/requestAlgorithmMember"
            severity: "DANGER"
            message: "New clients can no longer choose a request checksum algorithm; the service must keep supporting the member for older clients."
        }
        {
            change: "remove"
            path: "/requestValidationModeMember"
            severity: "DANGER"
            message: "New clients stop validating response checksums; the service must keep supporting the member for older clients."
        }
        {
            change: "remove"
            path: "/responseAlgorithms/member"
            severity: "DANGER"
            message: "New clients stop validating the removed algorithms; the service must keep supporting them for older clients."
        }
    ]
)
@unstable
structure httpChecksum {
    /// Input member selecting the request checksum algorithm.
    requestAlgorithmMember: String

    /// Whether a request checksum is required.
    requestChecksumRequired: Boolean

    /// Input member that opts in to response validation.
    requestValidationModeMember: String

    /// Algorithms the service may use for response checksums.
    responseAlgorithms: ChecksumAlgorithmSet
}

@private
@length(min: 1)
@uniqueItems
list ChecksumAlgorithmSet {
    member: ChecksumAlgorithm
}

@private
enum ChecksumAlgorithm {
    CRC32
    CRC32C
    CRC64NVME
    MD5
    SHA1
    SHA256
    SHA512
    XXHASH64
    XXHASH3
    XXHASH128
}

@private
list StringList {
    member: String
}
