// Serves a bundle's default `fetch` on Node: node:http in front, the Fetch API behind, as a host adapter
// for any fetch handler would. Prints the address on its first line. Usage: node node-host.mjs <bundle.js>
import { once } from "node:events";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";

const app = (await import(pathToFileURL(process.argv[2]).href)).default;

const server = createServer(async (req, res) => {
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort(new Error("the client went away"));
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const withBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body: withBody ? Readable.toWeb(req) : null,
    duplex: "half",
    signal: gone.signal,
  });
  let response;
  try {
    response = await app.fetch(request);
  } catch (error) {
    console.error(error);
    res.writeHead(500).end();
    return;
  }
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  res.writeHead(response.status);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  gone.signal.addEventListener("abort", () => reader.cancel(gone.signal.reason).catch(() => {}));
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      if (!res.write(r.value)) await Promise.race([once(res, "drain"), once(res, "close")]);
    }
    res.end();
  } catch {
    res.destroy();
  }
});
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
