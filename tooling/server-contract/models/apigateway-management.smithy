$version: "2"
// The API Gateway Management API (of WebSocket APIs) over
// `aws.protocols#restJson1`: a required blob `@httpPayload`, a connection id
// as label under the literal `@connections`, `@jsonName`s and `date-time`
// timestamps, a 204, and errors without members.
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
