$version: "2.0"

namespace test.redaction

use alloy#simpleRestJson
use alloy.proto#grpc
use aws.protocols#awsJson1_0
use aws.protocols#awsJson1_1
use aws.protocols#restJson1
use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json

/// `ledger.smithy`'s Ledger as a careless caller sees it: the same
/// operations, bindings and member order (so the same gRPC field numbers),
/// with every member a plain string, unconstrained and not sensitive. A
/// client built from it sends what the real service must refuse.
@restJson1
@simpleRestJson
@awsJson1_0
@awsJson1_1
@rpcv2Cbor
@rpcv2Json
@grpc
@httpBearerAuth
@auth([])
service Ledger {
    version: "2026-12-02"
    operations: [Deposit, Withdraw]
}

@http(method: "POST", uri: "/accounts/{account}/deposits")
operation Deposit {
    input := {
        @required
        @httpLabel
        account: String

        @httpHeader("x-pin")
        pin: String

        @httpQuery("memo")
        memo: String

        note: String
        card: Card
        cards: Cards
        tags: Tags
        labels: Labels
        when: String
        amount: String
        kind: String
    }

    output := {
        receipt: String
    }
}

@auth([httpBearerAuth])
@http(method: "POST", uri: "/withdrawals")
operation Withdraw {
    output := {
        receipt: String
    }
}

structure Card {
    number: String
    holder: String
}

list Cards {
    member: Card
}

map Tags {
    key: String
    value: String
}

map Labels {
    key: String
    value: String
}
