$version: "2.0"

namespace example.weather

use alloy.proto#protoIndex
use aws.protocols#awsJson1_1
use aws.protocols#restJson1
use smithy.framework#ValidationException
use smithy.protocols#rpcv2Cbor
use smithy.waiters#waitable

/// Cities, their forecasts, weather observations from ground stations, photos
/// and live weather alerts.
///
/// This is Anvil's example service. One model is served over restJson1,
/// awsJson1_1 and rpcv2Cbor at once: a client picks the protocol, the handler
/// code is the same for all three. Alerts stream as an event stream over all
/// three; photos are streaming blobs, which need restJson1: awsJson1_1 and
/// rpcv2Cbor have no binding for them (clients refuse those calls).
///
/// Calls need no credentials (`@auth([])`), except `DeleteCity`, which takes
/// a bearer token. Browsers on other origins may call it (`@cors`).
@restJson1
@awsJson1_1
@rpcv2Cbor
@httpBearerAuth
@auth([])
@cors
@title("Weather Service")
@paginated(inputToken: "nextToken", outputToken: "nextToken", pageSize: "pageSize")
service Weather {
    version: "2024-06-01"
    resources: [City]
    operations: [GetCurrentTime, ReportObservation, WatchAlerts]
    errors: [ValidationException, ServiceUnavailable]
}

/// A city whose weather can be looked up.
resource City {
    identifiers: { cityId: CityId }
    create: CreateCity
    read: GetCity
    delete: DeleteCity
    list: ListCities
    resources: [Forecast, CityPhoto]
}

/// The daily forecast of a city.
resource Forecast {
    identifiers: { cityId: CityId }
    read: GetForecast
}

/// A photo of a city, stored under a path-like key such as `skyline/night.jpg`.
resource CityPhoto {
    identifiers: { cityId: CityId, photoKey: PhotoKey }
    put: PutCityPhoto
    read: GetCityPhoto
}

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

/// Returns the server's current time, in the body and in the standard `Date`
/// header.
@readonly
@http(method: "GET", uri: "/time")
@examples([
    {
        title: "Ask the time"
        output: { time: "2024-06-01T12:00:00Z", date: "2024-06-01T12:00:00Z" }
    }
])
operation GetCurrentTime {
    output := {
        /// The current time.
        @required
        @protoIndex(1)
        time: Timestamp

        /// The same time in the HTTP `Date` header (IMF-fixdate).
        @httpHeader("Date")
        @protoIndex(2)
        date: Timestamp
    }
}

/// Adds a city. The new city's identifier is derived from its name.
@idempotent
@http(method: "PUT", uri: "/cities", code: 201)
@examples([
    {
        title: "Add Lisbon"
        input: {
            name: "Lisbon"
            country: "PT"
            coordinates: { latitude: 38.7223, longitude: -9.1393 }
            population: 545000
            tags: ["coastal", "capital"]
        }
        output: {
            city: {
                cityId: "lisbon"
                name: "Lisbon"
                country: "PT"
                coordinates: { latitude: 38.7223, longitude: -9.1393 }
                population: 545000
                tags: ["coastal", "capital"]
                createdAt: "2024-06-01T12:00:00Z"
            }
            location: "/cities/lisbon"
        }
    }
    {
        title: "A city that exists already"
        input: { name: "Seattle", country: "US", coordinates: { latitude: 47.6062, longitude: -122.3321 } }
        error: {
            shapeId: CityAlreadyExists
            content: { message: "city seattle exists already", cityId: "seattle" }
        }
    }
])
operation CreateCity {
    input := {
        @required
        @protoIndex(1)
        name: CityName

        @required
        @protoIndex(2)
        country: CountryCode

        @required
        @protoIndex(3)
        coordinates: CityCoordinates

        @protoIndex(4)
        population: Population

        /// Labels for the city, sent as a comma-separated `X-City-Tags` header.
        @httpHeader("X-City-Tags")
        @protoIndex(5)
        tags: TagList

        /// Makes a retried call safe: the same token gives the same answer.
        @idempotencyToken
        @httpHeader("X-Client-Token")
        @protoIndex(6)
        clientToken: String
    }

    output := {
        @required
        @protoIndex(1)
        city: CityDetails

        /// Where the new city can be read.
        @httpHeader("Location")
        @protoIndex(2)
        location: String
    }

    errors: [CityAlreadyExists]
}

