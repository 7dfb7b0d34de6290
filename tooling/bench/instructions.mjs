// Instruction counts per request of the bench servers, for `--instructions`.
//
// On a shared machine the wall clock moves with other jobs (and, in a VM,
// with its neighbours) by more than the differences a server bench looks
// for. Instructions do not: each server runs under callgrind (valgrind) with
// the garbage collector and the compilers on the main thread, fixed hash and
// random seeds and, where `setarch` can, without address randomisation, and
// is sent `n1` and then, in a second process, `n2` requests; the difference
// over `n2 - n1` is the steady-state cost of one request, start-up and
// warm-up cancelled. callgrind_annotate splits it by function name: the JIT
// compilers and the major (mark-compact) collector land in a window or not
// from run to run, so they are reported apart, as is the young-generation
// collector.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Whether valgrind (with callgrind_annotate) is installed. */
function hasCallgrind() {
  return (
    spawnSync("valgrind", ["--version"], { stdio: "ignore" }).error === undefined &&
    spawnSync("callgrind_annotate", ["--version"], { stdio: "ignore" }).error === undefined
  );
}

// Function names of V8's compilers and major collector, then of its young-generation collector.
const JIT_AND_MAJOR_GC = /compiler::|Marking|MarkCompact|Sweeper|Compile|turboshaft|maglev|IncrementalMarking/;
const MINOR_GC =
  /Scaveng|Evacuat|IterateObjectCache|Heap::|SlotCallback|RootScavenge|BodyDescriptor|SizeFromMap|LiveObject|Pretenuring|RememberedSet|IteratePointers|OnMoveEvent/;

/** A callgrind profile's instructions: in all, in the compilers and major collector, in the young-generation collector. */
function categories(file) {
  const out = spawnSync("callgrind_annotate", ["--threshold=100", "--auto=no", file], { encoding: "utf8", maxBuffer: 256 << 20 });
  if (out.status !== 0) throw new Error(`callgrind_annotate failed on ${file}: ${out.stderr}`);
  const counts = { total: 0, jit: 0, minor: 0 };
  for (const line of out.stdout.split("\n")) {
    const m = /^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$/.exec(line);
    if (m === null) continue;
    const n = Number(m[1].replaceAll(",", ""));
    if (m[2].includes("PROGRAM TOTALS")) counts.total = n;
    else if (JIT_AND_MAJOR_GC.test(m[2])) counts.jit += n;
    else if (MINOR_GC.test(m[2])) counts.minor += n;
  }
  return counts;
}

/** Runs a server script of servers/ under callgrind and sends it `n` requests with `drive(url, n)`; resolves with its instruction categories. */
async function countedRun(script, n, drive, dir) {
  const out = join(dir, `${script}.${n}.callgrind`);
  const node = [process.execPath, "--single-threaded", "--hash-seed=1", "--random-seed=1", fileURLToPath(new URL(`./servers/${script}`, import.meta.url))];
  const valgrind = ["valgrind", "--tool=callgrind", "--smc-check=all", `--callgrind-out-file=${out}`, ...node];
  const noAslr = spawnSync("setarch", ["-R", "true"], { stdio: "ignore" }).status === 0;
  const [cmd, ...args] = noAslr ? ["setarch", "-R", ...valgrind] : valgrind;
  const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe", "ipc"], env: { ...process.env, NODE_ENV: "production" } });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    const [{ port }] = await Promise.race([
      once(child, "message"),
      once(child, "exit").then(() => Promise.reject(new Error(`${script} exited under callgrind:\n${stderr}`))),
    ]);
    await drive(`http://127.0.0.1:${port}`, n);
  } catch (error) {
    child.kill(); // a server left under callgrind would hold a core until the bench's process ends
    throw error;
  }
  child.send("exit");
  await once(child, "exit");
  return categories(out);
}

/**
 * Instructions per request of a server script of servers/, driven by
 * `drive(url, n)` (which sends `n` requests and resolves when all are
 * answered): in all, without the compilers and the major collector, and
 * without any collector.
 */
async function instructionsPerRequest(script, drive, { n1, n2 }) {
  const dir = mkdtempSync(join(tmpdir(), "anvil-callgrind-"));
  try {
    const a = await countedRun(script, n1, drive, dir);
    const b = await countedRun(script, n2, drive, dir);
    const per = (key) => (b[key] - a[key]) / (n2 - n1);
    return { total: per("total"), withoutJit: per("total") - per("jit"), mutator: per("total") - per("jit") - per("minor") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--instructions` for a server bench: counts each of `servers` (`[name,
 * script]` pairs of servers/, the first the baseline), driven by
 * `drive(name, url, n)`, and prints their table under `heading`; resolves
 * with the rows (undefined, having said why, without valgrind).
 */
export async function runInstructionBench({ heading, unit, servers, drive, n1, n2 }) {
  if (!hasCallgrind()) {
    console.log(`\n## ${heading}\n\nskipped: valgrind is not installed (apt-get install valgrind)`);
    return undefined;
  }
  const rows = [];
  for (const [name, script] of servers) {
    process.stderr.write(`callgrind: ${name}...\n`);
    rows.push({ name, ...(await instructionsPerRequest(script, (url, n) => drive(name, url, n), { n1, n2 })) });
  }
  const [base] = rows;
  const k = (x) => `${(x / 1000).toFixed(1)}K`;
  const vs = (x, key) => `${(base[key] / x[key]).toFixed(2)}×`;
  console.log(`\n## ${heading}\n`);
  console.log(`callgrind, ${n1} then ${n2} ${unit}s, the difference over ${n2 - n1}; speed ratios are the first server's instructions over each server's.\n`);
  console.log(
    `| server | instructions per ${unit} | speed vs ${base.name} | without JIT and major GC | speed vs ${base.name} | without any GC and JIT | speed vs ${base.name} |`,
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(`| ${r.name} | ${k(r.total)} | ${vs(r, "total")} | ${k(r.withoutJit)} | ${vs(r, "withoutJit")} | ${k(r.mutator)} | ${vs(r, "mutator")} |`);
  }
  return rows;
}
