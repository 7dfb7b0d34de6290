// What every server of the server bench does once listening: send its port
// to the bench, answer "cpu" requests with the process's CPU time and its
// main thread's (µs), so that the bench can count requests per CPU-second of
// the server and the main thread's time per request, and exit on "exit" (a
// server under callgrind writes its counts as it exits).
import { readFileSync } from "node:fs";

/** The main thread's time on a CPU so far in µs (user and system), where Linux tells it; else undefined. */
function mainThreadCpu() {
  try {
    return Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1000;
  } catch {
    return undefined;
  }
}

/** Starts answering the bench; `extra` goes out with the port (a server on several ports names them there). */
export function ready(port, extra = {}) {
  process.on("message", (message) => {
    if (message === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send({ cpu: user + system, main: mainThreadCpu() });
    } else if (message === "exit") {
      process.exit(0);
    }
  });
  process.send({ port, ...extra });
}
