// Endpoint rules engine traits (namespace smithy.rules), written for Anvil from
// the public Smithy rules engine specification on smithy.io.
$version: "2.0"

namespace smithy.rules

// ---------------------------------------------------------------------------
// Rule sets
// ---------------------------------------------------------------------------

/// Endpoint rule set (decision tree form) that resolves the service's endpoint.
@unstable
@trait(selector: "service")
document endpointRuleSet

/// Endpoint rule set compiled to a binary decision diagram.
@unstable
@trait(selector: "service")
structure endpointBdd {
    /// Version of the BDD format (e.g. "1.1"); newer Smithy releases write it.
    version: String

    /// Parameters by name.
    @required
    parameters: Parameters

    /// Unique conditions referenced by the nodes.
    @required
    conditions: Conditions

    /// Results referenced by the nodes; index 0 is the terminal "no match".
    @required
    results: Results

    /// Reference of the root node.
    @required
    @range(min: -1)
    root: Integer

    /// Number of nodes, including the terminal node.
    @required
    @range(min: 0)
    nodeCount: Integer

    /// Base64 of the zig-zag varint encoded [condition, high, low] node triples.
    @required
    nodes: String
}

@private
map Parameters {
    key: String
    value: Parameter
}

/// A rule set parameter.
@private
structure Parameter {
    /// Parameter type.
    @required
    type: ParameterType

    /// Whether the parameter is deprecated.
    deprecated: Boolean

    /// Documentation of the parameter.
    documentation: String

    /// Default value; a parameter with a default is also required.
    default: Document

    /// Name of the built-in value the caller supplies.
    builtIn: String

    /// Whether the parameter must be provided.
    required: Boolean
}

/// Types of rule set parameters.
enum ParameterType {
    STRING = "string"
    BOOLEAN = "boolean"
    STRING_ARRAY = "stringArray"
}

@private
list Conditions {
    member: Condition
}

/// A function call, optionally assigning its result.
@private
structure Condition {
    /// Function name.
    @required
    fn: String

    /// Arguments.
    @required
    argv: DocumentList

    /// Variable the result is assigned to.
    assign: String
}

@private
list DocumentList {
    member: Document
}

@private
list Results {
    member: Result
}

/// An endpoint or error result.
@private
structure Result {
    /// Whether the result is an endpoint or an error.
    @required
    type: ResultType

    /// Description of the result.
    documentation: String

    /// Error message template, for error results.
    error: Document

    /// Endpoint, for endpoint results.
    endpoint: EndpointObject

    /// Conditions of the result (decision tree rules only).
    conditions: Conditions
}

@private
enum ResultType {
    ENDPOINT = "endpoint"
    ERROR = "error"
}

/// A resolved endpoint.
@private
structure EndpointObject {
    /// Endpoint URL (template).
    @required
    url: Document

    /// Endpoint properties.
    properties: EndpointProperties

    /// Transport headers.
    headers: EndpointObjectHeaders
}

@private
map EndpointProperties {
    key: String
    value: Document
}

@private
map EndpointObjectHeaders {
    key: String
    value: DocumentList
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

/// Test cases of the service's endpoint rule set.
@unstable
@trait(selector: "service :is([trait|smithy.rules#endpointRuleSet], [trait|smithy.rules#endpointBdd])")
structure endpointTests {
    /// Version of the test schema.
    @required
    version: String

    /// Test cases.
    testCases: EndpointTestList
}

@unstable
@private
list EndpointTestList {
    member: EndpointTest
}

/// One endpoint test case.
@unstable
@private
structure EndpointTest {
    /// What the case checks.
    documentation: String

    /// Parameter values.
    params: Document

    /// Operation calls whose input supplies parameters.
    operationInputs: OperationInputs

    /// Expected endpoint or error.
    @required
    expect: EndpointTestExpectation
}

@unstable
@private
list OperationInputs {
    member: OperationInput
}

/// An operation call used by an endpoint test.
@unstable
@private
structure OperationInput {
    /// Operation name.
    @required
    operationName: String

    /// Operation input.
    operationParams: Document

    /// Built-in parameter values.
    builtInParams: Document

    /// Client configuration values.
    clientParams: Document
}

/// Expected outcome of an endpoint test.
@unstable
@private
union EndpointTestExpectation {
    /// Expected error message.
    error: String

    /// Expected endpoint.
    endpoint: EndpointExpectation
}

/// Expected endpoint of a test case.
@unstable
@private
structure EndpointExpectation {
    /// Expected URL.
    url: String

    /// Expected headers.
    headers: EndpointHeaders

    /// Expected properties.
    properties: Properties
}

@unstable
@private
map EndpointHeaders {
    key: String
    value: EndpointHeaderValue
}

@unstable
@private
list EndpointHeaderValue {
    member: String
}

@unstable
@private
map Properties {
    key: String
    value: Document
}

// ---------------------------------------------------------------------------
// Parameter bindings
// ---------------------------------------------------------------------------

/// Binds an input member to the named rule set parameter.
@unstable
@trait(selector: "operation -[input]-> structure > member")
structure contextParam {
    /// Parameter name.
    @required
    name: String
}

/// Static parameter values for an operation, by parameter name.
@unstable
@trait(selector: "operation")
map staticContextParams {
    key: String
    value: StaticContextParamDefinition
}

/// Parameter values selected from an operation's input, by parameter name.
@unstable
@trait(selector: "operation")
map operationContextParams {
    key: String
    value: OperationContextParamDefinition
}

/// Parameters exposed as client configuration, by parameter name.
@unstable
@trait(selector: "service")
map clientContextParams {
    key: String
    value: ClientContextParamDefinition
}

@unstable
@private
structure StaticContextParamDefinition {
    /// The value.
    @required
    value: Document
}

@unstable
@private
structure OperationContextParamDefinition {
    /// JMESPath expression evaluated against the input.
    @required
    path: String
}

@unstable
@private
structure ClientContextParamDefinition {
    /// Type of the client setting.
    @required
    type: ShapeType

    /// Documentation of the client setting.
    documentation: String
}

/// Shape types usable for client context parameters.
@unstable
@private
enum ShapeType {
    STRING = "string"
    BOOLEAN = "boolean"
}
