// The server bench's fastify server: the same route, validated by fastify's
// JSON schema (ajv) with the same constraints, answered through its
// schema-compiled serializer.
import Fastify from "fastify";
import { createOrder, createOrderJsonSchema, createOrderOutputJsonSchema } from "./order-model.mjs";
import { ready } from "./ready.mjs";

const app = Fastify({ logger: false });
app.post("/orders", { schema: { body: createOrderJsonSchema, response: { 200: createOrderOutputJsonSchema } } }, async (request) => createOrder(request.body));
await app.listen({ port: 0, host: "127.0.0.1" });
ready(app.server.address().port);
