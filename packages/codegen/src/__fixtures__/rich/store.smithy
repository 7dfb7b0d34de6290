$version: "2.0"

namespace test.store

use alloy#nullable
use alloy#openEnum
use alloy#simpleRestJson
use aws.auth#sigv4
use aws.protocols#restJson1

/// A store that exercises every shape kind the generator handles.
/// Its documentation even contains a comment terminator: */ (escaped).
@restJson1
@sigv4(name: "store")
@paginated(inputToken: "token", outputToken: "next")
service Store {
    version: "2025-01-01"
    resources: [Item]
    operations: [Ping, Upload, Download, Subscribe, Search, ReservedNames, Evaluate]
    errors: [Throttled]
    rename: { "test.other#Widget": "OtherWidget" }
}

resource Item {
    identifiers: { itemId: ItemId }
    read: GetItem
    put: PutItem
}

string ItemId

/// A marker trait defined by the model itself.
@trait
structure audited {
    level: Integer
}

@mixin
structure Timestamps {
    /// When it was made.
    @timestampFormat("epoch-seconds")
    createdAt: Timestamp

    @timestampFormat("http-date")
    updatedAt: Timestamp
}

/// An item on sale.
@externalDocumentation(Guide: "https://example.com/items")
structure ItemData with [Timestamps] {
    @required
    itemId: ItemId

    @required
    @length(min: 1, max: 200)
    @jsonName("item_name")
    name: String

    @clientOptional
    @required
    price: BigDecimal

    quantity: Long = 0

    views: BigInteger

    ratio: Float = 0.5

    enabled: Boolean = true

    label: String = "none"

    tags: TagList = []

    attributes: Attributes = {}

    @nullable
    nickname: String

    secret: Secret

    picture: Blob = "aGk="

    released: Timestamp = "2024-01-02T03:04:05Z"

    cost: BigDecimal = 1.25

    colour: Colour = "red"

    size: Size = 2

    metadata: smithy.api#Document

    shape: Shape

    tree: Tree

    kind: InstanceType

    mood: Mood

    widget: test.other#Widget

    @audited(level: 3)
    @deprecated(message: "Use name.", since: "2024")
    title: String

    sparseList: SparseList

    sparseMap: SparseMap

    byColour: ColourMap

    default: String

    constructor: Integer
}

@sensitive
string Secret

list TagList {
    @length(min: 1)
    member: String
}

@uniqueItems
list TagSet {
    member: String
}

map Attributes {
    key: String
    value: String
}

@sparse
list SparseList {
    member: Integer
}

@sparse
map SparseMap {
    key: String
    value: ItemData
}

map ColourMap {
    key: Colour
    value: Integer
}

/// Colours, with wire values that differ from their names.
enum Colour {
    /// The colour of fire.
    RED = "red"
    GREEN = "green"
    @internal
    SECRET = "secret"
}

/// An open enum: new moods are accepted.
@openEnum
enum Mood {
    HAPPY
    SAD
}

intEnum Size {
    SMALL = 1
    MEDIUM = 2
    LARGE = 3
}

@enum([
    { value: "t2.micro", name: "T2_MICRO", documentation: "Tiny." }
    { value: "m5.large" }
])
string InstanceType

/// A drawing, by kind.
union Shape {
    /// A circle's radius.
    circle: Double
    square: Square
    none: Unit
}

structure Square {
    @required
    side: Integer
}

/// A tree: recursion through a list and a union.
structure Tree {
    @required
    value: String
    children: Forest
    next: TreeLink
}

list Forest {
    member: Tree
}

union TreeLink {
    tree: Tree
    end: Unit
}

@readonly
@http(method: "GET", uri: "/items/{itemId}")
operation GetItem {
    input := {
        @required
        @httpLabel
        itemId: ItemId

        @httpHeader("X-Trace")
        trace: String

        @httpQueryParams
        extra: Attributes
    }
    output := {
        @required
        @httpPayload
        item: ItemData

        @httpResponseCode
        status: Integer

        @httpPrefixHeaders("X-Meta-")
        meta: Attributes
    }
    errors: [NotFound]
}

@idempotent
@http(method: "PUT", uri: "/items/{itemId}", code: 201)
@requestCompression(encodings: ["gzip"])
@httpChecksumRequired
operation PutItem {
    input := {
        @required
        @httpLabel
        itemId: ItemId

        @idempotencyToken
        @httpHeader("X-Token")
        token: String

        @httpPayload
        data: ItemData
    }
    output := {}
}

/// Checks the service is alive.
@readonly
@http(method: "GET", uri: "/ping")
operation Ping {
    output := {
        @required
        ok: Boolean
    }
}

@http(method: "POST", uri: "/upload")
operation Upload {
    input := {
        @httpPayload
        @required
        body: StreamingBlob

        @httpHeader("Content-Type")
        contentType: String
    }
}

@readonly
@http(method: "GET", uri: "/download")
operation Download {
    output := {
        @httpPayload
        @required
        body: StreamingBlob
    }
}

@streaming
@requiresLength
blob StreamingBlob

@http(method: "POST", uri: "/subscribe")
operation Subscribe {
    input := {
        @httpPayload
        events: ClientEvents
    }
    output := {
        @httpPayload
        events: ServerEvents
    }
}

@streaming
union ClientEvents {
    hello: HelloEvent
}

@streaming
union ServerEvents {
    update: UpdateEvent
    failed: NotFound
}

structure HelloEvent {
    @eventHeader
    who: String
}

structure UpdateEvent {
    @eventPayload
    payload: Blob
}

@readonly
@paginated(items: "items", pageSize: "limit")
@http(method: "GET", uri: "/search")
operation Search {
    input := {
        @httpQuery("token")
        token: String

        @httpQuery("limit")
        @range(min: 1, max: 50)
        limit: Integer

        @httpQuery("big")
        @range(min: -9007199254740993)
        big: Long
    }
    output := {
        next: String
        items: TagSet
    }
}

/// Uses shape names that TypeScript and the runtime take for themselves.
@http(method: "POST", uri: "/reserved")
operation ReservedNames {
    input := {
        object: Object
        record: Record
        date: Date
        document: Document
        string: String
    }
}

structure Object {
    @required
    key: String
}

structure Record {
    data: Blob
}

structure Date {
    day: Integer
}

structure Document {
    text: String
}

/// The item is not there.
@error("client")
@httpError(404)
structure NotFound {
    @required
    message: String
}

/// Slow down.
@error("server")
@retryable(throttling: true)
@httpError(503)
structure Throttled {
    message: String
}

/// Recursion of every kind: a union through itself and a list, lists and maps of themselves.
@http(method: "POST", uri: "/evaluate")
operation Evaluate {
    input := {
        expr: Expr
        nested: Nested
        nestedMap: NestedMap
        node: Node
        names: test.legacy#Names
        legacy: test.legacy#Legacy
    }
    output := {
        @required
        result: Integer
    }
}

union Expr {
    lit: Integer
    not: Expr
    all: ExprList
}

list ExprList {
    member: Expr
}

list Nested {
    member: Nested
}

map NestedMap {
    key: String
    value: NestedMap
}

structure Node {
    next: Node
}
