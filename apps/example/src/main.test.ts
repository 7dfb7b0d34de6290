/**
 * `npm start` as a newcomer meets it: the built `dist/main.js` starts, and
 * every curl line it prints works as it says (run by curl, on free ports).
 * Only DeleteCity takes a token: the line without one gets 401, the line
 * with the token `npm start` prints gets 204. Every call is logged. The
 * grpcurl lines are run as grpcurl runs them (server reflection, dynamic
 * stubs), with grpc-js. Stopping turns gRPC health NOT_SERVING.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGrpcurl, runGrpcurl } from "./grpcurl.js";

const MAIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const HEALTH_PROTO = fileURLToPath(new URL("../node_modules/grpc-health-check/proto/health/v1/health.proto", import.meta.url));

describe("npm start", () => {
  let child: ChildProcess;
  const out: string[] = [];

  beforeAll(async () => {
    child = spawn(process.execPath, [MAIN], { env: { ...process.env, PORT: "0", HOST: "127.0.0.1", WEATHER_TOKEN: "" }, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => out.push(...chunk.split("\n")));
    const started = Date.now();
    while (!out.some((line) => line.includes("Ctrl-C stops"))) {
      if (Date.now() - started > 15_000 || child.exitCode !== null) throw new Error(`npm start did not start:\n${out.join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 20_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill("SIGINT");
  });

  it("prints curl lines that work as they say, without credentials but for DeleteCity's", () => {
    const lines = out.filter((line) => line.startsWith("  curl ")).map((line) => line.trim());
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const answers = lines.map((line) => {
      const run = spawnSync("sh", ["-c", line], { encoding: "utf8", timeout: 10_000 });
      expect([line, run.status]).toEqual([line, 0]);
      return { line, text: run.stdout };
    });
    for (const { line, text } of answers) {
      if (line.includes("-X DELETE")) {
        const expected = line.includes("authorization: Bearer demo-token") ? "204" : "401";
        expect([line, text.split(" ")[1]]).toEqual([line, expected]);
        if (expected === "401") expect(text.toLowerCase()).toContain('www-authenticate: bearer realm="weather"');
      } else if (line.includes("text/event-stream")) {
        // WatchAlerts as Server-Sent Events: a few heartbeats (and any alert), then the stream ends.
        expect(text, line).toMatch(/^event: (alert|heartbeat)\nid: 1\ndata: \{.*\}\n\n/);
        for (const message of text.trimEnd().split("\n\n")) expect(message, line).toMatch(/^event: (alert|heartbeat)\nid: \d+\ndata: \{.*\}$/);
      } else if (line.includes("atlantis")) {
        expect([line, text.split(" ")[1]]).toEqual([line, "404"]);
      } else {
        // The rest answer JSON, without credentials.
        expect(() => JSON.parse(text), `${line} answered ${text}`).not.toThrow();
      }
    }
  });

  it("prints grpcurl lines that work as they say: reflection lists the services, a call by reflection, gRPC health", async () => {
    const lines = out.filter((line) => line.startsWith("  grpcurl ")).map((line) => parseGrpcurl(line));
    expect(lines.map((l) => l.target)).toEqual(["list", "example.weather.WeatherGrpc/GetCity", "grpc.health.v1.Health/Check"]);
    expect(await runGrpcurl(lines[0]!)).toBe(
      ["example.weather.WeatherGrpc", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection", ""].join(
        "\n",
      ),
    );
    expect(JSON.parse(await runGrpcurl(lines[1]!))).toMatchObject({ city: { cityId: "paris", name: "Paris", country: "FR" } });
    expect(JSON.parse(await runGrpcurl(lines[2]!))).toEqual({ status: "SERVING" });
  });

  it("logs every call, one line each", async () => {
    const logged = () => out.some((line) => / GET \/cities\/seattle 200 [\d.]+ms Weather\.getCity aws\.protocols#restJson1 id=[0-9a-f-]{36}$/.test(line));
    const until = Date.now() + 5_000;
    while (!logged() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged(), out.join("\n")).toBe(true);
    expect(out.some((line) => / DELETE \/cities\/tokyo 401 .* error=UnauthenticatedException/.test(line))).toBe(true);
    expect(out.some((line) => / DELETE \/cities\/tokyo 204 .* identity=demo /.test(line))).toBe(true);
  });

  it("on SIGTERM, gRPC health turns NOT_SERVING (a watch hears it, then ends) before the process stops", async () => {
    const address = parseGrpcurl(out.find((line) => line.startsWith("  grpcurl "))!).address;
    const health = (grpcJs.loadPackageDefinition(protoLoader.loadSync(HEALTH_PROTO, { keepCase: true, enums: String })) as any).grpc.health.v1;
    const client = new health.Health(address, grpcJs.credentials.createInsecure());
    const statuses: string[] = [];
    const call = client.Watch({ service: "example.weather.WeatherGrpc" });
    const ended = new Promise<number>((resolve) => {
      call.on("data", (message: { status: string }) => statuses.push(message.status));
      call.on("status", (status: grpcJs.StatusObject) => resolve(status.code));
      call.on("error", () => undefined);
    });
    await expect.poll(() => statuses).toEqual(["SERVING"]);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await ended).toBe(grpcJs.status.OK);
    expect(statuses).toEqual(["SERVING", "NOT_SERVING"]);
    client.close();
    await exited;
    expect(out.some((line) => line.includes("stopping"))).toBe(true);
  });
});
