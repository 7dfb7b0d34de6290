// Anvil's copy of the Smithy 2.0 prelude (namespace smithy.api).
//
// Written for Anvil from the public Smithy specification (smithy.io); the
// shape ids, types, members and trait selectors follow the specification so
// that models validate the same way they do with the reference implementation.
// Shapes not marked @private may be referenced by relative id from any namespace.
$version: "2.0"

namespace smithy.api

// ===========================================================================
// Built-in simple shapes
// ===========================================================================

string String

blob Blob

bigInteger BigInteger

bigDecimal BigDecimal

timestamp Timestamp

document Document

boolean Boolean

byte Byte

short Short

integer Integer

long Long

float Float

double Double

/// Boolean that is false when absent.
@default(false)
boolean PrimitiveBoolean

/// Byte that is 0 when absent.
@default(0)
byte PrimitiveByte

/// Short that is 0 when absent.
@default(0)
short PrimitiveShort

/// Integer that is 0 when absent.
@default(0)
integer PrimitiveInteger

/// Long that is 0 when absent.
@default(0)
long PrimitiveLong

/// Float that is 0 when absent.
@default(0)
float PrimitiveFloat

/// Double that is 0 when absent.
@default(0)
double PrimitiveDouble

/// The "no value" type, used for empty operation input/output and valueless union members.
@unitType
structure Unit {}

// ===========================================================================
// Trait definition and meta-traits
// ===========================================================================

/// Turns the shape it is applied to into a trait definition.
@trait(
    selector: ":is(simpleType, list, map, structure, union)"
    breakingChanges: [
        { change: "presence" }
        { path: "/structurallyExclusive", change: "any" }
        {
            path: "/conflicts"
            change: "update"
            severity: "NOTE"
            message: "New conflicts can make models that were valid before fail validation."
        }
    ]
)
structure trait {
    /// Selector that matches the shapes the trait may be applied to (default `*`).
    selector: String

    /// Whether only one member of a shape (`member`) or only one shape targeting a shape (`target`) may carry it.
    structurallyExclusive: StructurallyExclusive

    /// Trait ids that may not be applied to the same shape.
    conflicts: NonEmptyStringList

    /// How changes to the trait are classified when diffing models.
    breakingChanges: TraitDiffRules
}

/// Values of `trait.structurallyExclusive`.
@private
enum StructurallyExclusive {
    MEMBER = "member"
    TARGET = "target"
}

/// Ordered diff rules of a trait.
@private
@length(min: 1)
list TraitDiffRules {
    member: TraitDiffRule
}

/// One diff rule: which change, at which JSON pointer path, at which severity.
@private
structure TraitDiffRule {
    /// JSON pointer into the trait value; the whole value when omitted.
    path: String

    /// The kind of change this rule is about.
    @required
    change: TraitChangeType

    /// Severity of the emitted diff event.
    severity: Severity = "ERROR"

    /// Extra explanation attached to the diff event.
    message: String
}

/// Kinds of trait value changes.
@private
enum TraitChangeType {
    UPDATE = "update"
    ADD = "add"
    REMOVE = "remove"
    PRESENCE = "presence"
    ANY = "any"
}

/// Validation event severities usable in trait definitions.
@private
enum Severity {
    NOTE
    WARNING
    DANGER
    ERROR
}

/// Validation rules, keyed by event id, run against every shape the trait is applied to.
@trait(selector: "[trait|trait]")
map traitValidators {
    @length(min: 1)
    key: String

    value: TraitValidator
}

/// One trait validator: shapes matched by the selector (starting at the shape) produce an event.
@private
structure TraitValidator {
    /// Selector evaluated from the shape the trait is applied to.
    @required
    selector: String

    /// Event message.
    message: String

    /// Event severity.
    severity: Severity = "ERROR"
}

