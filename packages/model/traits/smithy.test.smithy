// Protocol compliance test traits (namespace smithy.test), written for Anvil
// from the public Smithy protocol test specification on smithy.io.
$version: "2.0"

namespace smithy.test

// ---------------------------------------------------------------------------
// Request and response tests
// ---------------------------------------------------------------------------

/// Client and server tests of how an operation's input is sent as an HTTP request.
@trait(selector: "operation")
@length(min: 1)
list httpRequestTests {
    member: HttpRequestTestCase
}

/// Client and server tests of how an operation's output or an error is sent as an HTTP response.
@trait(selector: ":test(operation, structure[trait|error])")
@length(min: 1)
list httpResponseTests {
    member: HttpResponseTestCase
}

/// One HTTP request test case.
@private
structure HttpRequestTestCase with [HttpRequestMixin] {
    /// Unique id of the test case.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Shape id of the protocol under test.
    @required
    @idRef(selector: "[trait|protocolDefinition]", failWhenMissing: true)
    protocol: String

    /// Shape id of the auth scheme used, if any.
    @idRef(selector: "[trait|authDefinition]", failWhenMissing: true)
    authScheme: String

    /// Operation input parameters.
    params: Document

    /// Implementation-specific parameters.
    vendorParams: Document

    /// Shape that describes vendorParams.
    @idRef(failWhenMissing: true)
    vendorParamsShape: String

    /// What the test case checks.
    documentation: String

    /// Free-form tags.
    tags: NonEmptyStringList

    /// Restricts the case to clients or to servers.
    appliesTo: AppliesTo
}

/// One HTTP response test case.
@private
structure HttpResponseTestCase with [HttpResponseMixin] {
    /// Unique id of the test case.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Shape id of the protocol under test.
    @required
    @idRef(selector: "[trait|protocolDefinition]", failWhenMissing: true)
    protocol: String

    /// Shape id of the auth scheme used, if any.
    @idRef(selector: "[trait|authDefinition]", failWhenMissing: true)
    authScheme: String

    /// Output or error parameters.
    params: Document

    /// Implementation-specific parameters.
    vendorParams: Document

    /// Shape that describes vendorParams.
    @idRef(failWhenMissing: true)
    vendorParamsShape: String

    /// What the test case checks.
    documentation: String

    /// Free-form tags.
    tags: NonEmptyStringList

    /// Restricts the case to clients or to servers.
    appliesTo: AppliesTo
}

/// Members shared by HTTP requests and responses.
@private
@mixin
structure HttpMessageMixin {
    /// Headers that must be present with these values.
    headers: StringMap

    /// Header names that must be absent.
    forbidHeaders: StringList

    /// Header names that must be present with any value.
    requireHeaders: StringList

    /// Expected body.
    body: String

    /// Media type used to compare the body.
    bodyMediaType: String
}

/// Members of an HTTP request.
@private
@mixin
structure HttpRequestMixin with [HttpMessageMixin] {
    /// HTTP method.
    @required
    @length(min: 1)
    method: String

    /// Request path, without the query string.
    @required
    @length(min: 1)
    uri: String

    /// Host or endpoint configured on the client.
    host: String

    /// Host the request is expected to be sent to.
    resolvedHost: String

    /// Query parameters that must be present (`key=value`, percent-encoded).
    queryParams: StringList

    /// Query parameter names that must be absent.
    forbidQueryParams: StringList

    /// Query parameter names that must be present.
    requireQueryParams: StringList
}

/// Members of an HTTP response.
@private
@mixin
structure HttpResponseMixin with [HttpMessageMixin] {
    /// HTTP status code.
    @required
    @range(min: 100, max: 599)
    code: Integer
}

/// Side a test case applies to.
@private
enum AppliesTo {
    CLIENT = "client"
    SERVER = "server"
}

// ---------------------------------------------------------------------------
// Malformed request tests
// ---------------------------------------------------------------------------

/// Server tests for requests that must be rejected.
@trait(selector: "operation")
@length(min: 1)
@unstable
list httpMalformedRequestTests {
    member: HttpMalformedRequestTestCase
}

/// One malformed request test case.
@private
structure HttpMalformedRequestTestCase {
    /// Unique id of the test case.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Shape id of the protocol under test.
    @required
    @idRef(selector: "[trait|protocolDefinition]", failWhenMissing: true)
    protocol: String

    /// The malformed request.
    @required
    request: HttpMalformedRequestDefinition

    /// The expected rejection.
    @required
    response: HttpMalformedResponseDefinition

    /// What the test case checks.
    documentation: String

    /// Free-form tags.
    tags: NonEmptyStringList

    /// Values substituted into the case, one run per list index.
    testParameters: HttpMalformedRequestTestParametersDefinition
}

/// The request sent to the server.
@private
structure HttpMalformedRequestDefinition {
    /// HTTP method.
    @required
    @length(min: 1)
    method: String

    /// Request path, without the query string.
    @required
    @length(min: 1)
    uri: String

    /// Host header value.
    host: String

    /// Query string parameters, in order.
    queryParams: StringList

    /// Request headers.
    headers: StringMap

    /// Request body.
    body: String

    /// Media type of the body.
    bodyMediaType: String
}

/// The response the server must send.
@private
structure HttpMalformedResponseDefinition {
    /// Headers that must be present with these values.
    headers: StringMap

    /// HTTP status code.
    @required
    @range(min: 100, max: 599)
    code: Integer

    /// Expectations on the response body.
    body: HttpMalformedResponseBodyDefinition
}

