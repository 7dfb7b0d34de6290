/**
 * Waiters carry a JMESPath engine; paginators and plain calls must not.
 * The example's generated client file exports both `paginateListCities`
 * and `waitUntilCityExists`: bundled by esbuild for the browser from the
 * packages' built `dist`, a program that pages (or only calls) holds no
 * JMESPath, and one that waits does.
 *
 * Needs the packages built: `npx --yes pnpm@12.4.2 exec turbo run build --filter=@anvil/client-core... --filter=@anvil/protocol-restjson...`.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..", "..");
const generated = join(root, "apps", "example", "src", "generated");

const PROGRAMS = {
  call: `import { createClient } from "@anvil/client-core";
import { restJson1 } from "@anvil/protocol-restjson";
import { Weather } from "${generated}/weather.js";
export const run = (endpoint) => createClient(Weather, { endpoint, protocols: [restJson1()] }).getCity({ cityId: "paris" });
`,
  page: `import { createClient } from "@anvil/client-core";
import { restJson1 } from "@anvil/protocol-restjson";
import { Weather } from "${generated}/weather.js";
import { paginateListCities } from "${generated}/weather.client.js";
export async function run(endpoint) {
  const out = [];
  for await (const city of paginateListCities(createClient(Weather, { endpoint, protocols: [restJson1()] })).items()) out.push(city.cityId);
  return out;
}
`,
  wait: `import { createClient } from "@anvil/client-core";
import { restJson1 } from "@anvil/protocol-restjson";
import { Weather } from "${generated}/weather.js";
import { waitUntilCityExists } from "${generated}/weather.client.js";
export const run = (endpoint) => waitUntilCityExists(createClient(Weather, { endpoint, protocols: [restJson1()] }), { cityId: "oslo" }, { maxWaitTime: 60 });
`,
};

/** The inputs of a bundle that hold code, by path. */
type Inputs = string[];

describe("waiters tree-shake", () => {
  let dir: string;
  const bundles = new Map<keyof typeof PROGRAMS, Inputs>();

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "anvil-waiter-bundle-")));
    for (const [name, text] of Object.entries(PROGRAMS) as [keyof typeof PROGRAMS, string][]) {
      writeFileSync(join(dir, `${name}.ts`), text);
      const result = await build({
        absWorkingDir: dir,
        entryPoints: [`${name}.ts`],
        outfile: `${name}.js`,
        platform: "browser",
        format: "esm",
        bundle: true,
        minify: true,
        metafile: true,
        write: false,
        logLevel: "silent",
        // The program's own imports resolve as the example's do.
        nodePaths: [join(root, "apps", "example", "node_modules")],
      });
      expect(result.errors).toEqual([]);
      const output = Object.values(result.metafile.outputs)[0]!;
      bundles.set(
        name,
        Object.entries(output.inputs)
          .filter(([, i]) => i.bytesInOutput > 0)
          .map(([path]) => path),
      );
    }
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const jmespath = (inputs: Inputs) => inputs.filter((i) => /jmespath/.test(i));
  const waiterCode = (inputs: Inputs) => inputs.filter((i) => /packages\/client-core\/dist\/waiters\.js$/.test(i));

  it("a program that only calls holds no paginator or waiter code", () => {
    expect(jmespath(bundles.get("call")!)).toEqual([]);
    expect(waiterCode(bundles.get("call")!)).toEqual([]);
  });

  it("a program that pages holds no JMESPath engine and no waiter", () => {
    expect(jmespath(bundles.get("page")!)).toEqual([]);
    expect(waiterCode(bundles.get("page")!)).toEqual([]);
  });

  it("a program that waits holds both", () => {
    expect(jmespath(bundles.get("wait")!).length).toBeGreaterThan(0);
    expect(waiterCode(bundles.get("wait")!).length).toBe(1);
  });
});
