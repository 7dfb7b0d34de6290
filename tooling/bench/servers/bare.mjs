// The server bench's baseline: bare node:http doing the same JSON work as the
// Anvil server (route check, content type, body limit, JSON.parse, the same
// validation, the handler, JSON.stringify, a JSON error on bad input).
import http from "node:http";
import { createOrder } from "./order-model.mjs";
import { ready } from "./ready.mjs";

const CURRENCIES = new Set(["EUR", "USD", "GBP"]);
const LIMIT = 1 << 20;

const isString = (v, min, max) => typeof v === "string" && v.length >= min && v.length <= max;

/** The input's first constraint violation, or undefined. */
function invalid(b) {
  if (typeof b !== "object" || b === null || Array.isArray(b)) return "body must be an object";
  if (!isString(b.customerId, 1, 64)) return "customerId";
  if (!isString(b.sku, 1, 32)) return "sku";
  if (!Number.isInteger(b.quantity) || b.quantity < 1 || b.quantity > 1000) return "quantity";
  if (typeof b.unitPrice !== "number" || b.unitPrice < 0) return "unitPrice";
  if (!CURRENCIES.has(b.currency)) return "currency";
  if (b.note !== undefined && !isString(b.note, 0, 256)) return "note";
  if (b.giftWrap !== undefined && typeof b.giftWrap !== "boolean") return "giftWrap";
  return undefined;
}

function send(res, status, value) {
  const out = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
  res.end(out);
}

const server = http.createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/orders") return send(res, 404, { message: "not found" });
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) return send(res, 415, { message: "unsupported media type" });
  const chunks = [];
  let size = 0;
  req.on("data", (c) => {
    size += c.length;
    if (size > LIMIT) req.destroy();
    else chunks.push(c);
  });
  req.on("end", () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(res, 400, { message: "malformed JSON" });
    }
    const bad = invalid(body);
    if (bad) return send(res, 400, { message: `invalid ${bad}` });
    send(res, 200, createOrder(body));
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => ready(server.address().port));
