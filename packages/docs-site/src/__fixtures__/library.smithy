$version: "2.0"

namespace test.library

use aws.auth#sigv4
use aws.protocols#awsJson1_0
use aws.protocols#restJson1
use smithy.protocols#rpcv2Cbor

/// Books and shelves.
@restJson1
@awsJson1_0
@rpcv2Cbor
@httpBearerAuth
@sigv4(name: "library")
@auth([httpBearerAuth])
@title("Library")
service Library {
    version: "2025-01-31"
    operations: [GetBook, PutCover, ListBooks, Ping, Shelve, DownloadBook]
    errors: [Throttled]
}

/// Reads a book.
@readonly
@http(method: "GET", uri: "/shelves/{shelf}/books/{path+}")
@examples([
    {
        title: "Read Dune"
        input: { shelf: "sf", path: "herbert/dune", since: "2024-06-01T00:00:00Z", tags: ["a", "b"], locale: "en" }
        output: { book: { title: "Dune", pages: 412, published: "1965-08-01T00:00:00Z" }, etag: "v1" }
    }
    {
        title: "Missing"
        input: { shelf: "sf", path: "nobody" }
        error: { shapeId: NoSuchBook, content: { message: "no such book", reason: "gone" } }
    }
])
operation GetBook {
    input := {
        @required
        @httpLabel
        shelf: ShelfName

        @required
        @httpLabel
        path: String

        @httpHeader("If-Modified-Since")
        since: Timestamp

        @httpQuery("tag")
        tags: Tags

        @httpQuery("locale")
        locale: Locale = "en"

        @httpQueryParams
        extra: Labels
    }

    output := {
        @required
        book: Book

        @httpHeader("ETag")
        etag: String

        @httpPrefixHeaders("X-Meta-")
        meta: Labels
    }

    errors: [NoSuchBook]
}

/// Uploads a cover picture.
@idempotent
@http(method: "PUT", uri: "/covers/{id}?kind=front", code: 204)
operation PutCover {
    input := {
        @required
        @httpLabel
        id: String

        @required
        @httpPayload
        image: Image
    }
}

@readonly
@auth([])
@http(method: "GET", uri: "/books")
operation ListBooks {
    input := {
        @httpQuery("pageSize")
        pageSize: Integer
    }

    output := {
        @httpResponseCode
        status: Integer

        @required
        items: BookList
    }
}

/// Checks that the service is up.
@readonly
@optionalAuth
@http(method: "GET", uri: "/ping")
operation Ping {}

/// Puts a book on a shelf.
@http(method: "POST", uri: "/shelves/{shelf}")
operation Shelve {
    input := {
        @required
        @httpLabel
        shelf: ShelfName

        @required
        @httpPayload
        book: Book
    }
}

/// Streams a book's text.
@readonly
@http(method: "GET", uri: "/books/{id}/text")
operation DownloadBook {
    input := {
        @required
        @httpLabel
        id: String
    }

    output := {
        @required
        @httpPayload
        text: BookText
    }
}

@streaming
blob BookText

/// A shelf's name.
@length(min: 1, max: 20)
@pattern("^[a-z]+$")
string ShelfName

@mediaType("image/png")
blob Image

list Tags {
    member: String
}

map Labels {
    key: String
    value: String
}

enum Locale {
    /// English.
    EN = "en"
    FR = "fr"
}

list BookList {
    member: Book
}

/// A book.
structure Book {
    @required
    @jsonName("Title")
    title: String

    @range(min: 1)
    pages: Integer

    pageCount: Long

    published: Timestamp

    @timestampFormat("date-time")
    added: Timestamp

    cover: Blob

    genre: Genre

    related: BookList
}

union Genre {
    fiction: Unit
    topic: String
}

/// The book is not on the shelf.
@error("client")
@httpError(404)
structure NoSuchBook {
    @required
    message: String

    @httpHeader("X-Reason")
    reason: String
}

@error("client")
@retryable(throttling: true)
@httpError(429)
structure Throttled {
    message: String
}