/// Marks a trait as a protocol definition.
@trait(
    selector: "structure[trait|trait]"
    breakingChanges: [{ change: "presence" }]
)
structure protocolDefinition {
    /// Traits the protocol understands.
    traits: TraitShapeIdList

    /// Legacy flag for protocols without inline document support.
    @deprecated(message: "Prefer @traitValidators for this restriction.")
    noInlineDocumentSupport: Boolean
}

/// Marks a trait as an authentication scheme definition.
@trait(
    selector: "structure[trait|trait]"
    breakingChanges: [{ change: "presence" }]
)
structure authDefinition {
    /// Traits the auth scheme understands.
    traits: TraitShapeIdList
}

@private
list TraitShapeIdList {
    member: TraitShapeId
}

@private
@idRef(failWhenMissing: true, selector: "[trait|trait]")
string TraitShapeId

/// Makes a shape a mixin.
@trait(selector: ":not(member)")
structure mixin {
    /// Traits of the mixin that are not copied onto shapes using it.
    localTraits: LocalMixinTraitList
}

@private
list LocalMixinTraitList {
    member: LocalMixinTrait
}

@private
@idRef(
    failWhenMissing: true
    selector: "[trait|trait]"
    errorMessage: "Each entry of a mixin's localTraits must be the shape id of a trait."
)
string LocalMixinTrait

/// The string value must be a shape id, optionally of a shape matching the selector.
@trait(selector: ":test(string, member > string)")
structure idRef {
    /// Selector the referenced shape must match.
    selector: String = "*"

    /// Whether the referenced shape must exist in the model.
    failWhenMissing: Boolean

    /// Custom message used when the reference is invalid.
    errorMessage: String
}

// ===========================================================================
// Documentation and metadata traits
// ===========================================================================

/// CommonMark documentation.
@trait
string documentation

/// Named links to external documentation.
@trait
@length(min: 1)
map externalDocumentation {
    key: NonEmptyString
    value: NonEmptyString
}

/// Marks a shape as deprecated.
@trait
structure deprecated {
    /// What to use instead, or why.
    message: String

    /// When the shape was deprecated (free-form version or date).
    since: String
}

/// The version or date the shape was added.
@trait
string since

/// Free-form tags.
@trait
list tags {
    member: String
}

/// Human-readable title of a service or shape.
@trait
string title

/// The shape is unstable and may change.
@trait
structure unstable {}

/// The shape is meant for internal use only.
@trait(
    breakingChanges: [
        {
            change: "remove"
            severity: "WARNING"
            message: "Without @internal the shape is visible to external consumers."
        }
    ]
)
structure internal {}

/// Suppresses validation events by id on the shape.
@trait
list suppress {
    @length(min: 1)
    member: String
}

/// Example inputs and outputs of an operation.
@trait(selector: "operation")
list examples {
    member: Example
}

@private
structure Example {
    /// Short title of the example.
    @required
    title: String

    /// Longer explanation.
    documentation: String

    /// Input value.
    input: Document

    /// Output value.
    output: Document

    /// Error returned instead of output.
    error: ExampleError

    /// Whether the example may violate constraint traits (for error examples).
    allowConstraintErrors: Boolean
}

@private
structure ExampleError {
    /// Id of the error structure.
    @idRef(selector: "structure[trait|error]")
    shapeId: String

    /// Error content.
    content: Document
}

/// A member that should be set even though it is not required.
@trait(
    selector: "structure > member"
    conflicts: ["smithy.api#required"]
)
structure recommended {
    /// Why the member should be set.
    reason: String
}

/// Marks a shape whose values are written into model metadata under `key`.
@trait(selector: "dataType :not([trait|input]) :not([trait|output])")
structure metadata {
    /// Metadata key.
    @required
    @length(min: 1)
    key: String
}

/// Shape closures declared in model metadata.
@private
@metadata(key: "shapeClosures")
list ShapeClosures {
    member: ShapeClosure
}

