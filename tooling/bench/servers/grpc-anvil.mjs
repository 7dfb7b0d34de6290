// The gRPC bench's Anvil server: @anvil/server + @anvil/protocol-grpc on h2c.
import { grpc } from "@anvil/protocol-grpc";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { Greeter, sayHello } from "./greeter-model.mjs";
import { ready } from "./ready.mjs";

const server = createServer(Greeter, { protocols: [grpc()] })
  .register({ sayHello: async (input) => sayHello(input) })
  .mapService();
const listener = await listen(server, { port: 0, http2: true });
ready(listener.port);