/// Looks up one city.
@readonly
@http(method: "GET", uri: "/cities/{cityId}")
@waitable(
    CityExists: {
        documentation: "Waits until a city can be looked up: a city added elsewhere shows up here."
        minDelay: 1
        maxDelay: 10
        acceptors: [
            {
                state: "success"
                matcher: {
                    inputOutput: { path: "output.city.cityId == input.cityId", expected: "true", comparator: "booleanEquals" }
                }
            }
            {
                state: "retry"
                matcher: { errorType: "NoSuchCity" }
            }
        ]
    }
)
@examples([
    {
        title: "Look up Seattle"
        input: { cityId: "seattle" }
        output: {
            city: {
                cityId: "seattle"
                name: "Seattle"
                country: "US"
                coordinates: { latitude: 47.6062, longitude: -122.3321 }
                population: 737015
                tags: ["coastal", "rainy"]
                createdAt: "2024-01-01T00:00:00Z"
            }
            lastModified: "2024-01-01T00:00:00Z"
        }
    }
    {
        title: "An unknown city"
        input: { cityId: "atlantis" }
        error: {
            shapeId: NoSuchCity
            content: { message: "no city atlantis", cityId: "atlantis" }
        }
    }
])
operation GetCity {
    input := for City {
        @required
        @httpLabel
        @protoIndex(1)
        $cityId
    }

    output := {
        @required
        @protoIndex(1)
        city: CityDetails

        /// When the city's record last changed, as an HTTP date.
        @httpHeader("Last-Modified")
        @protoIndex(2)
        lastModified: Timestamp
    }

    errors: [NoSuchCity]
}

/// Removes a city. Takes a bearer token (`Authorization: Bearer <token>`);
/// `npm start` prints the one the example's server accepts.
@idempotent
@auth([httpBearerAuth])
@http(method: "DELETE", uri: "/cities/{cityId}", code: 204)
@examples([
    {
        title: "Remove Tokyo"
        input: { cityId: "tokyo" }
    }
    {
        title: "An unknown city"
        input: { cityId: "atlantis" }
        error: {
            shapeId: NoSuchCity
            content: { message: "no city atlantis", cityId: "atlantis" }
        }
    }
])
operation DeleteCity {
    input := for City {
        @required
        @httpLabel
        $cityId
    }

    output := {}

    errors: [NoSuchCity]
}

/// Lists the known cities, a page at a time, optionally filtered.
///
/// Any query parameter besides the documented ones filters on a city's
/// attributes (`?country=US`).
@readonly
@paginated(items: "items")
@http(method: "GET", uri: "/cities")
@examples([
    {
        title: "The first two cities"
        input: { pageSize: 2 }
        output: {
            items: [{ cityId: "paris", name: "Paris" }, { cityId: "reykjavik", name: "Reykjavík" }]
            nextToken: "2"
            totalCount: 4
        }
    }
    {
        title: "The next two cities"
        documentation: "The page after the first: the fake's paginator follows the token from one example to the other."
        input: { pageSize: 2, nextToken: "2" }
        output: {
            items: [{ cityId: "seattle", name: "Seattle" }, { cityId: "tokyo", name: "Tokyo" }]
            totalCount: 4
        }
    }
    {
        title: "Cities tagged coastal in the US"
        input: { tags: ["coastal"], filters: { country: "US" } }
        output: { items: [{ cityId: "seattle", name: "Seattle" }], totalCount: 1 }
    }
])
operation ListCities {
    input := {
        /// Where the previous page ended.
        @httpQuery("nextToken")
        @protoIndex(1)
        nextToken: String

        /// How many cities a page holds at most (1 to 100).
        @httpQuery("pageSize")
        @range(min: 1, max: 100)
        @protoIndex(2)
        pageSize: Integer

        /// Only cities with all these tags (`?tag=coastal&tag=capital`).
        @httpQuery("tag")
        @protoIndex(3)
        tags: TagList

        /// Attribute filters (`country`).
        @httpQueryParams
        @protoIndex(4)
        filters: StringMap
    }

    output := {
        @protoIndex(1)
        nextToken: String

        @required
        @protoIndex(2)
        items: CitySummaries

        /// How many cities match, over all pages.
        @httpHeader("X-Total-Count")
        @protoIndex(3)
        totalCount: Integer
    }
}