/// A closure of shapes rooted at a shape id.
@private
structure ShapeClosure {
    /// Root shape of the closure.
    @required
    id: ClosureId

    /// Namespaces pulled into the closure.
    includeNamespaces: Namespaces = []

    /// Selector for extra shapes to include.
    @length(min: 1)
    includeBySelector: String

    /// Shape renames applied within the closure.
    rename: Renames = {}

    /// Documentation of the closure.
    documentation: CommonMark
}

@private
@idRef(failWhenMissing: false)
string ClosureId

@private
@uniqueItems
list Namespaces {
    member: String
}

@private
map Renames {
    @idRef(
        failWhenMissing: true
        selector: ":not(:is(member, service, resource, operation))"
        errorMessage: "A rename must name an existing shape that is not a service, resource, operation or member."
    )
    key: String

    value: Identifier
}

@private
@mediaType("text/markdown; charset=UTF-8; variant=CommonMark")
@externalDocumentation("CommonMark Specification": "https://commonmark.org/")
string CommonMark

@private
@pattern("^(_+[a-zA-Z0-9]|[a-zA-Z])\\w*$")
string Identifier

// ===========================================================================
// Type refinement traits
// ===========================================================================

/// Default value of a shape or structure member.
@trait(selector: ":is(simpleType, list, map, structure > member :test(> :is(simpleType, list, map)))")
document default

/// The default was added after the member was first released.
@trait(
    selector: "structure > member [trait|default]"
    breakingChanges: [{ change: "remove" }]
)
structure addedDefault {}

/// Generated clients treat the member as optional regardless of @required or @default.
@trait(selector: "structure > member")
structure clientOptional {}

/// The member must be set.
@trait(selector: "structure > member")
structure required {}

/// Smithy 1.0 boxing: the value may be null.
@trait(selector: ":test(boolean, byte, short, integer, long, float, double, member > :test(boolean, byte, short, integer, long, float, double))")
structure box {}

/// Lists and maps that may contain null values.
@trait(
    selector: ":is(list, map)"
    breakingChanges: [{ change: "presence" }]
)
structure sparse {}

/// The structure is only used as an operation input.
@trait(
    selector: "structure"
    conflicts: ["smithy.api#output", "smithy.api#error"]
    breakingChanges: [{ change: "presence" }]
)
structure input {}

/// The structure is only used as an operation output.
@trait(
    selector: "structure"
    conflicts: ["smithy.api#input", "smithy.api#error"]
    breakingChanges: [{ change: "presence" }]
)
structure output {}

/// The structure is an error, caused by the client or by the server.
@trait(
    selector: "structure"
    conflicts: ["smithy.api#trait"]
    breakingChanges: [{ change: "any" }]
)
enum error {
    CLIENT = "client"
    SERVER = "server"
}

/// Value of an enum or intEnum member.
@trait(selector: ":is(enum, intEnum) > member")
@tags(["diff.error.const"])
document enumValue

/// Only smithy.api#Unit may carry this trait.
@trait(selector: "[id=smithy.api#Unit]")
structure unitType {}

/// Smithy 1.0 enumerated string values (superseded by enum shapes).
@trait(
    selector: "string :not(enum)"
    breakingChanges: [{ change: "presence" }]
)
@length(min: 1)
@deprecated(message: "Use an enum shape instead of the enum trait.", since: "2.0")
list enum {
    member: EnumDefinition
}

@private
structure EnumDefinition {
    /// The string value.
    @required
    value: NonEmptyString

    /// Constant name for code generation.
    name: EnumConstantBodyName

    /// Documentation of the value.
    documentation: String

    /// Tags of the value.
    tags: NonEmptyStringList

    /// Whether the value is deprecated.
    deprecated: Boolean
}

@private
@pattern("^[a-zA-Z_]+[a-zA-Z_0-9]*$")
string EnumConstantBodyName

// ===========================================================================
// Constraint traits
// ===========================================================================

