/**
 * Starts the example: Weather (restJson1, awsJson1_1, rpcv2Cbor) on
 * 127.0.0.1:8080, WeatherGrpc (gRPC over h2c) on the next port and
 * SimpleWeather (simpleRestJson) on the one after. `PORT` and `HOST`
 * override the address. The REST servers serve their documentation at
 * /openapi (explorer), /openapi.json and /docs; `--no-docs` turns them off.
 * With `--fake` (`npm start -- --fake`) every server answers from the
 * generated fake (the model's @examples) instead of the handlers and their
 * store. `DeleteCity` takes a bearer token: `WEATHER_TOKEN`, else
 * `demo-token`. Every call is logged, one line each (`--json-logs`: one
 * JSON object each). `/healthz` and `/readyz` answer on the REST ports;
 * gRPC's health service and server reflection on the gRPC port.
 * Ctrl-C (or SIGTERM) stops it gracefully.
 */
import { formatAccessLog } from "@anvil/server";
import { closeOnSignal, listen } from "@anvil/server/node";
import { ExampleFake } from "./fake.js";
import { createWeatherHandler } from "./handlers.js";
import { CLOSE_GRACE_MS, createWeatherServers, DEMO_TOKEN, LAME_DUCK_MS } from "./server.js";
import { createStore } from "./store.js";

const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 8080);

const docs = !process.argv.includes("--no-docs");
const fake = process.argv.includes("--fake");

const token = process.env.WEATHER_TOKEN || DEMO_TOKEN;

const json = process.argv.includes("--json-logs");
// One line per call, for people; one JSON object per call with --json-logs (for pino, jq, a log shipper).
const accessLog = json
  ? (entry: object) => console.log(JSON.stringify(entry))
  : (entry: Parameters<typeof formatAccessLog>[0]) => console.log(formatAccessLog(entry));

const servers = createWeatherServers(fake ? new ExampleFake() : createWeatherHandler(createStore()), { docs, token, accessLog });
const weather = await listen(servers.weather, { host, port });
const weatherGrpc = await listen(servers.weatherGrpc, { host, port: port === 0 ? 0 : port + 1, http2: true });
const simple = await listen(servers.simpleWeather, { host, port: port === 0 ? 0 : port + 2 });
const grpcAddress = weatherGrpc.url.replace("http://", "");

console.log(`${fake ? "Answering from the generated fake (the model's @examples), not the handlers.\n" : ""}Weather service (restJson1, awsJson1_1, rpcv2Cbor)   ${weather.url}
WeatherGrpc service (alloy.proto#grpc, h2c)           ${weatherGrpc.url}
SimpleWeather service (alloy#simpleRestJson)          ${simple.url}
${
  docs
    ? `
API explorer      ${weather.url}/openapi   (OpenAPI document: ${weather.url}/openapi.json)
Reference docs    ${weather.url}/docs/      (--no-docs turns both off)
`
    : ""
}
Try:
  curl -s ${weather.url}/cities/seattle
  curl -s '${weather.url}/cities?pageSize=2&tag=capital'
  curl -s ${weather.url}/cities/paris/forecast?days=2
  curl -s -N -H 'Accept: text/event-stream' ${weather.url}/cities/reykjavik/alerts   # live alerts as Server-Sent Events (EventSource reads them too)
  curl -s -X POST ${weather.url}/ -H 'content-type: application/x-amz-json-1.1' -H 'x-amz-target: Weather.GetCity' -d '{"cityId":"tokyo"}'
  curl -s -i ${simple.url}/cities/atlantis
  curl -s -i -X DELETE ${weather.url}/cities/tokyo                                  # 401: DeleteCity takes a bearer token
  curl -s -i -X DELETE ${weather.url}/cities/tokyo -H 'authorization: Bearer ${token}'   # 204 (WEATHER_TOKEN sets the token)
  curl -s ${weather.url}/healthz                                     # liveness
  curl -s ${weather.url}/readyz                                      # readiness: 503 while stopping
  grpcurl -plaintext ${grpcAddress} list                                      # the gRPC services, by server reflection
  grpcurl -plaintext -d '{"cityId":"paris"}' ${grpcAddress} example.weather.WeatherGrpc/GetCity
  grpcurl -plaintext ${grpcAddress} grpc.health.v1.Health/Check              # {"status": "SERVING"}; NOT_SERVING while stopping
  npm run anvil -- proto --model apps/example/model --service example.weather#WeatherGrpc --out weather.proto   # the .proto, for a grpc-js client
  ${port === 8080 && host === "127.0.0.1" ? "" : `HOST=${host} PORT=${port} `}npm run demo --prefix apps/example   # a typed client calls every operation over every protocol

Ctrl-C stops.`);

// SIGTERM or Ctrl-C: readiness turns 503 and gRPC health NOT_SERVING, calls in flight get 5 s, then the process ends;
// a second signal ends it at once. On SIGTERM (an orchestrator or a load balancer's host), open connections are
// served for up to 4 s more (the lame duck), so that calls already sent to this instance are not lost.
closeOnSignal([weather, weatherGrpc, simple], {
  graceMs: CLOSE_GRACE_MS,
  lameDuckMs: LAME_DUCK_MS,
  onSignal: () => console.log(`\nstopping (calls in flight get ${CLOSE_GRACE_MS / 1000} s)…`),
  onClosed: () => process.exit(0),
});
