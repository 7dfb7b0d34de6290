// What every server of the server bench does once listening: send its port
// to the bench, answer "cpu" requests with the process's CPU time (µs), so
// that the bench can count requests per CPU-second of the server, and exit
// on "exit" (a server under callgrind writes its counts as it exits).
export function ready(port) {
  process.on("message", (message) => {
    if (message === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send({ cpu: user + system });
    } else if (message === "exit") {
      process.exit(0);
    }
  });
  process.send({ port });
}