/// Length bounds of a string, blob, list or map.
@trait(selector: ":test(list, map, string, blob, member > :is(list, map, string, blob))")
structure length {
    /// Inclusive minimum.
    min: Long

    /// Inclusive maximum.
    max: Long
}

/// Numeric bounds.
@trait(selector: ":test(number, member > number)")
structure range {
    /// Inclusive minimum.
    min: BigDecimal

    /// Inclusive maximum.
    max: BigDecimal
}

/// ECMA 262 regular expression the string must match.
@trait(
    selector: ":test(string, member > string)"
    breakingChanges: [
        {
            change: "add"
            severity: "WARNING"
            message: "Add @pattern only when existing values already satisfy it."
        }
        {
            change: "update"
            severity: "NOTE"
            message: "A changed @pattern should accept more values, not fewer."
        }
    ]
)
string pattern

/// The list contains no duplicate items.
@trait(
    selector: "list :not(> member ~> :is(float, double, document))"
    conflicts: ["smithy.api#sparse"]
    breakingChanges: [{ change: "presence", severity: "WARNING" }]
)
structure uniqueItems {}

/// The shape may only be referenced from its own namespace.
@trait
structure private {}

/// The data is sensitive and must be handled with care (for example, not logged).
@trait(selector: ":not(:test(service, operation, resource, member))")
structure sensitive {}

// ===========================================================================
// Behavior traits
// ===========================================================================

/// A client-generated token that makes a request idempotent.
@trait(
    selector: "structure > :test(member > string)"
    structurallyExclusive: "member"
    breakingChanges: [{ change: "remove" }]
)
@notProperty
structure idempotencyToken {}

/// Repeating the operation with the same input has no further side effects.
@trait(
    selector: "operation"
    conflicts: ["smithy.api#readonly"]
    breakingChanges: [{ change: "remove" }]
)
structure idempotent {
    /// Errors returned when the target already exists.
    exists: IdempotentErrors

    /// Errors returned when the target does not exist.
    notFound: IdempotentErrors
}

@private
list IdempotentErrors {
    @idRef(selector: "[trait|error]")
    member: String
}

/// The operation has no side effects.
@trait(
    selector: "operation"
    conflicts: ["smithy.api#idempotent"]
    breakingChanges: [{ change: "remove" }]
)
structure readonly {}

/// The error may be retried.
@trait(
    selector: "structure[trait|error]"
    breakingChanges: [{ change: "remove" }]
)
structure retryable {
    /// Whether the error is a throttling error.
    throttling: Boolean
}

/// Pagination configuration of an operation, or defaults on a service.
@trait(
    selector: ":is(service, operation)"
    breakingChanges: [
        { change: "remove" }
        { path: "/inputToken", change: "update" }
        { path: "/outputToken", change: "update" }
        { path: "/items", change: "remove" }
        { path: "/items", change: "add", severity: "NOTE" }
        { path: "/items", change: "update", severity: "NOTE" }
        { path: "/pageSize", change: "update" }
        { path: "/pageSize", change: "remove" }
    ]
)
structure paginated {
    /// Input member holding the continuation token.
    inputToken: NonEmptyString

    /// Output path of the next continuation token.
    outputToken: NonEmptyString

    /// Output path of the paginated items.
    items: NonEmptyString

    /// Input member holding the page size.
    pageSize: NonEmptyString
}

/// Compression encodings the operation accepts for request bodies.
@trait(
    selector: "operation"
    breakingChanges: [
        {
            change: "remove"
            severity: "DANGER"
            message: "New clients stop compressing requests; the service must keep accepting every previously listed encoding."
        }
        {
            change: "remove"
            path: "/encodings"
            message: "The requestCompression trait requires `encodings`."
        }
        {
            change: "add"
            severity: "NOTE"
            path: "/encodings/member"
            message: "Once an encoding is listed the service must keep supporting it."
        }
        {
            change: "remove"
            severity: "DANGER"
            path: "/encodings/member"
            message: "New clients stop using the removed encodings; the service must keep accepting them for older clients."
        }
        {
            change: "update"
            severity: "DANGER"
            path: "/encodings/member"
            message: "New clients stop using the replaced encodings; the service must keep accepting them for older clients."
        }
    ]
)
structure requestCompression {
    /// Supported encodings, in order of preference.
    @required
    encodings: RequestCompressionEncodingsList
}

