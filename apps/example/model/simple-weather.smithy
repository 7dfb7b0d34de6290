$version: "2.0"

namespace example.weather

use alloy#simpleRestJson
use smithy.framework#ValidationException

/// The city and forecast look-ups of `Weather`, on alloy#simpleRestJson
/// for peers in the alloy/smithy4s ecosystem.
///
/// The operations are the same shapes as Weather's, so the same handler code
/// serves both services: only the protocol trait differs, and with it the
/// wire (`X-Error-Type` instead of `X-Amzn-Errortype`, no awsJson1_1 or
/// rpcv2Cbor routes).
@simpleRestJson
@title("Weather Service (simpleRestJson)")
@paginated(inputToken: "nextToken", outputToken: "nextToken", pageSize: "pageSize")
service SimpleWeather {
    version: "2024-06-01"
    operations: [GetCurrentTime, CreateCity, GetCity, ListCities, GetForecast]
    errors: [ValidationException, ServiceUnavailable]
}
