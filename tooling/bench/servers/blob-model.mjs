// The stream-memory bench's service: a `@streaming` blob up (`PUT
// /blobs/{key}`, answered with the size received) and a `@streaming` blob
// down (`GET /blobs/{key}?size=N`), restJson1, as `anvil generate` would
// write it. The bytes every side sends are in blob-bytes.mjs.
import { long, member, operation, scalar, service, string, struct } from "@anvil/core/codegenv1";

const BlobData = scalar("blob", "bench.blobs#BlobData", { streaming: true });

/** The service schema. */
export const Blobs = service("bench.blobs#Blobs", {
  version: "1",
  protocols: ["aws.protocols#restJson1"],
  operations: {
    putBlob: operation("bench.blobs#PutBlob", {
      input: struct("bench.blobs#PutBlobInput", [
        member("key", string, { required: true, httpLabel: true }),
        member("body", BlobData, { required: true, httpPayload: true }),
      ]),
      output: struct("bench.blobs#PutBlobOutput", [member("size", long, { required: true })]),
      traits: { idempotent: true, http: { method: "PUT", uri: "/blobs/{key}", code: 200 } },
    }),
    getBlob: operation("bench.blobs#GetBlob", {
      input: struct("bench.blobs#GetBlobInput", [
        member("key", string, { required: true, httpLabel: true }),
        member("size", long, { required: true, httpQuery: "size" }),
      ]),
      output: struct("bench.blobs#GetBlobOutput", [member("body", BlobData, { required: true, httpPayload: true })]),
      traits: { readonly: true, http: { method: "GET", uri: "/blobs/{key}", code: 200 } },
    }),
  },
});
