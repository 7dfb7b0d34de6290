/**
 * The `@anvil/server` README's examples run as written: the main example
 * prints what the README says it prints, and the AWS Lambda entry file
 * answers API Gateway's events as the README says.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runReadmeExample } from "@anvil/test-support";
import { expect, it } from "vitest";

// Run from this package, whose dependencies include everything the examples import.
const here = join(import.meta.dirname, "..");
const readme = join(here, "..", "..", "packages", "server", "README.md");

it("runs the server README's example", async () => {
  const { stdout, printed } = await runReadmeExample(here, { lang: "ts", readme });
  expect(stdout).toBe(printed);
});

it("runs the README's Lambda entry file, answering an HTTP API event and a REST API event", async () => {
  const code = /```js\n(\/\/ handler\.mjs[\s\S]*?)```/.exec(readFileSync(readme, "utf8"))?.[1];
  expect(code, "the README has no ```js block starting with // handler.mjs").toBeDefined();
  mkdirSync(join(here, ".vitest"), { recursive: true });
  const file = join(here, ".vitest", "readme-lambda-handler.mjs");
  writeFileSync(file, code!);
  const { handler } = (await import(pathToFileURL(file).href)) as { handler: (event: unknown, context?: unknown) => Promise<Record<string, unknown>> };
  const end = Date.now() + 3_000;
  const context = { awsRequestId: "8f5b2c1e-0d3a-4b6f-9e7d-1a2b3c4d5e6f", getRemainingTimeInMillis: () => end - Date.now() };
  const httpApi = (rawPath: string) => ({
    version: "2.0",
    routeKey: "$default",
    rawPath,
    rawQueryString: "",
    headers: { accept: "application/json", host: "a1b2c3d4e5.execute-api.us-east-1.amazonaws.com" },
    requestContext: {
      apiId: "a1b2c3d4e5",
      domainName: "a1b2c3d4e5.execute-api.us-east-1.amazonaws.com",
      http: { method: "GET", path: rawPath, protocol: "HTTP/1.1", sourceIp: "198.51.100.7", userAgent: "curl/8.5.0" },
      requestId: "JKJaXmPLvHcESHA=",
      stage: "$default",
    },
    isBase64Encoded: false,
  });
  const sea = await handler(httpApi("/cities/sea"), context);
  expect([sea.statusCode, JSON.parse(sea.body as string)]).toEqual([200, { name: "Seattle", requestId: "JKJaXmPLvHcESHA=" }]);
  const paris = await handler(httpApi("/cities/paris"), context);
  expect([paris.statusCode, (paris.headers as Record<string, string>)["x-amzn-errortype"]]).toEqual([404, "NoSuchCity"]);
  const rest = await handler(
    {
      resource: "/{proxy+}",
      path: "/cities/sea",
      httpMethod: "GET",
      headers: { Accept: "application/json" },
      multiValueHeaders: { Accept: ["application/json"] },
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      requestContext: { path: "/prod/cities/sea", stage: "prod", requestId: "c6af9ac6-7b61-11e6-9a41-93e8deadbeef", identity: { sourceIp: "198.51.100.7" } },
      body: null,
      isBase64Encoded: false,
    },
    context,
  );
  expect([rest.statusCode, JSON.parse(rest.body as string)]).toEqual([200, { name: "Seattle", requestId: "c6af9ac6-7b61-11e6-9a41-93e8deadbeef" }]);
});
