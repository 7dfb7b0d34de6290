// The soak bench's service: a small inventory, declared on every protocol the
// serve stack speaks (restJson1, simpleRestJson, awsJson1_0, awsJson1_1,
// rpcv2Cbor, rpcv2Json, gRPC), as `anvil generate` would write it. Its
// operations cover labels and query strings, JSON bodies of a few hundred
// bytes to a few KiB, lists, maps, timestamps, enums and a modeled error.
import { boolean, double, enumeration, errorClass, integer, list, map, member, operation, service, string, struct, timestamp } from "@anvil/core/codegenv1";

/** Every protocol of the service, in the order servers are grouped by (see soak-anvil.mjs). */
export const SOAK_PROTOCOLS = [
  "aws.protocols#restJson1",
  "aws.protocols#awsJson1_0",
  "aws.protocols#awsJson1_1",
  "smithy.protocols#rpcv2Cbor",
  "smithy.protocols#rpcv2Json",
  "alloy#simpleRestJson",
  "alloy.proto#grpc",
];

const Kind = enumeration("soak#Kind", [
  { name: "TOOL", value: "TOOL" },
  { name: "PART", value: "PART" },
  { name: "KIT", value: "KIT" },
]);
const Tags = list("soak#Tags", member("member", string));
const Attributes = map("soak#Attributes", member("key", string), member("value", string));

const itemMembers = (label) => [
  member("id", string, { required: true, protoIndex: 1, length: { min: 1, max: 64 }, ...(label ? { httpLabel: true } : {}) }),
  member("name", string, { required: true, protoIndex: 2, length: { min: 1, max: 128 } }),
  member("kind", Kind, { required: true, protoIndex: 3 }),
  member("quantity", integer, { required: true, protoIndex: 4, range: { min: 0, max: 1_000_000 } }),
  member("price", double, { protoIndex: 5, range: { min: 0 } }),
  member("tags", Tags, { protoIndex: 6 }),
  member("attributes", Attributes, { protoIndex: 7 }),
  member("updatedAt", timestamp, { protoIndex: 8 }),
  member("notes", string, { protoIndex: 9, length: { max: 16_384 } }),
];
const Item = struct("soak#Item", itemMembers(false));

const GetItemInput = struct("soak#GetItemInput", [
  member("id", string, { required: true, httpLabel: true, protoIndex: 1, length: { min: 1, max: 64 } }),
  member("withNotes", boolean, { httpQuery: "withNotes", protoIndex: 2 }),
]);
const PutItemInput = struct("soak#PutItemInput", itemMembers(true));
const ListItemsInput = struct("soak#ListItemsInput", [
  member("limit", integer, { httpQuery: "limit", protoIndex: 1, range: { min: 1, max: 50 } }),
  member("tag", Tags, { httpQuery: "tag", protoIndex: 2 }),
  member("after", string, { httpQuery: "after", protoIndex: 3 }),
]);
const ListItemsOutput = struct("soak#ListItemsOutput", [
  member("items", list("soak#Items", member("member", Item)), { required: true, protoIndex: 1 }),
  member("next", string, { protoIndex: 2 }),
]);

const NoSuchItemSchema = struct("soak#NoSuchItem", [member("message", string, { protoIndex: 1 }), member("id", string, { required: true, protoIndex: 2 })], {
  error: "client",
  httpError: 404,
});
/** The modeled error of a missing item (an expected answer, not a failure). */
export const NoSuchItem = errorClass(NoSuchItemSchema);

/** The service schema. */
export const Inventory = service("soak#Inventory", {
  version: "1",
  protocols: SOAK_PROTOCOLS,
  operations: {
    getItem: operation("soak#GetItem", {
      input: () => GetItemInput,
      output: () => Item,
      errors: [() => NoSuchItemSchema],
      traits: { readonly: true, http: { method: "GET", uri: "/items/{id}", code: 200 } },
    }),
    putItem: operation("soak#PutItem", {
      input: () => PutItemInput,
      output: () => Item,
      traits: { idempotent: true, http: { method: "PUT", uri: "/items/{id}", code: 200 } },
    }),
    listItems: operation("soak#ListItems", {
      input: () => ListItemsInput,
      output: () => ListItemsOutput,
      traits: { readonly: true, http: { method: "GET", uri: "/items", code: 200 } },
    }),
  },
});

/** Ids the handler answers NoSuchItem for. */
export const MISSING_PREFIX = "missing-";

const KINDS = ["TOOL", "PART", "KIT"];
const NOTES = "Keep dry. Check the seals before use; replace the gasket every 500 hours. ".repeat(8);

/**
 * The item of an id, made from the id alone (the same in the server and in
 * the load generator, which checks every answer against it): no store, so
 * that the server's memory holds only what serving costs.
 */
export function itemOf(id, withNotes) {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return {
    id,
    name: `Item ${id} (${KINDS[h % 3].toLowerCase()})`,
    kind: KINDS[h % 3],
    quantity: h % 1000,
    price: (h % 10_000) / 100,
    tags: ["soak", `t${h % 7}`, `t${h % 5}`],
    attributes: { colour: ["red", "green", "blue"][h % 3], size: String(h % 40), origin: "bench" },
    updatedAt: new Date(1_700_000_000_000 + (h % 1_000_000) * 1000),
    ...(withNotes ? { notes: NOTES } : {}),
  };
}

/** The answer to `listItems`: `limit` items from after `after`, with the first tag asked for. */
export function pageOf({ limit = 10, tag = [], after = "0" }) {
  const start = Number.parseInt(after, 10) || 0;
  const items = [];
  for (let i = 0; i < limit; i++) {
    const item = itemOf(`item-${start + i}`, false);
    if (tag.length > 0) item.tags = [...tag.slice(0, 1), ...item.tags];
    items.push(item);
  }
  return { items, next: String(start + limit) };
}

/** The handlers: answers computed from the input, a modeled error for the missing ids. */
export const handlers = {
  getItem: ({ id, withNotes }) => {
    if (id.startsWith(MISSING_PREFIX)) throw new NoSuchItem({ message: `no item ${id}`, id });
    return itemOf(id, withNotes === true);
  },
  putItem: (input) => ({ ...input }),
  listItems: (input) => pageOf(input),
};
