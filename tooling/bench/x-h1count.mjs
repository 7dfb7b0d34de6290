// usage: node x-h1count.mjs anvil.mjs -> server instructions per request (autocannon, 50 connections)
import { spawn } from "node:child_process";
import { once } from "node:events";
import autocannon from "autocannon";
const BODY = JSON.stringify({ customerId: "cust-12345", sku: "WIDGET-BLUE-L", quantity: 3, unitPrice: 19.99, currency: "EUR", note: "Please leave the parcel at the back door, next to the blue recycling bin.", giftWrap: false });
const script = process.argv[2];
async function ir(n) {
  const out = `/work/scratch/cgs.h1.${script.replace("/", "_")}.${n}.out`;
  const child = spawn("setarch", ["-R", "valgrind", "--tool=callgrind", "--smc-check=all", `--callgrind-out-file=${out}`, process.execPath, ...(process.env.PERFMAP ? ["--perf-basic-prof"] : []), "--single-threaded", "--hash-seed=1", "--random-seed=1", "x-wrap.mjs", script], { stdio: ["ignore", "ignore", "pipe", "ipc"], env: { ...process.env, NODE_ENV: "production" } });
  let err = ""; child.stderr.on("data", (d) => (err += d));
  const [{ port }] = await once(child, "message");
  const r = await autocannon({ url: `http://127.0.0.1:${port}/orders`, method: "POST", headers: { "content-type": "application/json" }, body: BODY, connections: Number(process.env.C ?? 50), amount: n, timeout: 60 });
  if (r.non2xx || r.errors || r.timeouts) console.error(`non2xx ${r.non2xx} errors ${r.errors} timeouts ${r.timeouts}`);
  child.send("exit");
  await once(child, "exit");
  return Number(/Collected : (\d+)/.exec(err)[1]);
}
const n1 = Number(process.env.N1 ?? 5000), n2 = Number(process.env.N2 ?? 15000);
const a = await ir(n1), b = await ir(n2);
console.log(`${script}: ${Math.round((b - a) / (n2 - n1))} instr/request`);