@private
list RequestCompressionEncodingsList {
    member: String
}

/// The operation is a long poll that may take up to timeoutMillis.
@trait(selector: "operation")
@unstable
structure longPoll {
    /// Longest time the operation may take, in milliseconds.
    @required
    @range(min: 1)
    timeoutMillis: Integer
}

/// The operation requires a checksum of the request payload.
@trait(selector: "operation")
@unstable
structure httpChecksumRequired {}

// ===========================================================================
// Resource traits
// ===========================================================================

/// Put operations of the resource may not replace an existing resource.
@trait(selector: "resource:test(-[put]->)")
structure noReplace {}

/// Resources a structure or string refers to.
@trait(selector: ":is(structure, string)")
list references {
    member: Reference
}

@private
structure Reference {
    /// Id of the referenced resource.
    @required
    resource: NonEmptyString

    /// Maps identifier names of the resource to member names.
    ids: NonEmptyStringMap

    /// Id of the service the resource is bound to.
    service: NonEmptyString

    /// Relation type of the reference.
    rel: NonEmptyString
}

/// Binds the member to the named resource identifier.
@trait(
    selector: "structure > :test(member[trait|required] > string)"
    breakingChanges: [{ change: "remove" }]
)
@length(min: 1)
@notProperty
string resourceIdentifier

/// Binds the member to a resource property, optionally under another name.
@trait(
    selector: "structure > member"
    conflicts: ["smithy.api#resourceIdentifier"]
    breakingChanges: [{ change: "remove" }, { change: "update" }]
)
structure property {
    /// Property name, when it differs from the member name.
    name: String
}

/// The member is not a resource property.
@trait(
    selector: ":is(operation -[input, output]-> structure > member, [trait|trait])"
    breakingChanges: [{ change: "add" }]
)
@notProperty
structure notProperty {}

/// Resource properties are found in the structure targeted by this member.
@trait(
    selector: "operation -[input, output]-> structure > member :test(> structure)"
    structurallyExclusive: "member"
    breakingChanges: [{ change: "any" }]
)
@notProperty
structure nestedProperties {}

// ===========================================================================
// Serialization and protocol traits
// ===========================================================================

/// JSON key used for the member.
@trait(
    selector: ":is(structure, union) > member"
    breakingChanges: [{ change: "any" }]
)
string jsonName

/// Media type of a blob or string.
@trait(
    selector: ":is(blob, string)"
    breakingChanges: [{ change: "remove" }]
)
string mediaType

/// Wire format of a timestamp.
@trait(
    selector: ":test(timestamp, member > timestamp)"
    breakingChanges: [{ change: "any" }]
)
enum timestampFormat {
    /// RFC 3339 date-time.
    DATE_TIME = "date-time"

    /// Seconds since the Unix epoch.
    EPOCH_SECONDS = "epoch-seconds"

    /// RFC 7231 IMF-fixdate.
    HTTP_DATE = "http-date"
}

/// Serialize the member as an XML attribute.
@trait(
    selector: "structure > :test(member > :test(boolean, number, string, timestamp))"
    conflicts: ["smithy.api#xmlNamespace"]
    breakingChanges: [{ change: "any" }]
)
structure xmlAttribute {}

/// Serialize a list or map member without a wrapping element.
@trait(
    selector: ":is(structure, union) > :test(member > :test(list, map))"
    breakingChanges: [{ change: "any" }]
)
structure xmlFlattened {}

