// The stream-memory bench's Anvil server: @anvil/server + restJson1, HTTP/1.1
// and h2c on one port. Uploads are read and dropped as they arrive, downloads
// written as the client reads them.
import { byteChunks } from "@anvil/core";
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { Blobs } from "./blob-model.mjs";
import { chunks } from "./blob-bytes.mjs";
import { ready } from "./ready.mjs";

const server = createServer(Blobs, { protocols: [restJson1()] })
  .register({
    putBlob: async ({ body }) => {
      let size = 0;
      for await (const chunk of byteChunks(body)) size += chunk.byteLength;
      return { size };
    },
    getBlob: ({ size }) => ({ body: chunks(Number(size)) }),
  })
  .mapService();
const listener = await listen(server, { port: 0, http2: "both" });
ready(listener.port, { h2Port: listener.port });