@private
structure HttpMalformedResponseBodyDefinition {
    /// How the body is checked.
    @required
    assertion: HttpMalformedResponseBodyAssertion

    /// Media type of the body.
    @required
    mediaType: String
}

@private
union HttpMalformedResponseBodyAssertion {
    /// The exact body.
    contents: String

    /// A regular expression the error message must match.
    messageRegex: String
}

@private
map HttpMalformedRequestTestParametersDefinition {
    key: String
    value: StringList
}

// ---------------------------------------------------------------------------
// Event stream tests
// ---------------------------------------------------------------------------

/// Tests of event streams sent or received by an operation.
@trait(selector: "operation :test(-[input, output]-> structure > member > union[trait|streaming])")
@length(min: 1)
list eventStreamTests {
    member: EventStreamTestCase
}

/// One event stream test case.
@private
structure EventStreamTestCase {
    /// Unique id of the test case.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Shape id of the protocol under test.
    @required
    @idRef(selector: "[trait|protocolDefinition]", failWhenMissing: true)
    protocol: String

    /// Non-stream input members.
    initialRequestParams: Document

    /// Protocol-specific description of the initial request.
    initialRequest: Document

    /// Shape describing initialRequest.
    @idRef(selector: "structure", failWhenMissing: true)
    initialRequestShape: String

    /// Non-stream output members.
    initialResponseParams: Document

    /// Protocol-specific description of the initial response.
    initialResponse: Document

    /// Shape describing initialResponse.
    @idRef(selector: "structure", failWhenMissing: true)
    initialResponseShape: String

    /// Events sent or received, in order.
    events: Events

    /// Whether the exchange succeeds or fails.
    expectation: TestExpectation

    /// Implementation-specific parameters.
    vendorParams: Document

    /// Shape that describes vendorParams.
    @idRef(selector: "structure", failWhenMissing: true)
    vendorParamsShape: String

    /// What the test case checks.
    documentation: String

    /// Restricts the case to clients or to servers.
    appliesTo: AppliesTo

    /// Free-form tags.
    tags: NonEmptyStringList
}

/// Initial HTTP request of an event stream.
@private
structure InitialHttpRequest with [HttpRequestMixin] {}

/// Initial HTTP response of an event stream.
@private
structure InitialHttpResponse with [HttpResponseMixin] {}

@private
list Events {
    member: Event
}

/// One event of a stream.
@private
structure Event {
    /// Whether the event is part of the request or of the response stream.
    @required
    type: EventType

    /// Event parameters.
    params: Document

    /// Event headers that must be present with these values.
    headers: EventHeaders

    /// Event header names that must be absent.
    forbidHeaders: StringList

    /// Event header names that must be present.
    requireHeaders: StringList

    /// Expected event payload.
    body: Blob

    /// Media type used to compare the payload.
    bodyMediaType: String

    /// The whole encoded event message.
    bytes: Blob

    /// Implementation-specific parameters.
    vendorParams: Document = {}

    /// Shape that describes vendorParams.
    @idRef(selector: "structure", failWhenMissing: true)
    vendorParamsShape: String
}

@private
enum EventType {
    REQUEST = "request"
    RESPONSE = "response"
}

@private
map EventHeaders {
    key: String
    value: EventHeaderValue
}

/// A typed event header value.
@private
union EventHeaderValue {
    boolean: Boolean
    byte: Byte
    short: Short
    integer: Integer
    long: Long
    blob: Blob
    string: String
    timestamp: Timestamp
}

/// Expected outcome of an event stream test.
@private
union TestExpectation {
    /// The exchange completes without error.
    success: Unit

    /// The exchange fails.
    failure: TestFailureExpectation
}

@private
structure TestFailureExpectation {
    /// Error the exchange fails with.
    @idRef(failWhenMissing: true, selector: "[trait|error]")
    errorId: String
}

// ---------------------------------------------------------------------------
// Shared private shapes
// ---------------------------------------------------------------------------

@private
map StringMap {
    key: String
    value: String
}

@private
list StringList {
    member: String
}

@private
list NonEmptyStringList {
    member: NonEmptyString
}

@private
@length(min: 1)
string NonEmptyString

// ---------------------------------------------------------------------------
// Smoke tests
// ---------------------------------------------------------------------------

/// Test cases run against a live service to check that a client can reach it.
@trait(selector: "operation")
list smokeTests {
    member: SmokeTestCase
}

/// One smoke test case.
@private
structure SmokeTestCase {
    /// Unique id of the test case across the service.
    @required
    @pattern("^[A-Za-z_][A-Za-z0-9_]+$")
    id: String

    /// Operation input parameters.
    params: Document

    /// Implementation-specific parameters.
    vendorParams: Document

    /// Shape that describes vendorParams.
    @idRef(failWhenMissing: true)
    vendorParamsShape: String

    /// Expected outcome of the call.
    @required
    expect: Expectation

    /// Tags used to group or filter cases.
    tags: TagList
}

/// Expected outcome of a smoke test.
@private
union Expectation {
    /// The call succeeds; nothing else is checked.
    success: Unit

    /// The call fails.
    failure: FailureExpectation
}

@private
structure FailureExpectation {
    /// Error the call fails with; any error when absent.
    @idRef(failWhenMissing: true, selector: "[trait|error]")
    errorId: String
}

@private
list TagList {
    member: Tag
}

@private
@pattern("^[A-Za-z][A-Za-z0-9_\\-]+$")
string Tag
