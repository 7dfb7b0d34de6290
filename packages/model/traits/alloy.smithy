// Alloy traits (namespace alloy), written for Anvil from the public alloy
// documentation (github.com/disneystreaming/alloy). Matches alloy-core 0.3.x.
$version: "2.0"


namespace alloy


// ---------------------------------------------------------------------------
// Protocol
// ---------------------------------------------------------------------------

/// alloy's simpleRestJson protocol: HTTP bindings with JSON bodies.
@trait(selector: "service")
@protocolDefinition(
    traits: [
        "smithy.api#default"
        "smithy.api#error"
        "smithy.api#http"
        "smithy.api#httpError"
        "smithy.api#httpHeader"
        "smithy.api#httpLabel"
        "smithy.api#httpPayload"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpResponseCode"
        "smithy.api#jsonName"
        "smithy.api#length"
        "smithy.api#pattern"
        "smithy.api#range"
        "smithy.api#required"
        "smithy.api#timestampFormat"
        "alloy#uuidFormat"
        "alloy#discriminated"
        "alloy#nullable"
        "alloy#untagged"
        "alloy#jsonUnknown"
        "alloy#openEnum"
        "alloy#durationSecondsFormat"
        "alloy#dateFormat"
        "alloy#localTimeFormat"
        "alloy#offsetDateTimeFormat"
        "alloy#preserveKeyOrder"
    ]
)
structure simpleRestJson {}

// ---------------------------------------------------------------------------
// Unions and JSON encoding
// ---------------------------------------------------------------------------

/// Encode the union as an object tagged by the named discriminator field.
@trait(
    selector: "union"
    conflicts: ["alloy#untagged"]
)
string discriminated

/// Encode the union as the bare value of the active member.
@trait(
    selector: "union"
    conflicts: ["alloy#discriminated"]
)
structure untagged {}

/// Collects unknown JSON fields into this member.
@trait(
    selector: ":is(structure > member :test(> map > member[id|member=value] > document), union:not([trait|alloy#untagged]) > member :test(> document))"
    structurallyExclusive: "member"
    conflicts: ["smithy.api#jsonName"]
)
structure jsonUnknown {}

/// Keep the key order of maps and documents.
@trait(selector: ":test(map, member > map, document, member > document)")
structure preserveKeyOrder {}

/// Unknown enum values are accepted and kept.
@trait(selector: ":test(enum, intEnum, [trait|enum])")
structure openEnum {}

// ---------------------------------------------------------------------------
// Presence
// ---------------------------------------------------------------------------

/// Distinguishes an explicit null from an absent value.
@trait(selector: ":not([trait|trait])")
structure nullable {}

/// Default value for a member (alloy's form, conflicting with @required).
@trait(
    selector: "structure > member :test(> :is(simpleType, list, map))"
    conflicts: ["smithy.api#required"]
)
document defaultValue

// ---------------------------------------------------------------------------
// Strings
// ---------------------------------------------------------------------------

/// The string is a UUID.
@trait(selector: "string")
structure uuidFormat {}

/// RFC 4122 UUID.
@uuidFormat
string UUID

/// The string holds structured data: the pattern's named groups map to the target structure's members.
@trait(selector: "string")
structure structurePattern {
    /// Pattern with `{member}` placeholders.
    @required
    pattern: String

    /// Structure the string is parsed into.
    @required
    @idRef(selector: "structure")
    target: String
}

// ---------------------------------------------------------------------------
// URL form encoding
// ---------------------------------------------------------------------------

/// Serialize a list or map member without a wrapping key in URL-encoded forms.
@trait(
    selector: ":is(structure, union) > :test(member > :test(list, map))"
    breakingChanges: [{ change: "any" }]
)
structure urlFormFlattened {}

/// Key used for the shape in URL-encoded forms.
@trait(
    selector: ":is(structure, union, member)"
    breakingChanges: [{ change: "any" }]
)
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*$")
string urlFormName

// ---------------------------------------------------------------------------
// Examples and documentation
// ---------------------------------------------------------------------------

/// Operation examples that are not validated against the operation's shapes.
@trait(selector: "operation")
list uncheckedExamples {
    member: UncheckedExample
}

@private
structure UncheckedExample {
    /// Short title.
    @required
    title: String

    /// Longer explanation.
    documentation: String

    /// Input value.
    input: Document

    /// Output value.
    output: Document
}

/// Example values of a data shape.
@trait(selector: ":not(:test(service, operation, resource))")
list dataExamples {
    member: DataExample
}

/// An example value, as a Smithy node, as JSON, or as a plain string.
union DataExample {
    /// Value in Smithy node form.
    smithy: Document

    /// Value in its JSON encoding.
    json: Document

    /// Value as free text.
    string: String
}

// ---------------------------------------------------------------------------
// Date and time
// ---------------------------------------------------------------------------

/// ISO 8601 local date (`2024-01-31`).
@trait(selector: ":test(string, member > string)")
structure dateFormat {}

@dateFormat
string LocalDate

/// ISO 8601 local time (`10:15:30`).
@trait(selector: ":test(string, member > string)")
structure localTimeFormat {}

@localTimeFormat
string LocalTime

/// ISO 8601 local date-time (`2024-01-31T10:15:30`).
@trait(selector: ":test(string, member > string)")
structure localDateTimeFormat {}

@localDateTimeFormat
string LocalDateTime

/// Date-time timestamp that keeps its UTC offset.
@trait(selector: ":test(timestamp, member > timestamp) [trait|timestampFormat = 'date-time']")
structure offsetDateTimeFormat {}

@offsetDateTimeFormat
@timestampFormat("date-time")
timestamp OffsetDateTime

/// ISO 8601 time with offset (`10:15:30+01:00`).
@trait(selector: ":test(string, member > string)")
structure offsetTimeFormat {}

@offsetTimeFormat
string OffsetTime

/// IANA time zone id (`Europe/Paris`).
@trait(selector: ":test(string, member > string)")
structure zoneIdFormat {}

@zoneIdFormat
string ZoneId

/// UTC offset (`+01:00`).
@trait(selector: ":test(string, member > string)")
structure zoneOffsetFormat {}

@zoneOffsetFormat
string ZoneOffset

/// Date-time with offset and zone id (`2024-01-31T10:15:30+01:00[Europe/Paris]`).
@trait(selector: ":test(string, member > string)")
structure zonedDateTimeFormat {}

@zonedDateTimeFormat
string ZonedDateTime

/// Year (`2024`).
@trait(selector: ":test(integer, member > integer)")
structure yearFormat {}

@yearFormat
integer Year

/// Year and month (`2024-01`).
@trait(selector: ":test(string, member > string)")
structure yearMonthFormat {}

@yearMonthFormat
string YearMonth

/// Month and day (`--01-31`).
@trait(selector: ":test(string, member > string)")
structure monthDayFormat {}

@monthDayFormat
string MonthDay

/// Duration as a number of seconds.
@trait(selector: ":test(bigDecimal, member > bigDecimal)")
structure durationSecondsFormat {}

@durationSecondsFormat
bigDecimal Duration

enum DayOfWeek {
    MONDAY
    TUESDAY
    WEDNESDAY
    THURSDAY
    FRIDAY
    SATURDAY
    SUNDAY
}

enum Month {
    JANUARY
    FEBRUARY
    MARCH
    APRIL
    MAY
    JUNE
    JULY
    AUGUST
    SEPTEMBER
    OCTOBER
    NOVEMBER
    DECEMBER
}
