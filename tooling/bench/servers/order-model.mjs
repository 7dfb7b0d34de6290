// The bench service: one restJson1 operation, `POST /orders`, whose input
// carries the constraints every server of the server bench checks.
import { boolean, double, enumeration, integer, member, operation, service, string, struct } from "@anvil/core/codegenv1";

const Currency = enumeration("bench#Currency", [
  { name: "EUR", value: "EUR" },
  { name: "USD", value: "USD" },
  { name: "GBP", value: "GBP" },
]);

const CreateOrderInput = struct("bench#CreateOrderInput", [
  member("customerId", string, { required: true, length: { min: 1, max: 64 } }),
  member("sku", string, { required: true, length: { min: 1, max: 32 } }),
  member("quantity", integer, { required: true, range: { min: 1, max: 1000 } }),
  member("unitPrice", double, { required: true, range: { min: 0 } }),
  member("currency", Currency, { required: true }),
  member("note", string, { length: { max: 256 } }),
  member("giftWrap", boolean),
]);

const CreateOrderOutput = struct("bench#CreateOrderOutput", [
  member("orderId", string, { required: true }),
  member("customerId", string, { required: true }),
  member("sku", string, { required: true }),
  member("quantity", integer, { required: true }),
  member("total", double, { required: true }),
  member("currency", Currency, { required: true }),
  member("status", string, { required: true }),
]);

/** The service schema, as `anvil generate` would write it. */
export const Orders = service("bench#Orders", {
  version: "1",
  protocols: ["aws.protocols#restJson1"],
  // Enforced only by servers given a verifier (anvil-auth.mjs); the others ignore it, as they ignore the token wrk sends.
  auth: ["smithy.api#httpBearerAuth"],
  operations: {
    createOrder: operation("bench#CreateOrder", {
      input: () => CreateOrderInput,
      output: () => CreateOrderOutput,
      traits: { http: { method: "POST", uri: "/orders", code: 200 } },
    }),
  },
});

/** The same constraints as a JSON schema (what fastify validates with). */
export const createOrderJsonSchema = {
  type: "object",
  required: ["customerId", "sku", "quantity", "unitPrice", "currency"],
  properties: {
    customerId: { type: "string", minLength: 1, maxLength: 64 },
    sku: { type: "string", minLength: 1, maxLength: 32 },
    quantity: { type: "integer", minimum: 1, maximum: 1000 },
    unitPrice: { type: "number", minimum: 0 },
    currency: { type: "string", enum: ["EUR", "USD", "GBP"] },
    note: { type: "string", maxLength: 256 },
    giftWrap: { type: "boolean" },
  },
};

/** The answer's JSON schema (fastify serializes with it). */
export const createOrderOutputJsonSchema = {
  type: "object",
  required: ["orderId", "customerId", "sku", "quantity", "total", "currency", "status"],
  properties: {
    orderId: { type: "string" },
    customerId: { type: "string" },
    sku: { type: "string" },
    quantity: { type: "integer" },
    total: { type: "number" },
    currency: { type: "string" },
    status: { type: "string" },
  },
};

/** The handler's work, shared by the three servers: touch a few fields, answer. */
let next = 0;
export function createOrder(input) {
  return {
    orderId: `ord-${++next}`,
    customerId: input.customerId,
    sku: input.sku,
    quantity: input.quantity,
    total: Math.round(input.quantity * input.unitPrice * 100) / 100,
    currency: input.currency,
    status: input.giftWrap ? "PENDING_GIFT_WRAP" : "PENDING",
  };
}
