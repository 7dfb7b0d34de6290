// Smithy RPC v2 protocol traits (namespace smithy.protocols), written for Anvil
// from the public Smithy RPC v2 protocol specifications on smithy.io.
$version: "2.0"

namespace smithy.protocols

/// RPC v2 with CBOR bodies.
@trait(selector: "service")
@protocolDefinition(
    traits: ["smithy.api#cors", "smithy.api#endpoint", "smithy.api#hostLabel", "smithy.api#httpError", "smithy.api#requestCompression"]
)
@traitValidators(
    "rpcv2Cbor.NoDocuments": {
        selector: "service ~> member :test(> document)"
        message: "Document types are not supported by rpcv2Cbor in most cases."
        severity: "DANGER"
    }
)
structure rpcv2Cbor {
    /// HTTP versions for ordinary requests, in preference order.
    http: StringList

    /// HTTP versions for event stream requests, in preference order.
    eventStreamHttp: StringList
}

/// RPC v2 with JSON bodies.
@trait(selector: "service")
@protocolDefinition(
    traits: ["smithy.api#cors", "smithy.api#endpoint", "smithy.api#hostLabel", "smithy.api#httpError", "smithy.api#requestCompression"]
)
structure rpcv2Json {
    /// HTTP versions for ordinary requests, in preference order.
    http: StringList

    /// HTTP versions for event stream requests, in preference order.
    eventStreamHttp: StringList
}

@private
list StringList {
    member: String
}
