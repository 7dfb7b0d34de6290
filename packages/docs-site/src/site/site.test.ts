import { join } from "node:path";
import { loadModel } from "@anvil/model";
import { describe, expect, it } from "vitest";
import { generateSite } from "../index.js";

const { model } = loadModel({ paths: [join(import.meta.dirname, "..", "__fixtures__", "library.smithy")] });
const files = new Map(generateSite(model).map((f) => [f.path, f.text]));
const file = (path: string) => {
  const text = files.get(path);
  if (text === undefined) throw new Error(`no ${path} in ${[...files.keys()].join(", ")}`);
  return text;
};

/** Resolves a relative link of a page against the page's path. */
function resolveLink(from: string, href: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const segment of href.split("#")[0]!.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== ".") parts.push(segment);
  }
  return parts.join("/");
}

describe("generateSite", () => {
  it("has an index, a page per service, operation and shape, and its assets", () => {
    expect([...files.keys()].filter((p) => !p.startsWith("shapes/")).sort()).toEqual([
      "assets/search-index.js",
      "assets/search.js",
      "assets/style.css",
      "index.html",
      "operations/test.library.Library.DownloadBook.html",
      "operations/test.library.Library.GetBook.html",
      "operations/test.library.Library.ListBooks.html",
      "operations/test.library.Library.Ping.html",
      "operations/test.library.Library.PutCover.html",
      "operations/test.library.Library.Shelve.html",
      "services/test.library.Library.html",
    ]);
    expect(files.has("shapes/test.library.Book.html")).toBe(true);
    expect(files.has("shapes/smithy.api.String.html")).toBe(false);
  });

  it("links only to pages it has, and loads nothing from elsewhere", () => {
    for (const [path, text] of files) {
      if (!path.endsWith(".html")) continue;
      for (const [, href] of text.matchAll(/(?:href|src)="([^"]+)"/g)) {
        expect(href, `${path} → ${href}`).not.toMatch(/^[a-z]+:|^\/\//);
        expect(files.has(resolveLink(path, href!)), `${path} → ${href}`).toBe(true);
      }
    }
  });

  it("shows the index of services with version and protocols", () => {
    const index = file("index.html");
    expect(index).toContain("2025-01-31");
    for (const p of ["restJson1", "awsJson1_0", "rpcv2Cbor"]) expect(index).toContain(`<span class="badge">${p}</span>`);
  });

  it("shows an operation's routes, member tables, errors and examples per protocol", () => {
    const page = file("operations/test.library.Library.GetBook.html");
    expect(page).toContain("<code>/shelves/{shelf}/books/{path+}</code>");
    expect(page).toContain("<code>X-Amz-Target: Library.GetBook</code>");
    expect(page).toContain("<code>/service/Library/operation/GetBook</code>");
    expect(page).toContain("header If-Modified-Since");
    expect(page).toContain("<code>length 1..20</code>");
    expect(page).toContain("<code>&#34;en&#34;</code>"); // the default of locale
    expect(page).toContain('href="../shapes/test.library.NoSuchBook.html"');
    // REST: curl with labels, query and headers; the error answer with its header.
    expect(page).toContain("curl -X GET &#34;$URL/shelves/sf/books/herbert/dune?tag=a&#38;tag=b&#38;locale=en&#34;");
    expect(page).toContain("If-Modified-Since: Sat, 01 Jun 2024 00:00:00 GMT");
    expect(page).toContain("HTTP/1.1 404 Not Found\nContent-Type: application/json\nX-Amzn-Errortype: NoSuchBook\nX-Reason: gone");
    // awsJson: the whole input in the body, no @jsonName.
    expect(page).toContain("X-Amz-Target: Library.GetBook");
    expect(page).toContain("&#34;title&#34;: &#34;Dune&#34;");
    // CBOR: bytes and diagnostic notation, the timestamp as tag 1.
    expect(page).toContain("Request body (CBOR diagnostic notation)");
    expect(page).toContain("&#34;published&#34;: 1(-139449600)");
  });

  it("says which protocols cannot carry an operation, and why", () => {
    const page = file("operations/test.library.Library.DownloadBook.html");
    expect(page).toContain("<code>/books/{id}/text</code>");
    expect(page).toContain("Not available: awsJson1_0 has no binding for the @streaming blob text.");
    expect(page).toContain("Not available: rpcv2Cbor has no binding for the @streaming blob text.");
  });

  it("shows a shape's members with links and what uses it", () => {
    const page = file("shapes/test.library.Book.html");
    expect(page).toContain('href="../shapes/test.library.Genre.html"');
    expect(page).toContain("<code>JSON name Title</code>");
    expect(page).toContain('href="../shapes/test.library.ShelveInput.html"');
    expect(file("shapes/test.library.ShelveInput.html")).toContain('href="../operations/test.library.Library.Shelve.html"');
    const locale = file("shapes/test.library.Locale.html");
    expect(locale).toContain("<code>&#34;fr&#34;</code>");
  });

  it("indexes operations and shapes for the search box", () => {
    const index = JSON.parse(
      file("assets/search-index.js")
        .replace(/^window\.ANVIL_SEARCH_INDEX = /, "")
        .replace(/;\n$/, ""),
    ) as { name: string; kind: string; href: string }[];
    expect(index).toContainEqual(
      expect.objectContaining({ name: "GetBook", kind: "operation · Library", href: "operations/test.library.Library.GetBook.html" }),
    );
    expect(index).toContainEqual(expect.objectContaining({ name: "Book", kind: "structure" }));
  });

  it("sanitizes documentation and uses no external fonts", () => {
    const doc = `Keeps 1 < 2 & <b onclick="steal()">bold</b> text.<script>alert(1)</script> More.`;
    const evil = loadModel({
      sources: [{ file: "x.smithy", text: `$version: "2.0"\nnamespace ex\nuse aws.protocols#restJson1\n/// ${doc}\n@restJson1\nservice S { version: "1" }\n` }],
    }).model;
    const site = generateSite(evil);
    const index = site.find((f) => f.path === "index.html")!.text;
    const service = site.find((f) => f.path === "services/ex.S.html")!.text;
    // The service page renders the allowed markup; the script and the handler are gone.
    expect(service).toContain("<p>Keeps 1 &lt; 2 &amp; <b>bold</b> text. More.</p>");
    // The index shows the first sentence as escaped plain text.
    expect(index).toContain("<p>Keeps 1 &#60; 2 &#38; bold text.</p>");
    for (const text of [index, service]) expect(text).not.toMatch(/alert\(1\)|onclick|steal/);
    expect(site.find((f) => f.path === "assets/style.css")!.text).not.toMatch(/@import|url\(|@font-face/);
  });
});
