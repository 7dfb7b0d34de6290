$version: "2.0"

namespace test.telemetry

use alloy#simpleRestJson
use alloy.proto#grpc
use alloy.proto#protoIndex
use aws.protocols#awsJson1_0
use aws.protocols#awsJson1_1
use aws.protocols#restJson1
use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json

/// A service whose handler calls on to itself, on every protocol, for the OpenTelemetry test.
@restJson1
@simpleRestJson
@awsJson1_0
@awsJson1_1
@rpcv2Cbor
@rpcv2Json
@grpc
service Relay {
    version: "2026-12-03"
    operations: [Forward, Fail]
}

/// Calls the service again, `hops` more times.
@http(method: "POST", uri: "/forward")
operation Forward {
    input := {
        @required
        @protoIndex(1)
        hops: Integer

        @protoIndex(2)
        secret: Secret
    }
    output := {
        @protoIndex(1)
        trail: String
    }
}

/// Fails as `mode` says: `modeled` (NotFound), `busy` (Busy, twice per key, then succeeds) or anything else (an unmodeled error).
@idempotent
@http(method: "POST", uri: "/fail")
operation Fail {
    input := {
        @required
        @protoIndex(1)
        mode: String

        @protoIndex(2)
        key: String
    }
    output := {}
    errors: [NotFound, Busy]
}

@sensitive
string Secret

@error("client")
@httpError(404)
structure NotFound {
    @protoIndex(1)
    message: String

    @protoIndex(2)
    detail: Secret
}

@error("server")
@httpError(503)
@retryable
structure Busy {
    @protoIndex(1)
    message: String
}
