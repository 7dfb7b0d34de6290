$version: "2.0"

namespace example.weather

use alloy.proto#grpc
use alloy.proto#protoIndex
use smithy.framework#ValidationException

/// Weather's operations over gRPC (alloy.proto#grpc), for peers on a
/// conventional gRPC stack: `anvil proto` writes the `.proto` they compile.
///
/// The operations are the same shapes as Weather's, so the same handler code
/// serves both. The photo operations stay with Weather: their `@streaming`
/// blobs have no gRPC mapping (a gRPC service must stream unions of events).
/// `WatchAlerts` is server streaming here, and `StreamReadings`
/// bidirectional.
@grpc
@title("Weather Service (gRPC)")
@paginated(inputToken: "nextToken", outputToken: "nextToken", pageSize: "pageSize")
service WeatherGrpc {
    version: "2024-06-01"
    operations: [GetCurrentTime, CreateCity, GetCity, ListCities, GetForecast, ReportObservation, WatchAlerts, StreamReadings]
    errors: [ValidationException, ServiceUnavailable]
}

/// Sends a station's readings as they are taken and gets, for each, the
/// alert level it raises in its city (bidirectional streaming: each answer
/// follows its reading, while the station keeps sending).
@examples([
    {
        title: "A hot afternoon in Paris"
        documentation: "The fake answers these levels, in order, then ends the stream."
        output: {
            levels: [
                { level: { cityId: "paris", level: 1 } }
                { level: { cityId: "paris", level: 2 } }
            ]
        }
    }
])
operation StreamReadings {
    input := {
        @required
        @protoIndex(1)
        readings: ReadingEvents
    }

    output := {
        @required
        @protoIndex(1)
        levels: LevelEvents
    }
}

/// A station's readings, one event each.
@streaming
union ReadingEvents {
    @protoIndex(1)
    reading: Reading
}

/// One temperature reading of a city.
structure Reading {
    @required
    @protoIndex(1)
    cityId: CityId

    @required
    @protoIndex(2)
    temperatureC: Double
}

/// The answers to readings, one event each.
@streaming
union LevelEvents {
    @protoIndex(1)
    level: ReadingLevel
}

/// The alert level a reading raises.
structure ReadingLevel {
    @required
    @protoIndex(1)
    cityId: CityId

    @required
    @protoIndex(2)
    level: AlertLevel
}
