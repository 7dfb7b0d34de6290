$version: "2.0"

// The fakes' test model: @examples edge cases (nested subset matches, list,
// map and union rules, floats, error examples), constraints the synthesizer
// must honour, recursion, operations without examples, and streams.
namespace example.fakes

use alloy#simpleRestJson
use aws.protocols#awsJson1_0
use aws.protocols#restJson1
use smithy.framework#ValidationException
use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json

/// A zoo on every JSON and CBOR protocol.
@restJson1
@awsJson1_0
@rpcv2Cbor
@rpcv2Json
service Zoo {
    version: "2025-01-01"
    operations: [GetAnimal, SearchAnimals, FeedAnimal, GetTree, Ping, GetShape, ListAnimals]
    errors: [ValidationException]
}

/// The same zoo on alloy#simpleRestJson (its routes are Zoo's restJson1 routes).
@simpleRestJson
service SimpleZoo {
    version: "2025-01-01"
    operations: [GetAnimal, SearchAnimals, FeedAnimal, GetTree, Ping, GetShape]
    errors: [ValidationException]
}

/// Streams: a streaming blob and an event stream, on restJson1.
@restJson1
service Streams {
    version: "2025-01-01"
    operations: [Download, Watch]
}

@length(min: 1, max: 20)
string AnimalName

enum Diet {
    HERBIVORE
    CARNIVORE
    OMNIVORE
}

enum Kind {
    MAMMAL
    BIRD
    FISH
}

structure Animal {
    @required
    name: AnimalName

    legs: Integer

    diet: Diet

    born: Timestamp

    tags: Tags

    photo: Blob
}

list Tags {
    member: String
}

map Labels {
    key: String
    value: String
}

list Kinds {
    member: Kind
}

@error("client")
@httpError(404)
structure NotFound {
    @required
    message: String

    @required
    name: String

    /// Filled in by the synthesizer when an example leaves it out.
    @required
    hint: String
}

@error("server")
@httpError(503)
@retryable
structure TooBusy {
    message: String
}

@readonly
@http(method: "GET", uri: "/animals/{name}")
@examples([
    {
        title: "lion"
        input: { name: "lion" }
        output: {
            animal: { name: "lion", legs: 4, diet: "CARNIVORE", born: "2020-02-03T04:05:06Z", tags: ["big", "cat"], photo: "bGlvbg==" }
        }
    }
    {
        title: "lion in detail (never reached: the first example matches first)"
        input: { name: "lion", detail: true }
        output: { animal: { name: "lion", legs: 4 }, notes: "detailed" }
    }
    {
        title: "no unicorns"
        input: { name: "unicorn" }
        error: { shapeId: NotFound, content: { message: "no unicorn here", name: "unicorn" } }
    }
])
operation GetAnimal {
    input := {
        @required
        @httpLabel
        name: AnimalName

        @httpQuery("detail")
        detail: Boolean
    }

    output := {
        @required
        animal: Animal

        notes: String
    }

    errors: [NotFound]
}

structure Region {
    @required
    continent: String

    country: String
}

union Place {
    zoo: String
    wild: Region
}

structure Filter {
    kinds: Kinds
    minLegs: Integer
    where: Place
}

@http(method: "POST", uri: "/search")
@examples([
    {
        title: "four legs or more"
        input: { filter: { minLegs: 4 } }
        output: { names: ["lion", "zebra"], total: 2 }
    }
    {
        title: "birds and fish"
        input: { filter: { kinds: ["BIRD", "FISH"] } }
        output: { names: ["parrot", "trout"], total: 2 }
    }
    {
        title: "red things"
        input: { labels: { color: "red" } }
        output: { names: ["flamingo"], total: 1 }
    }
    {
        title: "wild in Africa"
        input: { filter: { where: { wild: { continent: "Africa" } } } }
        output: { names: ["zebra"], total: 1, ratio: 0.5 }
    }
    {
        title: "in a zoo"
        input: { filter: { where: { zoo: "Berlin" } } }
        output: { names: ["knut"], total: 1 }
    }
    {
        title: "not a number"
        input: { ratio: "NaN" }
        output: { names: ["nan"], total: 0, ratio: "Infinity" }
    }
    {
        title: "too busy"
        input: { page: 99 }
        error: { shapeId: TooBusy, content: { message: "slow down" } }
    }
])
operation SearchAnimals {
    input := {
        filter: Filter
        labels: Labels
        ratio: Double
        page: Integer
    }

    output := {
        @required
        names: Tags

        @required
        total: Integer

        ratio: Double
    }

    errors: [TooBusy]
}

@pattern("^[A-Z]{3}-\\d{2}$")
string FoodCode

@range(min: 5, max: 10)
integer Portion

@length(min: 12)
string LongName

@length(min: 2)
list Colors {
    member: Kind
}

@length(min: 2)
map Counts {
    key: String
    value: Long
}

@length(min: 3, max: 4)
blob Bytes

/// No examples: every answer is synthesized.
@http(method: "POST", uri: "/feed", code: 201)
operation FeedAnimal {
    input := {
        @required
        name: AnimalName
    }

    output := {
        @required
        portion: Portion

        @required
        food: LongName

        @required
        code: FoodCode

        @httpResponseCode
        status: Integer

        @required
        when: Timestamp

        bytes: Bytes

        meta: Document

        colors: Colors

        counts: Counts

        diet: Diet

        place: Place

        @range(min: -3, max: -1)
        chill: Float

        big: BigInteger

        precise: BigDecimal

        tree: Tree
    }
}

/// Recursive: `children` ends empty, `parent` is left out.
structure Tree {
    @required
    value: String

    children: Forest

    parent: Tree
}

list Forest {
    member: Tree
}

@readonly
@http(method: "GET", uri: "/tree")
operation GetTree {
    output := {
        @required
        root: Tree
    }
}

/// One example, no input: answers it always, `at` synthesized.
@http(method: "POST", uri: "/ping")
@examples([{ title: "pong", output: { message: "pong" } }])
operation Ping {
    input := {
        message: String
    }

    output := {
        @required
        message: String

        @required
        at: Timestamp
    }
}

structure Circle {
    @required
    radius: Double
}

structure Square {
    @required
    side: Integer
}

union Shape {
    circle: Circle
    square: Square
}

@readonly
@http(method: "GET", uri: "/shape")
@examples([{ title: "a square", output: { shape: { square: { side: 2 } } } }])
operation GetShape {
    output := {
        @required
        shape: Shape
    }
}

/// Paginated: the fake answers one page (no next token).
@readonly
@paginated(inputToken: "nextToken", outputToken: "nextToken", items: "names")
@http(method: "GET", uri: "/animals")
@examples([{ title: "one page", output: { names: ["lion"], nextToken: "more" } }])
operation ListAnimals {
    input := {
        @httpQuery("nextToken")
        nextToken: String
    }

    output := {
        names: Tags
        nextToken: String
    }
}

@streaming
blob Payload

@readonly
@http(method: "GET", uri: "/download")
operation Download {
    output := {
        @required
        @httpPayload
        data: Payload
    }
}

structure Tick {
    @required
    n: Integer
}

@streaming
union Events {
    tick: Tick
}

/// An example with events: answered as a finite stream, in order (the second
/// tick's required `n` synthesized).
@readonly
@http(method: "GET", uri: "/watch")
@examples([{ title: "two ticks", output: { events: [{ tick: { n: 1 } }, { tick: {} }] } }])
operation Watch {
    output := {
        @httpPayload
        events: Events
    }
}
