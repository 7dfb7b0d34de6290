// Server processes for the server benches: each server script of servers/
// runs in a process of its own (pinned to one core where taskset can), sends
// its port when listening, and answers "cpu" with its CPU time (ready.mjs).
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

/** Whether `taskset` can pin processes here (Linux with util-linux, two cores or more). */
export function canPin() {
  if (availableParallelism() < 2) return false;
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Starts a server script of servers/ (pinned to `cpu` when given); resolves with the process and its base URL. */
export async function startServer(script, cpu) {
  const path = fileURLToPath(new URL(`./servers/${script}`, import.meta.url));
  const [cmd, args] = cpu === undefined ? [process.execPath, [path]] : ["taskset", ["-c", String(cpu), process.execPath, path]];
  const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit", "ipc"], env: { ...process.env, NODE_ENV: "production" } });
  const [{ port }] = await Promise.race([once(child, "message"), once(child, "exit").then(() => Promise.reject(new Error(`${script} exited`)))]);
  return { child, url: `http://127.0.0.1:${port}` };
}

/** A server process's CPU time so far, in µs. */
export async function cpuTime(child) {
  child.send("cpu");
  const [{ cpu }] = await once(child, "message");
  return cpu;
}
