import { join } from "node:path";
import { loadModel } from "@anvil/model";
import { describe, expect, it } from "vitest";
import { docsRoutes, explorerHandler, openApiJsonHandler, siteHandler } from "./index.js";

const { model } = loadModel({ paths: [join(import.meta.dirname, "__fixtures__", "library.smithy")] });
const get = (url: string, method = "GET") => new Request(url, { method });

describe("openApiJsonHandler", () => {
  it("serves the document with the request's origin as its server", async () => {
    const handle = openApiJsonHandler(model);
    for (const origin of ["http://127.0.0.1:8080", "https://api.example.com"]) {
      const response = await handle(get(`${origin}/openapi.json`));
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(((await response.json()) as { servers: unknown }).servers).toEqual([{ url: origin }]);
    }
  });

  it("answers HEAD without a body and refuses other methods", async () => {
    const handle = openApiJsonHandler(model);
    const head = await handle(get("http://x/openapi.json", "HEAD"));
    expect([head.status, await head.text()]).toEqual([200, ""]);
    const post = await handle(get("http://x/openapi.json", "POST"));
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });
});

describe("explorerHandler", () => {
  it("serves the page and only the swagger-ui-dist files it loads", async () => {
    const handle = explorerHandler();
    const page = await (await handle(get("http://x/openapi"))).text();
    expect(page).toContain('data-url="/openapi.json"');
    const css = await handle(get("http://x/openapi/swagger-ui.css"));
    expect([css.status, css.headers.get("content-type")]).toEqual([200, "text/css; charset=utf-8"]);
    const js = await handle(get("http://x/openapi/swagger-ui-bundle.js"));
    expect((await js.text()).length).toBeGreaterThan(100_000);
    expect((await handle(get("http://x/openapi/init.js"))).status).toBe(200);
    for (const path of ["package.json", "index.html", "../package.json", "swagger-ui-bundle.js.map", "VERSION", "LICENSE"]) {
      expect((await handle(get(`http://x/openapi/${path}`))).status, path).toBe(404);
    }
  });
});

describe("siteHandler", () => {
  it("redirects the bare prefix and serves the site's files", async () => {
    const handle = siteHandler(model);
    const redirect = await handle(get("http://x/docs?q=1"));
    expect([redirect.status, redirect.headers.get("location")]).toEqual([308, "/docs/?q=1"]);
    const index = await handle(get("http://x/docs/"));
    expect([index.status, index.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    const op = await handle(get("http://x/docs/operations/test.library.Library.GetBook.html"));
    expect(op.status).toBe(200);
    expect((await handle(get("http://x/docs/assets/style.css"))).headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await handle(get("http://x/docs/%E0%A4%A"))).status).toBe(404);
    expect((await handle(get("http://x/docs/../secret"))).status).toBe(404);
  });
});

describe("docsRoutes", () => {
  it.each([
    [{}, ["/openapi.json", "/openapi", "/docs"]],
    [{ docs: false }, ["/openapi.json", "/openapi"]],
    [{ openapi: false }, ["/docs"]],
    [{ openapi: false, docs: false }, []],
  ])("%j → %j", (options, prefixes) => {
    expect(docsRoutes(model, options).map((r) => r.prefix)).toEqual(prefixes);
  });
});