/// Returns the forecast of a city for the coming days.
@readonly
@http(method: "GET", uri: "/cities/{cityId}/forecast")
@examples([
    {
        title: "Tomorrow in Paris"
        input: { cityId: "paris", days: 1 }
        output: {
            cityId: "paris"
            days: [
                {
                    date: "2024-06-02T00:00:00Z"
                    highC: 24.5
                    lowC: 14.0
                    sky: "CLEAR"
                    precipitation: { none: {} }
                    alertLevel: 1
                }
            ]
        }
    }
])
operation GetForecast {
    input := for Forecast {
        @required
        @httpLabel
        @protoIndex(1)
        $cityId

        /// How many days to forecast (1 to 10).
        @httpQuery("days")
        @range(min: 1, max: 10)
        @protoIndex(2)
        days: Integer = 3
    }

    output := {
        @required
        @protoIndex(1)
        cityId: CityId

        @required
        @protoIndex(2)
        days: DailyForecasts
    }

    errors: [NoSuchCity]
}

/// Stores a photo of a city. The body is streamed to storage as it arrives.
@idempotent
@http(method: "PUT", uri: "/cities/{cityId}/photos/{photoKey+}")
@examples([
    {
        title: "Upload a skyline"
        input: { cityId: "seattle", photoKey: "skyline/night.jpg", contentType: "image/jpeg", body: "/9j/4AAQ" }
        output: { size: 6, etag: "\"6-c8f1\"" }
    }
])
operation PutCityPhoto {
    input := for CityPhoto {
        @required
        @httpLabel
        @protoIndex(1)
        $cityId

        @required
        @httpLabel
        @protoIndex(2)
        $photoKey

        @httpHeader("Content-Type")
        @protoIndex(3)
        contentType: ImageType

        /// Free-form labels, sent as `X-Photo-Meta-<name>` headers.
        @httpPrefixHeaders("X-Photo-Meta-")
        @protoIndex(4)
        metadata: StringMap

        @required
        @httpPayload
        @protoIndex(5)
        body: PhotoData
    }

    output := {
        /// Bytes stored.
        @required
        @protoIndex(1)
        size: Long

        @httpHeader("ETag")
        @protoIndex(2)
        etag: String
    }

    errors: [NoSuchCity]
}

/// Downloads a photo of a city, streamed from storage.
@readonly
@http(method: "GET", uri: "/cities/{cityId}/photos/{photoKey+}")
@examples([
    {
        title: "Fetch a skyline"
        input: { cityId: "seattle", photoKey: "skyline/night.jpg" }
        output: { contentType: "image/jpeg", body: "/9j/4AAQ", metadata: { photographer: "ana" } }
    }
])
operation GetCityPhoto {
    input := for CityPhoto {
        @required
        @httpLabel
        @protoIndex(1)
        $cityId

        @required
        @httpLabel
        @protoIndex(2)
        $photoKey
    }

    output := {
        @httpHeader("Content-Type")
        @protoIndex(1)
        contentType: ImageType

        @httpPrefixHeaders("X-Photo-Meta-")
        @protoIndex(2)
        metadata: StringMap

        @required
        @httpPayload
        @protoIndex(3)
        body: PhotoData
    }

    errors: [NoSuchCity, NoSuchPhoto]
}

