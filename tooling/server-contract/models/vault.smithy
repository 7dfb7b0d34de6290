$version: "2.0"

namespace test.auth

use alloy#simpleRestJson
use alloy.proto#grpc
use alloy.proto#protoIndex
use aws.auth#sigv4
use aws.protocols#awsJson1_1
use aws.protocols#restJson1
use smithy.protocols#rpcv2Cbor

/// A service that takes four auth schemes, in this order of preference.
@restJson1
@simpleRestJson
@awsJson1_1
@rpcv2Cbor
@grpc
@httpBearerAuth
@httpApiKeyAuth(name: "x-api-key", in: "header")
@httpBasicAuth
@sigv4(name: "vault")
@auth([httpBearerAuth, httpApiKeyAuth, httpBasicAuth, sigv4])
service Vault {
    version: "2026-12-02"
    operations: [GetSecret, Ping, Peek, Rotate]
}

/// Takes the service's schemes.
@http(method: "POST", uri: "/secret")
operation GetSecret {
    input := {
        @required
        @length(min: 1)
        @protoIndex(1)
        name: String
    }
    output := {
        @protoIndex(1)
        caller: String
    }
}

/// Anonymous: no scheme at all.
@auth([])
@readonly
@http(method: "GET", uri: "/ping")
operation Ping {
    output := {
        @protoIndex(1)
        caller: String
    }
}

/// Served with or without credentials; valid ones name the caller.
@optionalAuth
@readonly
@http(method: "GET", uri: "/peek")
operation Peek {
    output := {
        @protoIndex(1)
        caller: String
    }
}

/// Basic auth only; an interceptor lets only the admin through.
@auth([httpBasicAuth])
@http(method: "POST", uri: "/rotate")
operation Rotate {
    output := {
        @protoIndex(1)
        caller: String
    }
}
