/**
 * The documentation routes in a real browser (Debian's chromium driven by
 * playwright-core): the /openapi explorer lists every operation and a
 * "Try it out" call reaches the running example; the /docs site renders,
 * links operations and shapes both ways, and its search finds an operation.
 * Screenshots go to apps/example/.artifacts/ (gitignored). No request may
 * leave the example's own origin: everything is served locally.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationName } from "@anvil/docs-site";
import { serviceClosure } from "@anvil/model";
import { DEMO_TOKEN, exampleModel } from "./server.js";
import { NOW, type RunningExample, startExample } from "./testing.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = fileURLToPath(new URL("../.artifacts/", import.meta.url));
const available = existsSync(CHROMIUM);

if (!available && process.env.CI) {
  // CI installs chromium (.ci/run): missing there is a failure, never a skip.
  describe("browser tests", () => {
    it("need chromium", () => {
      throw new Error(`browser tests: ${CHROMIUM} not found; install it with \`apt-get install -y chromium\` (.ci/run does)`);
    });
  });
} else if (!available) {
  console.warn(`browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium); CI fails instead of skipping`);
}

describe.skipIf(!available)("documentation in a browser", () => {
  let example: RunningExample;
  let browser: BrowserContext;
  let profile: string;
  const outside: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    example = await startExample();
    profile = mkdtempSync(join(tmpdir(), "anvil-chromium-"));
    // A fresh profile per run: no state from earlier runs or other users of the machine.
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      viewport: { width: 1280, height: 900 },
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await example?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function open(url: string): Promise<Page> {
    const page = await browser.newPage();
    const origin = new URL(example.weather.url).origin;
    page.on("request", (request) => {
      const u = request.url();
      if (!u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:")) outside.push(u);
    });
    await page.goto(url);
    return page;
  }

  it("/openapi lists every operation and a Try-it call returns the server's answer", async () => {
    const page = await open(`${example.weather.url}/openapi`);
    await page.waitForSelector(".opblock", { timeout: 20_000 });
    const ids = await page.$$eval(".opblock-summary-operation-id", (els) => els.map((e) => e.textContent?.trim() ?? ""));
    const weather = exampleModel().getShape("example.weather#Weather")!;
    const names = serviceClosure(exampleModel(), weather.id).operations.map((op) => operationName(weather, op));
    expect(names.length).toBe(10);
    for (const name of names) expect(ids, name).toContain(name);
    await page.screenshot({ path: join(ARTIFACTS, "openapi.png"), fullPage: true });

    const op = page.locator("#operations-restJson1-GetCity");
    await op.locator(".opblock-summary").first().click();
    await op.locator("button.try-out__btn").click();
    await op.locator('tr[data-param-name="cityId"] input').fill("seattle");
    await op.locator("button.execute").click();
    const status = op.locator(".live-responses-table tbody .response-col_status").first();
    await status.waitFor({ timeout: 20_000 });
    expect((await status.textContent())?.trim()).toBe("200");
    const shown = await op.locator(".live-responses-table .response-col_description pre").first().textContent();
    const expected = await (await fetch(`${example.weather.url}/cities/seattle`)).json();
    expect(JSON.parse(shown ?? "")).toEqual(expected);
    await op.screenshot({ path: join(ARTIFACTS, "openapi-try-it.png") });
    await page.close();
    expect(outside).toEqual([]);
  }, 60_000);

  it("/openapi's Authorize takes the bearer token, and Try it sends it where the model asks (DeleteCity)", async () => {
    const page = await open(`${example.weather.url}/openapi`);
    await page.waitForSelector(".opblock", { timeout: 20_000 });
    const op = page.locator("#operations-restJson1-DeleteCity");
    await op.locator(".opblock-summary").first().click();
    await op.locator("button.try-out__btn").click();
    await op.locator('tr[data-param-name="cityId"] input').fill("tokyo");
    const status = op.locator(".live-responses-table tbody .response-col_status").first();
    // Without the token: refused.
    await op.locator("button.execute").click();
    await expect.poll(async () => (await status.textContent().catch(() => ""))?.trim(), { timeout: 20_000 }).toBe("401");
    expect(example.store.cities.has("tokyo")).toBe(true);
    await page.locator(".auth-wrapper .authorize").click();
    await page.locator(".modal-ux input").first().fill(DEMO_TOKEN);
    await page.locator(".modal-ux .auth-btn-wrapper .authorize").first().click();
    await page.locator(".modal-ux .btn-done").click();
    await op.locator("button.execute").click();
    await expect.poll(async () => (await status.textContent().catch(() => ""))?.trim(), { timeout: 20_000 }).toBe("204");
    expect(example.store.cities.has("tokyo")).toBe(false);
    await page.close();
    expect(outside).toEqual([]);
  }, 60_000);

  it("/openapi's Try it also calls an RPC protocol (awsJson1_1, POST / with X-Amz-Target)", async () => {
    const page = await open(`${example.weather.url}/openapi`);
    const op = page.locator("#operations-awsJson1_1-GetCity_awsJson1_1");
    await op.waitFor({ timeout: 20_000 });
    await op.locator(".opblock-summary").first().click();
    await op.locator("button.try-out__btn").click();
    // The body editor starts with the operation's example ({"cityId": "seattle"}).
    expect(JSON.parse(await op.locator("textarea.body-param__text").inputValue())).toEqual({ cityId: "seattle" });
    await op.locator("button.execute").click();
    const status = op.locator(".live-responses-table tbody .response-col_status").first();
    await status.waitFor({ timeout: 20_000 });
    expect((await status.textContent())?.trim()).toBe("200");
    const shown = await op.locator(".live-responses-table .response-col_description pre").first().textContent();
    const expected = await (
      await fetch(`${example.weather.url}/`, {
        method: "POST",
        headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "Weather.GetCity" },
        body: `{"cityId":"seattle"}`,
      })
    ).json();
    expect(JSON.parse(shown ?? "")).toEqual(expected);
    await op.screenshot({ path: join(ARTIFACTS, "openapi-try-it-awsjson.png") });
    await page.close();
    expect(outside).toEqual([]);
  }, 60_000);

  it("/docs renders, links operations and shapes both ways, and its search finds an operation", async () => {
    const page = await open(`${example.weather.url}/docs`);
    expect(await page.locator("h1").textContent()).toBe("API reference");
    await expect(page.locator("text=2024-06-01").count()).resolves.toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, "docs-index.png"), fullPage: true });

    await page.locator('a[href="operations/example.weather.Weather.GetCity.html"]').click();
    await page.waitForURL(/GetCity\.html$/);
    expect(await page.locator("h1").textContent()).toBe("GetCity");
    await page.screenshot({ path: join(ARTIFACTS, "docs-operation.png"), fullPage: true });

    // Operation → its output shape → a member's shape, then back through the "Used by" links.
    await page.locator('main a[href$="example.weather.GetCityOutput.html"]').first().click();
    await page.waitForURL(/GetCityOutput\.html$/);
    expect(await page.locator("h1").textContent()).toBe("GetCityOutput");
    await page.locator('main a[href$="example.weather.CityDetails.html"]').first().click();
    await page.waitForURL(/CityDetails\.html$/);
    expect(await page.locator("h1").textContent()).toBe("CityDetails");
    await page.screenshot({ path: join(ARTIFACTS, "docs-shape.png"), fullPage: true });
    await page.locator('main a[href$="example.weather.GetCityOutput.html"]').first().click();
    await page.waitForURL(/GetCityOutput\.html$/);
    await page.locator('main a[href$="example.weather.Weather.GetCity.html"]').first().click();
    await page.waitForURL(/Weather\.GetCity\.html$/);
    expect(await page.locator("h1").textContent()).toBe("GetCity");

    await page.locator("#search").fill("forecast");
    const hit = page.locator("#search-results a", { hasText: "GetForecast" }).first();
    await hit.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "docs-search.png") });
    await hit.click();
    await page.waitForURL(/GetForecast\.html$/);
    expect(await page.locator("h1").textContent()).toBe("GetForecast");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, "docs-operation-narrow.png"), fullPage: true });
    await page.close();
    expect(outside).toEqual([]);
  }, 60_000);

  it("lets a page on another origin call the service with fetch (CORS from the model's @cors), preflight included", async () => {
    // A page served from another port: another origin than the example's.
    const site = createHttpServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>another origin</title>"));
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const port = (site.address() as AddressInfo).port;
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${port}/`, { timeout: 10_000 });
      const api = example.weather.url;
      const result = await page.evaluate(async (base) => {
        // A simple request: no preflight; the Date header is modeled (GetCurrentTime's output), so it is exposed.
        const time = await fetch(`${base}/time`);
        // Not a simple request (a PUT, JSON, a modeled request header): the browser sends it only after a preflight
        // (OPTIONS) the server allowed, and lets the page read the modeled Location header.
        const body = JSON.stringify({ name: "Nice", country: "FR", coordinates: { latitude: 43.7, longitude: 7.26 } });
        const created = await fetch(`${base}/cities`, { method: "PUT", headers: { "content-type": "application/json", "x-city-tags": "coastal" }, body });
        // A header the model does not bind fails the preflight: the browser never sends the call.
        const refused = await fetch(`${base}/cities`, { method: "PUT", headers: { "content-type": "application/json", "x-not-modeled": "1" }, body }).then(
          () => "sent",
          (error: Error) => error.name,
        );
        return { time: [time.status, time.headers.get("date")], created: [created.status, created.headers.get("location")], refused };
      }, api);
      expect(result.time[0]).toBe(200);
      expect(result.time[1]).toMatch(/GMT$/);
      expect(result.created).toEqual([201, "/cities/nice"]);
      expect(result.refused).toBe("TypeError");
    } finally {
      await page.close();
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  }, 60_000);
  it("reads WatchAlerts as Server-Sent Events from a page on another origin, with EventSource and with fetch", async () => {
    const site = createHttpServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>another origin</title>"));
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const port = (site.address() as AddressInfo).port;
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${port}/`, { timeout: 10_000 });
      const result = await page.evaluate(async (base) => {
        // EventSource: a GET with Accept: text/event-stream, named events dispatched to their listeners. The stream
        // (Reykjavík's alert, then two heartbeats in the tests' example) ends, and EventSource would reconnect: the
        // page closes it once it has heard the second heartbeat.
        const viaEventSource = await new Promise<{ type: string; id: string; data: unknown }[]>((resolve, reject) => {
          const source = new EventSource(`${base}/cities/reykjavik/alerts`);
          const heard: { type: string; id: string; data: unknown }[] = [];
          const hear = (e: MessageEvent) => {
            heard.push({ type: e.type, id: e.lastEventId, data: JSON.parse(e.data as string) });
            if (heard.filter((h) => h.type === "heartbeat").length === 2) {
              source.close();
              resolve(heard);
            }
          };
          source.addEventListener("alert", hear);
          source.addEventListener("heartbeat", hear);
          source.addEventListener("error", () => {
            source.close();
            reject(new Error(`EventSource failed after ${heard.length} events`));
          });
        });
        // fetch with a streamed body reader: any method works this way; the events arrive as the server writes them.
        const response = await fetch(`${base}/cities/reykjavik/alerts`, { headers: { accept: "text/event-stream" } });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        const arrivals: number[] = [];
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          text += r.value;
          arrivals.push(text.split("\n\n").length - 1);
        }
        return { viaEventSource, fetched: { status: response.status, type: response.headers.get("content-type"), text, reads: arrivals.length } };
      }, example.weather.url);
      const alert = { level: 3, headline: "Gale warning for the capital region", issuedAt: expect.any(Number) };
      const heartbeat = { at: NOW.getTime() / 1000 };
      expect(result.viaEventSource).toEqual([
        { type: "alert", id: "1", data: alert },
        { type: "heartbeat", id: "2", data: heartbeat },
        { type: "heartbeat", id: "3", data: heartbeat },
      ]);
      expect([result.fetched.status, result.fetched.type]).toEqual([200, "text/event-stream"]);
      const messages = result.fetched.text.trimEnd().split("\n\n");
      expect(messages.map((m) => m.split("\n").slice(0, 2).join(" "))).toEqual(["event: alert id: 1", "event: heartbeat id: 2", "event: heartbeat id: 3"]);
      // The heartbeats came 20 ms apart, each as it was written: more than one read.
      expect(result.fetched.reads).toBeGreaterThan(1);
    } finally {
      await page.close();
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  }, 60_000);
});