/// Records what a ground station measured in a city. The first reading of a
/// station is answered `201 Created`, later ones `200 OK`.
@http(method: "POST", uri: "/cities/{cityId}/observations")
@examples([
    {
        title: "A sunny reading"
        input: {
            cityId: "paris"
            stationId: "PAR-01"
            observedAt: "2024-06-01T12:00:00Z"
            observation: {
                temperatureC: 21.5
                sky: "CLEAR"
                readings: { humidity: 0.41, windKph: 12.0 }
                raw: "AQID"
                extras: { firmware: "2.1", calibrated: true }
            }
        }
        output: { status: 201, observationId: "paris-1", receivedAt: 1717243200 }
    }
])
operation ReportObservation {
    input := {
        @required
        @httpLabel
        @protoIndex(1)
        cityId: CityId

        /// The reporting station.
        @required
        @httpHeader("X-Station-Id")
        @length(min: 3, max: 16)
        @protoIndex(2)
        stationId: String

        /// When the station measured, as an HTTP date.
        @httpHeader("X-Observed-At")
        @protoIndex(3)
        observedAt: Timestamp

        @required
        @httpPayload
        @protoIndex(4)
        observation: Observation
    }

    output := {
        /// 201 for a station's first reading, 200 after.
        @httpResponseCode
        @protoIndex(1)
        status: Integer

        @required
        @protoIndex(2)
        observationId: String

        /// When the server stored the reading, in seconds since the epoch.
        @required
        @timestampFormat("epoch-seconds")
        @protoIndex(3)
        receivedAt: Timestamp
    }

    errors: [NoSuchCity]
}

/// Streams the weather alerts of a city as they are issued: an alert event
/// per alert, and a heartbeat while nothing happens. Needs restJson1.
@readonly
@http(method: "GET", uri: "/cities/{cityId}/alerts")
@examples([
    {
        title: "A storm over Seattle"
        documentation: "The fake answers these events, in order, then ends the stream."
        input: { cityId: "seattle" }
        output: {
            events: [
                { heartbeat: { at: "2024-06-01T12:00:00Z" } }
                { alert: { level: 3, headline: "Storm warning", issuedAt: "2024-06-01T12:00:05Z" } }
            ]
        }
    }
])
operation WatchAlerts {
    input := {
        @required
        @httpLabel
        @protoIndex(1)
        cityId: CityId

        /// Alerts below this level are left out.
        @httpQuery("minLevel")
        @protoIndex(2)
        minLevel: AlertLevel
    }

    output := {
        @required
        @httpPayload
        @protoIndex(1)
        events: AlertEvents
    }

    errors: [NoSuchCity]
}

// ---------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------

/// A city's identifier: lower-case letters, digits and dashes.
@pattern("^[a-z0-9-]+$")
@length(min: 1, max: 64)
string CityId

/// A city's display name.
@length(min: 1, max: 100)
string CityName

/// An ISO 3166-1 alpha-2 country code.
@pattern("^[A-Z]{2}$")
string CountryCode

/// How many people live in a city.
@range(min: 0)
long Population

/// A photo's key: a path of one or more segments.
@pattern("^[A-Za-z0-9._/-]+$")
@length(min: 1, max: 256)
string PhotoKey

/// A photo's bytes.
@streaming
blob PhotoData

/// The media types photos may have.
enum ImageType {
    JPEG = "image/jpeg"
    PNG = "image/png"
    WEBP = "image/webp"
}

/// A city's labels, each given once.
@uniqueItems
list TagList {
    @length(min: 1, max: 32)
    member: String
}

map StringMap {
    key: String
    value: String
}

/// Where a city is.
structure CityCoordinates {
    @required
    @range(min: -90, max: 90)
    @protoIndex(1)
    latitude: Double

    @required
    @range(min: -180, max: 180)
    @protoIndex(2)
    longitude: Double
}

