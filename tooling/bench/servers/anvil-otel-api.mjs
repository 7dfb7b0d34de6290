// anvil.mjs with OpenTelemetry on and no SDK registered: what a library that ships serverTelemetry() costs an
// application that never set up OpenTelemetry (the API's no-op tracer, meter and propagator).
import { serverTelemetry } from "@anvil/opentelemetry";
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { createOrder, Orders } from "./order-model.mjs";
import { ready } from "./ready.mjs";

const server = createServer(Orders, { protocols: [restJson1()], interceptors: [serverTelemetry()] })
  .register({ createOrder: async (input) => createOrder(input) })
  .mapService();
const listener = await listen(server, { port: 0 });
ready(listener.port);