/// XML element or attribute name.
@trait(
    selector: ":is(structure, union, member)"
    breakingChanges: [{ change: "any" }]
)
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*(:[a-zA-Z_][a-zA-Z_0-9-]*)?$")
string xmlName

/// XML namespace of the shape.
@trait(
    selector: ":is(service, member, simpleType, list, map, structure, union)"
    conflicts: ["smithy.api#xmlAttribute"]
    breakingChanges: [{ change: "any" }]
)
structure xmlNamespace {
    /// Namespace URI.
    @required
    uri: NonEmptyString

    /// Namespace prefix.
    @pattern("^[a-zA-Z_][a-zA-Z_0-9-]*$")
    prefix: NonEmptyString
}

// ===========================================================================
// HTTP binding traits
// ===========================================================================

/// HTTP method, URI pattern and success code of an operation.
@trait(
    selector: "operation"
    breakingChanges: [
        { change: "remove" }
        { path: "/method", change: "update" }
        { path: "/uri", change: "update" }
        { path: "/code", change: "update" }
        {
            path: "/code"
            change: "presence"
            severity: "DANGER"
            message: "Adding or removing the code is only compatible when it is the default, 200."
        }
    ]
)
structure http {
    /// HTTP method.
    @required
    method: NonEmptyString

    /// URI pattern with labels.
    @required
    uri: NonEmptyString

    /// Success status code.
    @range(min: 100, max: 999)
    code: Integer = 200
}

/// Binds the member to a URI label.
@trait(
    selector: "structure > member[trait|required] :test(> :test(string, number, boolean, timestamp))"
    conflicts: [
        "smithy.api#httpHeader"
        "smithy.api#httpQuery"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{ change: "presence" }]
)
structure httpLabel {}

/// Binds the member to the named query string parameter.
@trait(
    selector: "structure > member :test(> :test(string, number, boolean, timestamp), > list > member > :test(string, number, boolean, timestamp))"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpHeader"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{ change: "any" }]
)
@length(min: 1)
string httpQuery

/// Binds a map member to all query string parameters not bound otherwise.
@trait(
    selector: "structure > member :test(> map > member[id|member=value] > :test(string, list > member > string))"
    structurallyExclusive: "member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpHeader"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpPrefixHeaders"
    ]
    breakingChanges: [{ change: "any" }]
)
structure httpQueryParams {}

/// Binds the member to the named HTTP header.
@trait(
    selector: "structure > :test(member > :test(boolean, number, string, timestamp, list > member > :test(boolean, number, string, timestamp)))"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{ change: "any" }]
)
@length(min: 1)
string httpHeader

/// Binds a map member to every header starting with the prefix.
@trait(
    selector: "structure > member :test(> map :not([trait|sparse]) > member[id|member=value] > string)"
    structurallyExclusive: "member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpHeader"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{ change: "any" }]
)
string httpPrefixHeaders

/// Binds the member to the HTTP message body.
@trait(
    selector: "structure > member"
    structurallyExclusive: "member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpHeader"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpResponseCode"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{ change: "presence" }]
)
structure httpPayload {}

/// Binds an output member to the HTTP status code.
@trait(
    selector: "structure :not([trait|input]) > member :test(> integer)"
    structurallyExclusive: "member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpHeader"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpQueryParams"
    ]
    breakingChanges: [{ change: "any" }]
)
structure httpResponseCode {}

/// HTTP status code of an error.
@trait(
    selector: "structure[trait|error]"
    breakingChanges: [{ change: "any" }]
)
integer httpError

/// CORS configuration of a service.
@trait(
    selector: "service"
    breakingChanges: [{ change: "remove" }]
)
structure cors {
    /// Allowed origin.
    origin: NonEmptyString = "*"

    /// Allowed origins.
    origins: NonEmptyStringMap

    /// Seconds a preflight response may be cached.
    maxAge: Integer = 600

    /// Extra headers clients may send.
    additionalAllowedHeaders: NonEmptyStringList

    /// Extra headers exposed to clients.
    additionalExposedHeaders: NonEmptyStringList
}

