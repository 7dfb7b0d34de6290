// anvil.mjs with one request hook that does nothing but call on: what the request hooks themselves cost
// (the otel bench's floor for serverTelemetry(), which is request hooks).
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { createOrder, Orders } from "./order-model.mjs";
import { ready } from "./ready.mjs";

const server = createServer(Orders, { protocols: [restJson1()], interceptors: [{ aroundRequest: (_call, next) => next() }] })
  .register({ createOrder: async (input) => createOrder(input) })
  .mapService();
const listener = await listen(server, { port: 0 });
ready(listener.port);
