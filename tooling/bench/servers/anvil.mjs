// The server bench's Anvil server: @anvil/server + restJson1 on node:http.
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { createOrder, Orders } from "./order-model.mjs";
import { ready } from "./ready.mjs";

const server = createServer(Orders, { protocols: [restJson1()] })
  .register({ createOrder: async (input) => createOrder(input) })
  .mapService();
const listener = await listen(server, { port: 0 });
ready(listener.port);
