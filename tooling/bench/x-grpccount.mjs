// usage: node x-grpccount.mjs script.mjs -> server instructions per call
import { spawn, execFileSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { PATH, REQUEST } from "./servers/greeter-model.mjs";
const framed = Buffer.alloc(5 + REQUEST.length);
framed.writeUInt32BE(REQUEST.length, 1);
framed.set(REQUEST, 5);
writeFileSync("/work/scratch/req.bin", framed);
const script = process.argv[2];
async function ir(n) {
  const out = `/work/scratch/cgs.${script.replace("/", "_")}.${n}.out`;
  const child = spawn("setarch", ["-R", "valgrind", "--tool=callgrind", "--smc-check=all", `--callgrind-out-file=${out}`, process.execPath, "--single-threaded", "--hash-seed=1", "--random-seed=1", "x-wrap.mjs", script], { stdio: ["ignore", "ignore", "pipe", "ipc"], env: { ...process.env, NODE_ENV: "production", ...(process.env.XENV ? Object.fromEntries([process.env.XENV.split("=")]) : {}) } });
  let err = ""; child.stderr.on("data", (d) => (err += d));
  const [{ port }] = await once(child, "message");
  const args = process.env.H1 ? ["--h1", "-n", String(n), "-c", "1", "-m", process.env.M ?? "1", "--data", "/work/scratch/order.json", "-H", "content-type: application/json", `http://127.0.0.1:${port}/orders`]
    : ["-n", String(n), "-c", "1", "-m", process.env.M ?? "50", "--data", "/work/scratch/req.bin", "-H", "content-type: application/grpc+proto", "-H", "te: trailers", `http://127.0.0.1:${port}${PATH}`];
  const o = execFileSync("h2load", args, { encoding: "utf8" });
  if (!/ 0 failed, 0 errored/.test(o) || / 2xx, 0 3xx/.test(o) === false && process.env.H1) console.error(o.split("\n").filter((l) => /requests:|status codes/.test(l)).join("\n"));
  child.send("exit");
  await once(child, "exit");
  return Number(/Collected : (\d+)/.exec(err)[1]);
}
const n1 = Number(process.env.N1 ?? 2000), n2 = Number(process.env.N2 ?? 12000);
const a = await ir(n1), b = await ir(n2);
console.log(`${script}: ${Math.round((b - a) / (n2 - n1))} instr/call`);
