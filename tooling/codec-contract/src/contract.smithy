// The model the codec contract suite builds its schemas from (with
// @anvil/dynamic): every shape type, wire names, timestamp formats, sparse
// collections, recursion, unions, enums, big numbers, documents and defaults.
$version: "2"

namespace anvil.contract

/// Every scalar, enum and collection, once.
structure Scalars {
    @jsonName("the_string")
    string: String
    boolean: Boolean
    blob: Blob
    byte: Byte
    short: Short
    integer: Integer
    long: Long
    float: Float
    double: Double
    bigInteger: BigInteger
    bigDecimal: BigDecimal
    timestamp: Timestamp
    document: Document
    color: Color
    level: Level
}

/// Timestamps in every format.
structure Times {
    plain: Timestamp

    @timestampFormat("date-time")
    dateTime: Timestamp

    @timestampFormat("epoch-seconds")
    epochSeconds: Timestamp

    @timestampFormat("http-date")
    httpDate: Timestamp

    onShape: DateTimeStamp
    list: DateTimeList
}

@timestampFormat("date-time")
timestamp DateTimeStamp

list DateTimeList {
    @timestampFormat("epoch-seconds")
    member: Timestamp
}

enum Color {
    RED
    GREEN = "green"
    BLUE = "blue-ish"
}

intEnum Level {
    LOW = 1
    MID = 5
    HIGH = 2147483647
    NEG = -3
}

/// Required members, wire names that differ, and members that look special.
structure Wire {
    @required
    @jsonName("Id")
    id: String

    @required
    @jsonName("$type")
    type: String

    @jsonName("na me")
    spaced: Integer

    @jsonName("__proto__")
    proto: String

    @jsonName("")
    empty: Boolean

    other: String
}

list Strings {
    member: String
}

@sparse
list SparseStrings {
    member: String
}

@uniqueItems
list UniqueIntegers {
    member: Integer
}

list Blobs {
    member: Blob
}

list Nested {
    member: Strings
}

map StringMap {
    key: String
    value: String
}

@sparse
map SparseMap {
    key: String
    value: Integer
}

map ColorMap {
    key: Color
    value: Double
}

map ListMap {
    key: String
    value: Strings
}

/// Collections in every form.
structure Collections {
    strings: Strings
    sparseStrings: SparseStrings
    uniqueIntegers: UniqueIntegers
    blobs: Blobs
    nested: Nested
    stringMap: StringMap
    sparseMap: SparseMap
    colorMap: ColorMap
    listMap: ListMap
}

/// A tree: a structure containing a list of itself.
structure Tree {
    @required
    label: String
    children: TreeList
    parent: Tree
}

list TreeList {
    member: Tree
}

/// Unions with scalar, structure, collection, Unit and recursive variants.
union Choice {
    text: String
    number: Integer
    big: BigInteger
    when: Timestamp
    bytes: Blob
    nothing: Unit
    tree: Tree
    list: Strings
    map: StringMap
    again: Choice
    @jsonName("renamed_variant")
    renamed: Boolean
}

structure WithUnion {
    @required
    choice: Choice
    maybe: Choice
}

/// Big numbers: longs, bigIntegers and bigDecimals in collections.
structure BigNumbers {
    long: Long
    bigInteger: BigInteger
    bigDecimal: BigDecimal
    longs: Longs
    bigIntegers: BigIntegerMap
    decimals: Decimals
}

list Longs {
    member: Long
}

map BigIntegerMap {
    key: String
    value: BigInteger
}

list Decimals {
    member: BigDecimal
}

/// Documents alone and in collections.
structure Documents {
    doc: Document
    docs: DocumentList
    @required
    required: Document
}

list DocumentList {
    member: Document
}

/// Defaults of every type. Absent on the wire, each reads back as its default.
structure Defaults {
    string: String = "hello"
    boolean: Boolean = true
    byte: Byte = -1
    short: Short = 300
    integer: Integer = 42
    long: Long = 9007199254740993
    float: Float = 1.5
    double: Double = -2.25
    bigInteger: BigInteger = 123456789012345678901234567890
    bigDecimal: BigDecimal = 1.25
    timestamp: Timestamp = 1700000000
    dateTime: DateTimeStamp = "2020-01-02T03:04:05.678Z"
    blob: Blob = "aGVsbG8="
    document: Document = "x"
    color: Color = "green"
    level: Level = 5
    strings: Strings = []
    stringMap: StringMap = {}
    @required
    id: String
}

/// The top: a bit of everything, several levels deep.
structure Everything {
    scalars: Scalars
    times: Times
    wire: Wire
    collections: Collections
    tree: Tree
    withUnion: WithUnion
    bigNumbers: BigNumbers
    documents: Documents
    defaults: Defaults
}

structure Empty {}
