$version: "2.0"

namespace test.redaction

use alloy#simpleRestJson
use alloy.proto#grpc
use aws.protocols#awsJson1_0
use aws.protocols#awsJson1_1
use aws.protocols#restJson1
use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json

/// A service whose inputs are full of secrets: every kind of `@sensitive`
/// member, bound to every place a protocol puts one (body, header, query).
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
        account: AccountId

        @httpHeader("x-pin")
        pin: Pin

        @httpQuery("memo")
        memo: Secret

        note: Note
        card: Card
        cards: Cards
        tags: Tags
        labels: Labels
        when: SecretTime
        amount: SecretAmount
        kind: SecretKind
    }

    output := {
        receipt: String
    }

    errors: [Declined]
}

/// Takes a bearer token.
@auth([httpBearerAuth])
@http(method: "POST", uri: "/withdrawals")
operation Withdraw {
    output := {
        receipt: String
    }
}

@error("client")
@httpError(402)
structure Declined {
    message: String
}

@pattern("^[a-z0-9]+$")
string AccountId

@sensitive
@pattern("^[0-9]{4}$")
@length(min: 4, max: 4)
string Pin

@sensitive
string Secret

@sensitive
@length(max: 12)
string Note

@sensitive
structure Card {
    @required
    @pattern("^[0-9]{16}$")
    number: String

    @length(max: 12)
    holder: String
}

list Cards {
    member: Card
}

/// Secret values, by a plain key.
map Tags {
    key: String
    value: Note
}

/// Plain values, by a secret key.
map Labels {
    key: SecretKey
    value: Label
}

@sensitive
@length(min: 1, max: 40)
string SecretKey

@length(max: 3)
string Label

@sensitive
timestamp SecretTime

@sensitive
@range(min: 1, max: 100)
integer SecretAmount

@sensitive
enum SecretKind {
    CASH
    CHEQUE
}
