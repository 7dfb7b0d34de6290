// Server requests/s: an Anvil restJson1 server (@anvil/server on node:http)
// against a bare node:http server doing the same JSON work and against
// fastify (schema validation and serialization), all answering the same
// ~200-byte JSON POST. Each server runs in a process of its own pinned to one
// core; the load generator (autocannon) runs here, pinned to another. The
// servers are measured in interleaved rounds, the order rotating each round.
//
// Two figures per server: requests/s under the load, and requests per
// CPU-second of the server process (its capacity: what it would answer with
// its core to itself). On a 2-core machine one autocannon process cannot
// saturate a fast server, so the first figure is capped by the load
// generator; the second is not, and is steadier when other jobs share the
// machine (the server's own CPU time does not count time it was preempted).
import autocannon from "autocannon";
import { canPin, cpuTime, pinSelf, startServer } from "./server-process.mjs";
import { median } from "./timing.mjs";

// BENCH_SERVERS=bare,anvil runs only those scripts of servers/ (the first is the baseline), for experiments.
const SERVERS = process.env.BENCH_SERVERS ? process.env.BENCH_SERVERS.split(",").map((s) => [s, `${s}.mjs`]) : [
  ["bare node:http", "bare.mjs"],
  ["anvil (restJson1)", "anvil.mjs"],
  ["fastify", "fastify.mjs"],
];

const BODY = JSON.stringify({
  customerId: "cust-12345",
  sku: "WIDGET-BLUE-L",
  quantity: 3,
  unitPrice: 19.99,
  currency: "EUR",
  note: "Please leave the parcel at the back door, next to the blue recycling bin.",
  giftWrap: false,
});
const EXPECTED = '{"orderId":"ord-1","customerId":"cust-12345","sku":"WIDGET-BLUE-L","quantity":3,"total":59.97,"currency":"EUR","status":"PENDING"}';

/** One autocannon run against a server: req/s, requests per server CPU-second, latency percentiles in ms. */
async function load({ url, child }, connections, seconds) {
  const cpuBefore = await cpuTime(child);
  const result = await autocannon({
    url: `${url}/orders`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: BODY,
    connections,
    duration: seconds,
  });
  if (result.errors || result.non2xx || result.timeouts) {
    throw new Error(`server bench: ${url} answered ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const cpuSeconds = ((await cpuTime(child)) - cpuBefore) / 1e6;
  return { rps: result.requests.total / seconds, perCpu: result.requests.total / cpuSeconds, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Runs the server bench and prints its table. */
export async function runServerBench({ quick }) {
  const pin = canPin();
  const unpin = pin ? pinSelf(0) : () => {};
  const connections = 50;
  const rounds = quick ? 3 : 6;
  const seconds = quick ? 3 : 5;
  const servers = [];
  try {
    for (const [name, script] of SERVERS) servers.push({ name, ...(await startServer(script, pin ? 1 : undefined)) });
    for (const s of servers) {
      const res = await fetch(`${s.url}/orders`, { method: "POST", headers: { "content-type": "application/json" }, body: BODY });
      const text = await res.text();
      if (res.status !== 200 || text !== EXPECTED) throw new Error(`server bench: ${s.name} answered ${res.status} ${text}`);
      await load(s, connections, quick ? 1 : 3); // warm-up past the optimizing compiler
    }
    const samples = servers.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < servers.length; i++) {
        const k = (i + r) % servers.length;
        samples[k].push(await load(servers[k], connections, seconds));
      }
    }
    console.log(`\n## Server (POST /orders, ${BODY.length}-byte JSON body, ${connections} connections, autocannon)\n`);
    console.log(pin ? "Servers pinned to CPU 1, load generator to CPU 0." : "Processes not pinned (taskset unavailable or a single CPU).");
    console.log(`Medians of ${rounds} interleaved ${seconds}-second runs per server; ratios are medians of per-round ratios against bare node:http.\n`);
    console.log("| server | req/s | vs bare | req per server CPU-s | vs bare | p50 ms | p99 ms |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    const ratio = (k, base, key) => median(samples[k].map((x, r) => x[key] / samples[base][r][key]));
    const med = (k, key) => median(samples[k].map((x) => x[key]));
    for (let k = 0; k < servers.length; k++) {
      console.log(
        `| ${servers[k].name} | ${Math.round(med(k, "rps"))} | ${ratio(k, 0, "rps").toFixed(2)}× | ${Math.round(med(k, "perCpu"))} | ${ratio(k, 0, "perCpu").toFixed(2)}× | ${med(k, "p50")} | ${med(k, "p99")} |`,
      );
    }
    if (!process.env.BENCH_SERVERS) console.log(`\nanvil vs fastify: ${ratio(1, 2, "rps").toFixed(2)}× req/s, ${ratio(1, 2, "perCpu").toFixed(2)}× req per CPU-s`);
    console.log(`\nper-round ${servers[1].name} / ${servers[0].name}, req/s: ${samples[1].map((x, r) => (x.rps / samples[0][r].rps).toFixed(2)).join(", ")}`);
  } finally {
    unpin();
    for (const s of servers) s.child.kill();
  }
}
