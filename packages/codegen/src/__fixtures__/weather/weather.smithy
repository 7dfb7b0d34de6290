$version: "2.0"

namespace example.weather

use alloy.proto#grpc
use alloy.proto#protoIndex
use aws.protocols#restJson1
use smithy.framework#ValidationException
use smithy.protocols#rpcv2Cbor

/// Forecasts and current conditions for cities. A small service for the
/// generator's tests: it declares restJson1, rpcv2Cbor and gRPC.
@restJson1
@rpcv2Cbor
@grpc
@title("Weather Service")
@paginated(inputToken: "nextToken", outputToken: "nextToken", pageSize: "pageSize")
service Weather {
    version: "2024-06-01"
    resources: [City]
    operations: [GetCurrentTime]
    errors: [ValidationException]
}

/// A city whose weather can be looked up.
resource City {
    identifiers: { cityId: CityId }
    properties: { name: String, coordinates: CityCoordinates }
    read: GetCity
    list: ListCities
    resources: [Forecast]
}

/// The daily forecast of a city.
resource Forecast {
    identifiers: { cityId: CityId }
    read: GetForecast
}

/// A city's identifier: lower-case letters, digits and dashes.
@pattern("^[a-z0-9-]+$")
@length(min: 1, max: 64)
string CityId

/// Looks up one city.
@readonly
@http(method: "GET", uri: "/cities/{cityId}")
@examples([
    {
        title: "Look up Seattle"
        input: { cityId: "seattle" }
        output: { name: "Seattle", coordinates: { latitude: 47.6062, longitude: -122.3321 } }
    }
])
operation GetCity {
    input := for City {
        @required
        @httpLabel
        @protoIndex(1)
        $cityId
    }

    output := for City {
        @required
        @protoIndex(1)
        $name

        @required
        @protoIndex(2)
        $coordinates
    }

    errors: [NoSuchCity]
}

/// Lists the known cities, a page at a time.
@readonly
@paginated(items: "items")
@http(method: "GET", uri: "/cities")
operation ListCities {
    input := {
        @httpQuery("nextToken")
        @protoIndex(1)
        nextToken: String

        @httpQuery("pageSize")
        @range(min: 1, max: 100)
        @protoIndex(2)
        pageSize: Integer
    }

    output := {
        @protoIndex(1)
        nextToken: String

        @required
        @protoIndex(2)
        items: CitySummaries
    }
}

/// Returns the forecast of a city for the coming days.
@readonly
@http(method: "GET", uri: "/cities/{cityId}/forecast")
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
        days: DailyForecasts
    }

    errors: [NoSuchCity]
}

/// Returns the server's current time.
@readonly
@http(method: "GET", uri: "/time")
operation GetCurrentTime {
    output := {
        @required
        @protoIndex(1)
        time: Timestamp
    }
}

/// Where a city is.
structure CityCoordinates {
    @required
    @protoIndex(1)
    latitude: Double

    @required
    @protoIndex(2)
    longitude: Double
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
