// What every server of the server bench does once listening: send its port
// to the bench and answer "cpu" requests with the process's CPU time (µs), so
// that the bench can count requests per CPU-second of the server.
export function ready(port) {
  process.on("message", (message) => {
    if (message === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send({ cpu: user + system });
    }
  });
  process.send({ port });
}
