/**
 * A small model with one of every protocol test trait, for the unit tests
 * of the case extraction and params conversion.
 *
 * @internal
 */
import { loadModel, type Model } from "@anvil/model";

export const FIXTURE_IDL = String.raw`
$version: "2.0"

namespace test.cases

use aws.protocols#restJson1
use smithy.test#eventStreamTests
use smithy.test#httpMalformedRequestTests
use smithy.test#httpRequestTests
use smithy.test#httpResponseTests

@restJson1
service Svc {
    operations: [Put, Stream]
    errors: [Oops]
}

@http(method: "POST", uri: "/put/{label}")
@httpRequestTests([
    {
        id: "PutAll"
        protocol: restJson1
        method: "POST"
        uri: "/put/a"
        host: "example.com"
        resolvedHost: "x.example.com"
        queryParams: ["q=1"]
        forbidQueryParams: ["f"]
        requireQueryParams: ["r"]
        headers: { "X-A": "a" }
        forbidHeaders: ["X-F"]
        requireHeaders: ["X-R"]
        body: "{}"
        bodyMediaType: "application/json"
        params: { label: "a", blob: "hi", when: 1.5, choice: { n: 1 }, items: ["x"], doc: { any: [1] } }
        vendorParams: { region: "x" }
        documentation: "doc"
        tags: ["t"]
        appliesTo: "client"
    }
    { id: "PutMinimal", protocol: restJson1, method: "POST", uri: "/put/b", params: { label: "b" } }
])
@httpResponseTests([
    { id: "PutOk", protocol: restJson1, code: 200, appliesTo: "server", params: { out: "o" } }
])
@httpMalformedRequestTests([
    {
        id: "PutBad"
        protocol: restJson1
        request: {
            method: "POST"
            uri: "/put/$label:L"
            host: "h$$"
            queryParams: ["q=$value:L"]
            headers: { "X-$label:L": "$value:S" }
            body: "{ \"n\": $value:L }"
            bodyMediaType: "application/json"
        }
        response: {
            code: 400
            headers: { "X-Error": "$label:L" }
            body: { mediaType: "application/json", assertion: { messageRegex: "bad $value:L$$" } }
        }
        documentation: "doc $label:L"
        tags: ["t-$label:L"]
        testParameters: { label: ["a", "b"], value: ["1", "x\"y"] }
    }
    {
        id: "PutBadPlain"
        protocol: restJson1
        request: { method: "POST", uri: "/put/c", body: "cost: $$5" }
        response: { code: 400, body: { mediaType: "application/json", assertion: { contents: "{}" } } }
    }
])
operation Put {
    input := {
        @required
        @httpLabel
        label: String
        blob: Blob
        when: Timestamp
        choice: Choice
        items: Items
        doc: Document
        stream: Bytes
    }
    output := {
        out: String
    }
}

@streaming
blob Bytes

union Choice {
    n: Integer
    b: Blob
}

list Items {
    member: String
}

@http(method: "POST", uri: "/stream")
@eventStreamTests([
    {
        id: "StreamCase"
        protocol: restJson1
        initialRequestParams: { name: "n" }
        events: [
            {
                type: "request"
                params: { ping: { text: "hi", data: "raw" } }
                headers: { ":event-type": { string: "ping" }, flag: { boolean: true } }
                body: "hi"
                bytes: "AAAA"
            }
            { type: "request" }
        ]
        expectation: { failure: { errorId: Oops } }
        appliesTo: "server"
    }
])
operation Stream {
    input := {
        @httpHeader("x-name")
        name: String

        @httpPayload
        events: Events
    }
}

@streaming
union Events {
    ping: Ping
}

structure Ping {
    @eventHeader
    text: String

    @eventPayload
    data: Blob
}

@error("client")
@httpError(400)
@httpResponseTests([
    { id: "OopsCase", protocol: restJson1, code: 400, params: { message: "m", payload: "p" }, appliesTo: "client" }
])
structure Oops {
    message: String
    payload: Blob
}
`;

/** The fixture model, loaded with Anvil's bundled traits. Throws on load errors. */
export function loadFixture(): Model {
  const { model, events } = loadModel({ sources: [{ file: "fixture.smithy", text: FIXTURE_IDL }] });
  const errors = events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
  if (errors.length > 0) throw new Error(`fixture model: ${errors.map((e) => e.message).join("\n")}`);
  return model;
}
