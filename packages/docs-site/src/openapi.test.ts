import { join } from "node:path";
import { loadModel } from "@anvil/model";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { DocsError, toOpenApi } from "./index.js";

const { model } = loadModel({ paths: [join(import.meta.dirname, "__fixtures__", "library.smithy")] });
const doc = toOpenApi(model, { servers: ["http://127.0.0.1:9999"] });

/** The value at a JSON pointer (`/paths/~1books/get`). */
function at(pointer: string): unknown {
  let value: unknown = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    value = (value as Record<string, unknown> | undefined)?.[key];
  }
  return value;
}

const getBook = "/paths/~1shelves~1{shelf}~1books~1{path}/get";
const param = (op: string, name: string) => (at(`${op}/parameters`) as { name: string }[]).find((p) => p.name === name);

describe("toOpenApi", () => {
  it("passes Redocly's OpenAPI 3.1 validation", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "/openapi.json", config });
    expect(problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it.each([
    ["/openapi", "3.1.0"],
    ["/info/title", "Library"],
    ["/info/version", "2025-01-31"],
    ["/info/description", "Books and shelves."],
    ["/servers", [{ url: "http://127.0.0.1:9999" }]],
    [
      "/tags",
      [
        { name: "restJson1", description: "aws.protocols#restJson1: HTTP bindings, application/json bodies" },
        { name: "awsJson1_0", description: "aws.protocols#awsJson1_0: POST / with the X-Amz-Target header, application/x-amz-json-1.0 bodies" },
        {
          name: "rpcv2Cbor",
          description: "smithy.protocols#rpcv2Cbor: POST /service/{service}/operation/{operation} with the smithy-protocol header, application/cbor bodies",
        },
      ],
    ],
    // Auth: the schemes of the service, the @auth order as the default, @auth([]) and @optionalAuth per operation.
    ["/components/securitySchemes/httpBearerAuth", { type: "http", scheme: "bearer" }],
    ["/components/securitySchemes/sigv4/type", "apiKey"],
    ["/security", [{ httpBearerAuth: [] }]],
    ["/paths/~1books/get/security", []],
    ["/paths/~1ping/get/security", [{ httpBearerAuth: [] }, {}]],
  ])("%s", (pointer, want) => {
    expect(at(pointer)).toEqual(want);
  });

  it("maps every HTTP binding of the input", () => {
    expect(at(`${getBook}/operationId`)).toBe("GetBook");
    expect(param(getBook, "shelf")).toMatchObject({
      in: "path",
      required: true,
      description: "A shelf's name.",
      schema: { type: "string", minLength: 1, maxLength: 20, pattern: "^[a-z]+$" },
    });
    expect(param(getBook, "path")).toMatchObject({ in: "path", required: true, description: "Greedy: may span several path segments." });
    expect(param(getBook, "If-Modified-Since")).toMatchObject({ in: "header", schema: { type: "string", format: "http-date" } });
    expect(param(getBook, "tag")).toMatchObject({ in: "query", style: "form", explode: true, schema: { type: "array", items: { type: "string" } } });
    expect(param(getBook, "locale")).toMatchObject({ in: "query", schema: { $ref: "#/components/schemas/Locale", default: "en" } });
    expect(param(getBook, "extra")).toMatchObject({
      in: "query",
      style: "form",
      explode: true,
      schema: { type: "object", additionalProperties: { type: "string" } },
    });
    expect(param(getBook, "path")).toMatchObject({ examples: { "Read-Dune": { summary: "Read Dune", value: "herbert/dune" } } });
    expect(param(getBook, "If-Modified-Since")).toMatchObject({ examples: { "Read-Dune": { value: "Sat, 01 Jun 2024 00:00:00 GMT" } } });
  });

  it("documents the response: code, headers, prefix headers, body and examples", () => {
    const ok = `${getBook}/responses/200`;
    expect(at(`${ok}/headers/ETag`)).toEqual({ schema: { type: "string" } });
    expect(at(`${ok}/description`)).toContain("Headers starting with `X-Meta-` carry the `meta` map.");
    expect(at(`${ok}/content/application~1json/schema`)).toEqual({ $ref: "#/components/schemas/GetBookResponseContent" });
    expect(at(`${ok}/content/application~1json/examples/Read-Dune/value`)).toEqual({
      book: { Title: "Dune", pages: 412, published: Date.parse("1965-08-01T00:00:00Z") / 1000 },
    });
    expect(at("/paths/~1covers~1{id}/put/responses/204")).toEqual({ description: "Success." });
    expect(at("/paths/~1books/get/responses/200/description")).toContain("@httpResponseCode");
  });

  it("lists an operation's own errors and the service's, not another operation's", () => {
    expect(Object.keys(at("/paths/~1books/get/responses") as object)).toContain("429"); // Throttled, a service error
    expect(Object.keys(at("/paths/~1books/get/responses") as object)).not.toContain("404"); // NoSuchBook is GetBook's
    expect(Object.keys(at(`${getBook}/responses`) as object)).toEqual(expect.arrayContaining(["404", "429"]));
  });

  it("documents errors by status code with the error header and their own headers", () => {
    expect(at(`${getBook}/responses/404/headers`)).toEqual({
      "X-Amzn-Errortype": { description: "The error's shape name.", schema: { type: "string", enum: ["NoSuchBook"] } },
      "X-Reason": { schema: { type: "string" } },
    });
    expect(at(`${getBook}/responses/404/content/application~1json/schema`)).toEqual({ $ref: "#/components/schemas/NoSuchBookResponseContent" });
    expect(at(`${getBook}/responses/404/content/application~1json/examples/Missing/value`)).toEqual({ message: "no such book" });
    expect(at(`${getBook}/responses/429/description`)).toBe("`Throttled`");
  });

  it("maps payloads: blobs by media type, structures as JSON, literal query as a constant", () => {
    expect(at("/paths/~1covers~1{id}/put/requestBody")).toEqual({ required: true, content: { "image/png": { schema: { type: "string", format: "binary" } } } });
    expect(param("/paths/~1covers~1{id}/put", "kind")).toMatchObject({
      in: "query",
      required: true,
      schema: { type: "string", enum: ["front"], default: "front" },
    });
    expect(at("/paths/~1shelves~1{shelf}/post/requestBody/content/application~1json/schema")).toEqual({ $ref: "#/components/schemas/Book" });
  });

  it("turns shapes into schemas with formats, constraints, enums and jsonName", () => {
    expect(at("/components/schemas/Book")).toEqual({
      type: "object",
      description: "A book.",
      properties: {
        Title: { type: "string" },
        pages: { type: "integer", format: "int32", minimum: 1 },
        pageCount: { type: "integer", format: "int64" },
        published: { type: "number", description: "Seconds since 1970-01-01T00:00:00Z." },
        added: { type: "string", format: "date-time" },
        cover: { type: "string", contentEncoding: "base64" },
        genre: { $ref: "#/components/schemas/Genre" },
        related: { type: "array", items: { $ref: "#/components/schemas/Book" } },
      },
      required: ["Title"],
    });
    expect(at("/components/schemas/Locale")).toEqual({ type: "string", description: "- `en`: English.", enum: ["en", "fr"] });
    expect((at("/components/schemas/Genre/oneOf") as unknown[]).length).toBe(2);
  });

  it("documents RPC protocols as POST routes with their selecting headers and content types", () => {
    const aws = "/paths/~1#X-Amz-Target=Library.GetBook/post";
    expect(at(`${aws}/operationId`)).toBe("GetBook_awsJson1_0");
    expect(param(aws, "X-Amz-Target")).toMatchObject({ in: "header", required: true, schema: { enum: ["Library.GetBook"], default: "Library.GetBook" } });
    expect(Object.keys(at(`${aws}/requestBody/content`) as object)).toEqual(["application/x-amz-json-1.0"]);
    // awsJson ignores @jsonName: its schemas are a variant of their own.
    expect(at("/components/schemas/Book_awsJson1_0/required")).toEqual(["title"]);
    const cbor = "/paths/~1service~1Library~1operation~1GetBook/post";
    expect(param(cbor, "smithy-protocol")).toMatchObject({ schema: { enum: ["rpc-v2-cbor"] } });
    expect(Object.keys(at(`${cbor}/responses/200/content`) as object)).toEqual(["application/cbor"]);
    expect(Object.keys(at(`${cbor}/responses`) as object)).toEqual(["200", "400", "401"]);
  });

  it("documents the 401 of operations that take credentials, and none for anonymous ones", () => {
    const get = "/paths/~1service~1Library~1operation~1GetBook/post";
    expect(at(`${get}/responses/401/description`)).toMatch(/UnauthenticatedException/);
    expect(at(`${get}/responses/401/headers/WWW-Authenticate/schema`)).toEqual({ type: "string" });
    expect(Object.keys(at("/paths/~1books/get/responses") as object)).not.toContain("401");
  });

  it("leaves out of RPC protocols the operations with a @streaming blob", () => {
    expect(at("/paths/~1books~1{id}~1text/get/responses/200/content")).toEqual({
      "application/octet-stream": { schema: { type: "string", format: "binary" } },
    });
    expect(at("/paths/~1#X-Amz-Target=Library.DownloadBook")).toBeUndefined();
    expect(at("/paths/~1service~1Library~1operation~1DownloadBook")).toBeUndefined();
  });

  it("throws a DocsError with the location of a service without a documented protocol", () => {
    const quiet = loadModel({ sources: [{ file: "quiet.smithy", text: `$version: "2.0"\nnamespace ex\n\nservice Quiet {}\n` }] }).model;
    expect(() => toOpenApi(quiet)).toThrow(DocsError);
    expect(() => toOpenApi(quiet)).toThrow(/^quiet\.smithy:4:1: openapi: ex#Quiet declares no protocol/);
  });
});

describe("toOpenApi @pattern", () => {
  const patterns = (text: string) => {
    const source = `$version: "2.0"\nnamespace ex\nuse aws.protocols#restJson1\n@restJson1\nservice S { operations: [Op] }\n@http(method: "POST", uri: "/op")\noperation Op { input := { ${text} } }\n`;
    const { model: m } = loadModel({ sources: [{ file: "p.smithy", text: source }] });
    const schema = (toOpenApi(m).components as { schemas: Record<string, { properties: Record<string, { pattern?: string }> }> }).schemas["OpInput"]!;
    return Object.fromEntries(Object.entries(schema.properties).map(([name, s]) => [name, s.pattern]));
  };

  it("gives ECMAScript patterns as written, Java-syntax ones as validation reads them, and leaves out what has no ECMAScript form", () => {
    expect(
      patterns(String.raw`@pattern("^[a-z]+$") plain: String, @pattern("^\\A\\S[\\p{Print}]*\\z$") java: String, @pattern("^(?i)abc$") caseless: String`),
    ).toEqual({
      plain: "^[a-z]+$",
      java: "^^\\S[ -~]*$$",
      caseless: undefined,
    });
  });
});
