// Serves a bundle's default `fetch` with Deno.serve. Prints the address on its first line. Usage: deno run -A deno-host.mjs <bundle.js>
const app = (await import(new URL(Deno.args[0], "file:///").href)).default;
Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`) }, (request) => app.fetch(request));
