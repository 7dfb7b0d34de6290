/**
 * `npm start` as a newcomer meets it: the built `dist/main.js` starts, and
 * every curl line it prints works as it says (run by curl, on free ports).
 * Only DeleteCity takes a token: the line without one gets 401, the line
 * with the token `npm start` prints gets 204. Every call is logged.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MAIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));

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
    child.kill("SIGINT");
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
      } else if (line.includes("atlantis")) {
        expect([line, text.split(" ")[1]]).toEqual([line, "404"]);
      } else {
        // The rest answer JSON, without credentials.
        expect(() => JSON.parse(text), `${line} answered ${text}`).not.toThrow();
      }
    }
  });

  it("logs every call, one line each", async () => {
    const logged = () => out.some((line) => / GET \/cities\/seattle 200 [\d.]+ms Weather\.getCity aws\.protocols#restJson1 id=[0-9a-f-]{36}$/.test(line));
    const until = Date.now() + 5_000;
    while (!logged() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged(), out.join("\n")).toBe(true);
    expect(out.some((line) => / DELETE \/cities\/tokyo 401 .* error=UnauthenticatedException/.test(line))).toBe(true);
    expect(out.some((line) => / DELETE \/cities\/tokyo 204 .* identity=demo /.test(line))).toBe(true);
  });
});
