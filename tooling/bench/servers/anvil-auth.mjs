// anvil.mjs with what production adds per call: bearer authentication from the model (@httpBearerAuth) and one
// interceptor around the handler. BENCH_SERVERS=anvil,anvil-auth measures what they cost.
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { createOrder, Orders } from "./order-model.mjs";
import { ready } from "./ready.mjs";

let calls = 0;
const server = createServer(Orders, {
  protocols: [restJson1()],
  auth: { bearer: (token) => (token === "bench-token" ? { id: "bench" } : undefined) },
  interceptors: [
    (next) => (call) => {
      calls++;
      return next(call);
    },
  ],
})
  .register({ createOrder: async (input) => createOrder(input) })
  .mapService();
const listener = await listen(server, { port: 0 });
ready(listener.port);
process.on("exit", () => calls);
