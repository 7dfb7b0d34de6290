/**
 * The documentation routes the example serves: the OpenAPI document of the
 * running service (valid OpenAPI 3.1, `servers` the origin asked), the
 * explorer's assets from the installed package, the reference site, and the
 * switch that turns them off.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { listen } from "@anvil/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWeatherHandler } from "./handlers.js";
import { createWeatherServers } from "./server.js";
import { createStore } from "./store.js";
import { type RunningExample, startExample } from "./testing.js";

let example: RunningExample;
beforeAll(async () => {
  example = await startExample();
});
afterAll(() => example.close());

describe("documentation routes", () => {
  it("/openapi.json is the running service's document, valid OpenAPI 3.1", async () => {
    const response = await fetch(`${example.weather.url}/openapi.json`);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const document = (await response.json()) as { openapi: string; info: { title: string; version: string }; servers: { url: string }[]; paths: object };
    expect([document.openapi, document.info.version, document.servers]).toEqual(["3.1.0", "2024-06-01", [{ url: example.weather.url }]]);
    // The photo operations stream blobs: only restJson1 carries them.
    const photoPaths = Object.keys(document.paths).filter((p) => p.includes("PutCityPhoto") || p.includes("GetCityPhoto") || p.includes("/photos/"));
    expect(photoPaths).toEqual(["/cities/{cityId}/photos/{photoKey}"]);
    // Alerts are an event stream under every protocol, and Server-Sent Events too under restJson1.
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, { content: object }> }>>;
    for (const [path, method, types] of [
      ["/cities/{cityId}/alerts", "get", ["application/vnd.amazon.eventstream", "text/event-stream"]],
      ["/#X-Amz-Target=Weather.WatchAlerts", "post", ["application/vnd.amazon.eventstream"]],
      ["/service/Weather/operation/WatchAlerts", "post", ["application/vnd.amazon.eventstream"]],
    ] as const) {
      expect(Object.keys(paths[path]![method]!.responses["200"]!.content), path).toEqual(types);
    }
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "/openapi.json", config });
    expect(problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it("each server documents its own service", async () => {
    const simple = (await (await fetch(`${example.simpleWeather.url}/openapi.json`)).json()) as { info: { title: string }; tags: { name: string }[] };
    expect([simple.info.title, simple.tags.map((t) => t.name)]).toEqual(["Weather Service (simpleRestJson)", ["simpleRestJson"]]);
  });

  it("/openapi serves the explorer page and its assets from the installed package", async () => {
    const page = await fetch(`${example.weather.url}/openapi`);
    const html = await page.text();
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.every((a) => a.startsWith("/openapi/"))).toBe(true);
    for (const asset of assets) expect((await fetch(`${example.weather.url}${asset}`)).status, asset).toBe(200);
    expect((await fetch(`${example.weather.url}/openapi/package.json`)).status).toBe(404);
  });

  it("/docs redirects to /docs/ and serves the reference site", async () => {
    const redirect = await fetch(`${example.weather.url}/docs`, { redirect: "manual" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([308, "/docs/"]);
    const index = await (await fetch(`${example.weather.url}/docs/`)).text();
    expect(index).toContain("2024-06-01");
    expect(index).toContain("operations/example.weather.Weather.GetCity.html");
    expect((await fetch(`${example.weather.url}/docs/operations/example.weather.Weather.GetCity.html`)).status).toBe(200);
    expect((await fetch(`${example.weather.url}/docs/nope.html`)).status).toBe(404);
  });

  it("leaves the service's routes alone", async () => {
    const response = await fetch(`${example.weather.url}/cities/seattle`);
    expect(response.status).toBe(200);
  });

  it("docs: false turns the routes off", async () => {
    const servers = createWeatherServers(createWeatherHandler(createStore()), { docs: false });
    const listener = await listen(servers.weather);
    try {
      for (const path of ["/openapi.json", "/openapi", "/docs/"]) expect((await fetch(`${listener.url}${path}`)).status, path).toBe(404);
    } finally {
      await listener.close();
    }
  });
});
