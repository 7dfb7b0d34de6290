// AWS service metadata traits (namespace aws.api), written for Anvil from the
// public Smithy AWS core specification on smithy.io.
$version: "2.0"

namespace aws.api

/// Identifies an AWS service and its SDK, ARN and CloudFormation names.
@trait(selector: "service")
structure service {
    /// Name used to generate SDK client names.
    @required
    sdkId: String

    /// Service namespace used in ARNs.
    arnNamespace: ArnNamespace

    /// Service name used in CloudFormation resource types.
    cloudFormationName: CloudFormationName

    /// CloudTrail event source.
    cloudTrailEventSource: String

    /// Identifier used to find the service's documentation.
    docId: String

    /// Endpoint prefix used to build endpoints.
    endpointPrefix: String

    /// CloudWatch metrics namespace.
    cloudWatchNamespace: CloudWatchMetricNamespace
}

@private
@pattern("^[a-z0-9.\\-]{1,63}$")
string ArnNamespace

@private
@pattern("^[A-Z][A-Za-z0-9]+$")
string CloudFormationName

@private
@pattern("^[^:].*$")
@length(min: 1, max: 255)
string CloudWatchMetricNamespace

/// ARN template of a resource.
@trait(selector: "resource")
@externalDocumentation(Reference: "https://docs.aws.amazon.com/general/latest/gr/aws-arns-and-namespaces.html")
structure arn {
    /// Resource part of the ARN, with identifier labels.
    @required
    template: String

    /// The template is a full ARN.
    absolute: Boolean

    /// The ARN has no region.
    noRegion: Boolean

    /// The ARN has no account id.
    noAccount: Boolean

    /// Delimiter between resource type and id.
    resourceDelimiter: ResourceDelimiter

    /// The ARN may be reused by a new resource after deletion.
    reusable: Boolean
}

@private
enum ResourceDelimiter {
    FORWARD_SLASH = "/"
    COLON = ":"
}

/// The string holds an ARN, optionally of a known resource type.
@trait(selector: "string")
structure arnReference {
    /// AWS CloudFormation resource type of the referenced resource.
    type: String

    /// Shape id of the referenced Smithy resource.
    resource: String

    /// Shape id of the service the resource belongs to.
    service: String
}

/// The streamed blob uses aws-chunked content encoding.
@trait(
    selector: "blob[trait|streaming]"
    breakingChanges: [{ change: "remove" }]
)
structure awsChunked {}

/// The operation's endpoint is discovered at runtime.
@trait(selector: "operation")
structure clientDiscoveredEndpoint {
    /// Whether discovery is mandatory.
    @required
    required: Boolean
}

/// Endpoint discovery configuration of a service.
@trait(selector: "service")
structure clientEndpointDiscovery {
    /// Operation that returns endpoints.
    @required
    @idRef(failWhenMissing: true, selector: "operation")
    operation: String

    /// Error returned when a discovered endpoint is stale.
    @recommended
    @idRef(failWhenMissing: true, selector: "structure[trait|error]")
    error: String
}

/// Input member used as an endpoint discovery identifier.
@trait(selector: "operation[trait|aws.api#clientDiscoveredEndpoint] -[input]-> structure > :test(member[trait|required] > string)")
structure clientEndpointDiscoveryId {}

/// Control plane API.
@trait(
    selector: ":test(service, resource, operation)"
    conflicts: ["aws.api#dataPlane"]
)
structure controlPlane {}

/// Data plane API.
@trait(
    selector: ":test(service, resource, operation)"
    conflicts: ["aws.api#controlPlane"]
)
structure dataPlane {}

/// Classification of the data held by a shape.
@trait(selector: ":test(simpleType, list, structure, union, member)")
enum data {
    CUSTOMER_CONTENT = "content"
    CUSTOMER_ACCOUNT_INFORMATION = "account"
    SERVICE_ATTRIBUTES = "usage"
    TAG_DATA = "tagging"
    PERMISSIONS_DATA = "permissions"
}

/// The service supports tagging.
@trait(selector: "service")
@unstable
structure tagEnabled {
    /// Do not expect the default tagging operations.
    disableDefaultOperations: Boolean

    /// Service-level tagging operations.
    apiConfig: TaggableServiceApiConfig
}

structure TaggableServiceApiConfig {
    /// Operation that adds tags.
    tagApi: ServiceTagOperationReference

    /// Operation that removes tags.
    untagApi: ServiceTagOperationReference

    /// Operation that lists tags.
    listTagsApi: ServiceTagOperationReference
}

@idRef(failWhenMissing: true, selector: "service > operation")
string ServiceTagOperationReference

/// The resource can be tagged.
@trait(selector: "resource")
@unstable
structure taggable {
    /// Resource property holding the tags.
    property: String

    /// Resource-level tagging operations.
    apiConfig: TaggableApiConfig

    /// System tags are not supported.
    disableSystemTags: Boolean
}

structure TaggableApiConfig {
    /// Operation that adds tags.
    @required
    tagApi: TagOperationReference

    /// Operation that removes tags.
    @required
    untagApi: TagOperationReference

    /// Operation that lists tags.
    @required
    listTagsApi: TagOperationReference
}

@idRef(failWhenMissing: true, selector: "resource > operation")
string TagOperationReference
