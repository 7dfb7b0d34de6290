/**
 * A program that calls one operation of a service with many, as an
 * application bundles it: the example's `Weather` service (ten operations,
 * its code as `anvil generate` writes it in apps/example/src/generated),
 * with a client of `withOperations(WeatherBase, { getCity: GetCity })`,
 * bundled by esbuild from the packages' built `dist` (as published).
 *
 * The bundle holds GetCity and its shapes, not the other nine operations
 * nor the shapes only they use; a program made from the whole `Weather`
 * holds them all. The one-operation program also runs: its call is typed
 * and answered as the full client's would be.
 *
 * Needs the packages built: `npx --yes pnpm@12.4.2 exec turbo run build --filter=@anvil/client-core... --filter=@anvil/protocol-restjson...`.
 */
import { execFile } from "node:child_process";
import { copyFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkedApp } from "./bundle-app.js";

const PACKAGES = ["core", "client-core", "protocol-restjson"] as const;
const GENERATED = join(import.meta.dirname, "..", "..", "..", "apps", "example", "src", "generated");

const client = (service: string, imports: string) => `import { createClient } from "@anvil/client-core";
import { withOperations } from "@anvil/core";
import { restJson1 } from "@anvil/protocol-restjson";
import { ${imports} } from "./weather.js";

const weather = createClient(${service}, { endpoint: process.argv[2], protocols: [restJson1()] });
const { city, $metadata } = await weather.getCity({ cityId: "paris" });
console.log(JSON.stringify({ name: city.name, createdAt: city.createdAt.toISOString(), httpStatus: $metadata.httpStatus }));
`;

const PROGRAMS = {
  "one.ts": client("withOperations(WeatherBase, { getCity: GetCity })", "GetCity, WeatherBase"),
  "all.ts": client("Weather", "Weather"),
};

/** Shape ids of the other operations, and of shapes only they use. */
const OTHERS = [
  "example.weather#CreateCity",
  "example.weather#ListCities",
  "example.weather#GetForecast",
  "example.weather#WatchAlerts",
  "example.weather#ReportObservation",
  "example.weather#PutCityPhoto",
  "example.weather#DailyForecast",
  "example.weather#Alert",
];

describe("a program calling one operation of a large service, bundled", () => {
  let dir: string;
  const bundles = new Map<string, string>();

  beforeAll(async () => {
    const files: Record<string, string> = { ...PROGRAMS };
    dir = linkedApp("operation bundle", PACKAGES, files);
    for (const file of readdirSync(GENERATED))
      if (file.endsWith(".ts") && !file.includes(".fakes.") && !file.includes(".server.")) copyFileSync(join(GENERATED, file), join(dir, file));
    for (const entry of Object.keys(PROGRAMS)) {
      const result = await build({
        absWorkingDir: dir,
        entryPoints: [entry],
        outfile: entry.replace(/\.ts$/, ".mjs"),
        platform: "node",
        format: "esm",
        bundle: true,
        minify: true,
        write: false,
        logLevel: "silent",
      });
      expect(result.errors).toEqual([]);
      bundles.set(entry, result.outputFiles[0]!.text);
    }
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("holds the operation it calls and none of the others", () => {
    const one = bundles.get("one.ts")!;
    expect(one).toContain('"example.weather#GetCity"');
    expect(one).toContain('"example.weather#CityDetails"');
    expect(OTHERS.filter((id) => one.includes(`"${id}"`))).toEqual([]);
  });

  it("is smaller than the program made from the whole service, which holds every operation", () => {
    const all = bundles.get("all.ts")!;
    expect(OTHERS.filter((id) => !all.includes(`"${id}"`))).toEqual([]);
    expect(bundles.get("one.ts")!.length).toBeLessThan(all.length);
  });

  describe("runs", () => {
    let server: Server;
    let url: string;

    beforeAll(async () => {
      server = createServer((request, response) => {
        response.writeHead(request.url === "/cities/paris" ? 200 : 404, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            city: { cityId: "paris", name: "Paris", country: "FR", coordinates: { latitude: 48.86, longitude: 2.35 }, createdAt: 1_700_000_000 },
          }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => server?.close(() => resolve()));
    });

    it.each(Object.keys(PROGRAMS))("%s makes the call", async (entry) => {
      const out = join(dir, entry.replace(/\.ts$/, ".mjs"));
      writeFileSync(out, bundles.get(entry)!);
      const { stdout } = await promisify(execFile)(process.execPath, [out, url], { cwd: dir, timeout: 10_000 });
      expect(JSON.parse(stdout)).toEqual({ name: "Paris", createdAt: "2023-11-14T22:13:20.000Z", httpStatus: 200 });
    });
  });
});