/// Everything known about a city.
structure CityDetails for City {
    @required
    @protoIndex(1)
    $cityId

    @required
    @protoIndex(2)
    name: CityName

    @required
    @protoIndex(3)
    country: CountryCode

    @required
    @protoIndex(4)
    coordinates: CityCoordinates

    @protoIndex(5)
    population: Population

    @protoIndex(6)
    tags: TagList

    /// When the city was added.
    @required
    @protoIndex(7)
    createdAt: Timestamp
}

/// A city in a listing.
structure CitySummary {
    @required
    @protoIndex(1)
    cityId: CityId

    @required
    @protoIndex(2)
    name: String
}

list CitySummaries {
    member: CitySummary
}

/// One day of a forecast.
structure DailyForecast {
    @required
    @protoIndex(1)
    date: Timestamp

    /// Highest temperature, in degrees Celsius.
    @required
    @protoIndex(2)
    highC: Float

    /// Lowest temperature, in degrees Celsius.
    @required
    @protoIndex(3)
    lowC: Float

    @required
    @protoIndex(4)
    sky: Sky

    @required
    @protoIndex(5)
    precipitation: Precipitation

    @required
    @protoIndex(6)
    alertLevel: AlertLevel
}

list DailyForecasts {
    member: DailyForecast
}

/// What the sky looks like.
enum Sky {
    CLEAR
    CLOUDY
    RAIN
    SNOW
}

/// How serious an alert is, from 1 (nothing to report) to 4.
intEnum AlertLevel {
    GREEN = 1
    YELLOW = 2
    ORANGE = 3
    RED = 4
}

/// What falls from the sky, if anything.
union Precipitation {
    /// Dry.
    @protoIndex(1)
    none: NoPrecipitation

    /// Rain, in millimetres.
    @protoIndex(2)
    rainMm: Float

    /// Snow, in centimetres.
    @protoIndex(3)
    snowCm: Float
}

/// No precipitation.
structure NoPrecipitation {}

/// One reading of a ground station.
structure Observation {
    /// Air temperature, in degrees Celsius.
    @required
    @range(min: -90, max: 60)
    @protoIndex(1)
    temperatureC: Float

    @required
    @protoIndex(2)
    sky: Sky

    /// Further measurements by name (`humidity`, `windKph`, ...).
    @protoIndex(3)
    readings: Readings

    /// The station's raw message.
    @protoIndex(4)
    raw: Blob

    /// Station-specific data, kept as it is.
    @protoIndex(5)
    extras: Document
}

map Readings {
    key: String
    value: Double
}

/// Alerts as they are issued.
@streaming
union AlertEvents {
    @protoIndex(1)
    alert: Alert

    @protoIndex(2)
    heartbeat: Heartbeat
}

/// A weather alert.
structure Alert {
    @required
    @protoIndex(1)
    level: AlertLevel

    @required
    @protoIndex(2)
    headline: String

    @required
    @protoIndex(3)
    issuedAt: Timestamp
}

/// Sent while there is nothing to report.
structure Heartbeat {
    @required
    @protoIndex(1)
    at: Timestamp
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// The city does not exist.
@error("client")
@httpError(404)
structure NoSuchCity {
    @required
    @protoIndex(1)
    message: String

    @protoIndex(2)
    cityId: CityId
}

/// The city has no photo under that key.
@error("client")
@httpError(404)
structure NoSuchPhoto {
    @required
    @protoIndex(1)
    message: String

    @protoIndex(2)
    photoKey: PhotoKey
}

/// A city with that identifier exists already.
@error("client")
@httpError(409)
structure CityAlreadyExists {
    @required
    @protoIndex(1)
    message: String

    @required
    @protoIndex(2)
    cityId: CityId
}

/// The service is down for maintenance; try again later.
@error("server")
@httpError(503)
structure ServiceUnavailable {
    @required
    @protoIndex(1)
    message: String

    /// Seconds until the service is expected back.
    @httpHeader("Retry-After")
    @protoIndex(2)
    retryAfterSeconds: Integer
}
