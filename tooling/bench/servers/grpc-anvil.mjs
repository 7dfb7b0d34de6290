// The gRPC bench's Anvil server: @anvil/server + @anvil/protocol-grpc on h2c.
import { grpc } from "@anvil/protocol-grpc";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { Greeter, sayHello } from "./greeter-model.mjs";
import { ready } from "./ready.mjs";

// The handler answers at once, as grpc-js's does (its callback is called before it returns).
const server = createServer(Greeter, { protocols: [grpc()] })
  .register({ sayHello: (input) => sayHello(input) })
  .mapService();
const listener = await listen(server, { port: 0, http2: true });
ready(listener.port);
