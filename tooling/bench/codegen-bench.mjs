// `anvil generate` speed on a large generated model. Baseline: loading the
// same model (IDL parse + assemble + validate), which every generate run
// does first, so the ratio says what generation adds on top of loading.
import { generate } from "@anvil/codegen";
import { loadModel } from "@anvil/model";
import { generateModel } from "./model-bench.mjs";
import { interleaved } from "./timing.mjs";

export async function runCodegenBench({ quick }) {
  console.log(`\nCode generation (anvil generate: types, schemas, errors, descriptor, server and client surfaces)`);
  console.log(
    `${"model".padEnd(10)} ${"shapes".padStart(7)} ${"load ms".padStart(9)} ${"generate ms".padStart(12)} ${"load+gen ms".padStart(12)} ${"gen vs load".padStart(12)} ${"out KB".padStart(8)}`,
  );
  for (const bytes of quick ? [400_000] : [400_000, 2_000_000]) {
    const text = generateModel(bytes);
    const sources = [{ file: "large.smithy", text }];
    const { model } = loadModel({ sources });
    const options = { client: true, server: true };
    const outBytes = generate(model, options).files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    const [load, gen, both] = interleaved(
      [() => loadModel({ sources }), () => generate(model, options), () => generate(loadModel({ sources }).model, options)],
      quick ? 2000 : 6000,
      quick ? 5 : 9,
    );
    const label = `${(Buffer.byteLength(text) / 1000).toFixed(0)} KB`;
    console.log(
      `${label.padEnd(10)} ${String(model.shapes.size).padStart(7)} ${load.ms.toFixed(1).padStart(9)} ${gen.ms.toFixed(1).padStart(12)} ${both.ms.toFixed(1).padStart(12)} ${`${gen.timeRatio.toFixed(2)}x`.padStart(12)} ${(outBytes / 1000).toFixed(0).padStart(8)}`,
    );
  }
}
