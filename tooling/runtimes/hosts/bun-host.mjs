// Serves a bundle's default `fetch` with Bun.serve. Prints the address on its first line. Usage: bun bun-host.mjs <bundle.js>
const app = (await import(process.argv[2])).default;
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.fetch(request) });
console.log(`listening on http://127.0.0.1:${server.port}`);
