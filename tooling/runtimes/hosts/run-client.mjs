// Runs the client bundle's calls against an endpoint and prints what they gave as JSON, on Node, Bun or Deno.
// Usage: <runtime> run-client.mjs <client.js> <endpoint>
const args = globalThis.Deno?.args ?? process.argv.slice(2);
const { run } = await import(new URL(args[0], "file:///").href);
console.log(JSON.stringify(await run(args[1])));
