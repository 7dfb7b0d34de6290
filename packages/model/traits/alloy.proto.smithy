// Protobuf and gRPC traits of alloy (namespace alloy.proto), written for Anvil
// from the public alloy documentation.
$version: "2.0"

namespace alloy.proto

// ---------------------------------------------------------------------------
// Protocol and errors
// ---------------------------------------------------------------------------

/// gRPC protocol with protobuf messages.
@trait(selector: "service")
@protocolDefinition(
    traits: [
        "alloy.proto#protoReservedFields"
        "alloy.proto#protoIndex"
        "alloy.proto#protoNumType"
        "alloy.proto#protoTimestampFormat"
        "alloy.proto#protoEnumFormat"
        "alloy.proto#protoEnabled"
        "alloy#uncheckedExamples"
    ]
)
structure grpc {}

/// gRPC status code and message of an error.
@trait(selector: "structure[trait|smithy.api#error]")
structure grpcError {
    /// gRPC status code.
    @required
    code: Integer

    /// Fixed status message.
    message: String
}

/// The member provides the gRPC status message of the error.
@trait(
    selector: "structure[trait|alloy.proto#grpcError] > member :test(> string)"
    structurallyExclusive: "member"
)
structure grpcErrorMessage {}

/// gRPC status codes.
@alloy#openEnum
intEnum GrpcStatusCode {
    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16
}

/// Mirrors google.rpc.Status.
structure GoogleRpcStatus {
    @protoIndex(1)
    code: Integer

    @protoIndex(2)
    message: String

    @protoIndex(3)
    details: ProtobufAnyList
}

/// Mirrors google.protobuf.Any.
structure ProtobufAny {
    @protoIndex(1)
    typeUrl: String

    @protoIndex(2)
    value: Blob
}

list ProtobufAnyList {
    member: ProtobufAny
}

// ---------------------------------------------------------------------------
// Message layout
// ---------------------------------------------------------------------------

/// Field number of a member in the protobuf message.
@trait(selector: ":is(structure > member, union > member, enum > member, intEnum > member)")
integer protoIndex

/// Field numbers and names that may not be used.
@trait(selector: "structure")
list protoReservedFields {
    member: ReservedFieldsDefinition
}

/// A reserved field name, number or number range.
union ReservedFieldsDefinition {
    name: String
    number: Integer
    range: Range
}

/// Inclusive range of field numbers.
structure Range {
    @required
    start: Integer

    @required
    end: Integer
}

/// Generate protobuf definitions for this structure or service.
@trait(selector: ":test(structure, service)")
structure protoEnabled {}

/// Encode the union as a oneof inlined in the containing message.
@trait(selector: "union")
structure protoInlinedOneOf {}

/// Encode the value in a wrapper message.
@trait(selector: ":test(simpleType, list, map, member > simpleType, member > list, member > map)")
structure protoWrapped {}

// ---------------------------------------------------------------------------
// Scalar encodings
// ---------------------------------------------------------------------------

/// Protobuf integer encoding of an integer or long.
@trait(selector: ":test(integer, long, member > :test(integer, long))")
enum protoNumType {
    SIGNED
    UNSIGNED
    FIXED
    FIXED_SIGNED
}

/// Protobuf encoding of a timestamp.
@trait(selector: ":test(timestamp, member > timestamp)")
enum protoTimestampFormat {
    PROTOBUF
    EPOCH_MILLIS
    RFC3339_STRING
}

/// Protobuf encoding of an offsetDateTimeFormat timestamp.
@trait(selector: ":test(* [trait|alloy#offsetDateTimeFormat], member > * [trait|alloy#offsetDateTimeFormat])")
enum protoOffsetDateTimeFormat {
    PROTOBUF
    RFC3339_STRING
}

/// Protobuf encoding of a closed enum.
@trait(selector: ":test(enum :not([trait|alloy#openEnum]), member > enum :not([trait|alloy#openEnum]))")
enum protoEnumFormat {
    ORDINAL
    STRING_VALUE
}

/// Encode a UUID as two 64-bit integers.
@trait(selector: ":test(string [trait|alloy#uuidFormat], member > string [trait|alloy#uuidFormat], member [trait|alloy#uuidFormat] > string)")
structure protoCompactUUID {}

/// Encode a local date compactly.
@trait(selector: ":test(string [trait|alloy#dateFormat], member > string [trait|alloy#dateFormat], member [trait|alloy#dateFormat] > string)")
structure protoCompactLocalDate {}

/// Encode a local time compactly.
@trait(selector: ":test(string [trait|alloy#localTimeFormat], member > string [trait|alloy#localTimeFormat], member [trait|alloy#localTimeFormat] > string)")
structure protoCompactLocalTime {}

/// Encode a year-month compactly.
@trait(selector: ":test(string [trait|alloy#yearMonthFormat], member > string [trait|alloy#yearMonthFormat], member [trait|alloy#yearMonthFormat] > string)")
structure protoCompactYearMonth {}

/// Encode a month-day compactly.
@trait(selector: ":test(string [trait|alloy#monthDayFormat], member > string [trait|alloy#monthDayFormat], member [trait|alloy#monthDayFormat] > string)")
structure protoCompactMonthDay {}