// ===========================================================================
// Endpoint traits
// ===========================================================================

/// Host prefix template prepended to the endpoint host.
@trait(
    selector: "operation"
    breakingChanges: [{ change: "any" }]
)
structure endpoint {
    /// Host prefix, possibly with labels.
    @required
    hostPrefix: NonEmptyString
}

/// Binds the member to a label of the endpoint host prefix.
@trait(
    selector: "structure > :test(member[trait|required] > string)"
    breakingChanges: [{ change: "any" }]
)
structure hostLabel {}

// ===========================================================================
// Authentication traits
// ===========================================================================

/// Auth schemes of a service or operation, in priority order.
@trait(selector: ":is(service, operation)")
@uniqueItems
list auth {
    member: AuthTraitReference
}

@private
@idRef(selector: "[trait|authDefinition]")
string AuthTraitReference

/// HTTP Basic authentication.
@trait(
    selector: "service"
    breakingChanges: [{ change: "remove" }]
)
@authDefinition
@externalDocumentation("RFC 2617": "https://tools.ietf.org/html/rfc2617.html")
structure httpBasicAuth {}

/// HTTP Digest authentication.
@trait(
    selector: "service"
    breakingChanges: [{ change: "remove" }]
)
@authDefinition
@externalDocumentation("RFC 2617": "https://tools.ietf.org/html/rfc2617.html")
structure httpDigestAuth {}

/// HTTP Bearer authentication.
@trait(
    selector: "service"
    breakingChanges: [{ change: "remove" }]
)
@authDefinition
@externalDocumentation("RFC 6750": "https://tools.ietf.org/html/rfc6750.html")
structure httpBearerAuth {}

/// API key authentication, in a header or in the query string.
@trait(
    selector: "service"
    breakingChanges: [{ change: "remove" }]
)
@authDefinition
structure httpApiKeyAuth {
    /// Header or query parameter name.
    @required
    name: NonEmptyString

    /// Where the key is sent.
    @required
    in: HttpApiKeyLocations

    /// Authorization scheme, when sent in the Authorization header.
    scheme: NonEmptyString
}

@private
enum HttpApiKeyLocations {
    HEADER = "header"
    QUERY = "query"
}

/// The operation may be called without authentication.
@trait(
    selector: "operation"
    breakingChanges: [{ change: "remove" }]
)
structure optionalAuth {}

// ===========================================================================
// Streaming traits
// ===========================================================================

/// A blob streamed as a byte stream, or a union used as an event stream.
@trait(
    selector: ":is(blob, union)"
    structurallyExclusive: "target"
    breakingChanges: [{ change: "any" }]
)
structure streaming {}

/// The streamed blob must have a known length.
@trait(
    selector: "blob[trait|streaming]"
    breakingChanges: [{ change: "presence" }]
)
structure requiresLength {}

/// Binds the member to an event header.
@trait(
    selector: "structure > :test(member > :test(boolean, byte, short, integer, long, blob, string, timestamp))"
    conflicts: ["smithy.api#eventPayload"]
    breakingChanges: [{ change: "any" }]
)
structure eventHeader {}

/// Binds the member to the event payload.
@trait(
    selector: "structure > :test(member > :test(blob, string, structure, union))"
    conflicts: ["smithy.api#eventHeader"]
    structurallyExclusive: "member"
    breakingChanges: [{ change: "any" }]
)
structure eventPayload {}

// ===========================================================================
// Shared private shapes
// ===========================================================================

@private
@length(min: 1)
string NonEmptyString

@private
list NonEmptyStringList {
    member: NonEmptyString
}

@private
map NonEmptyStringMap {
    key: NonEmptyString
    value: NonEmptyString
}
