// Runs a codec's readers on untrusted bytes in a worker thread, so the
// contract suite can stop (and report) an input that makes a reader hang.
// Plain JavaScript: the worker loads the built packages, not the TypeScript.
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { SerializationError } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";

const { modelFile, codecModule, codecExport, settings } = workerData;
const codec = (await import(codecModule))[codecExport];
const { model } = loadModel({ sources: [{ file: modelFile, text: readFileSync(modelFile, "utf8") }] });
const schemas = schemasFromModel(model);
const readers = new Map();

function readerFor(id) {
  let r = readers.get(id);
  if (!r) readers.set(id, (r = codec.reader(schemas.shape(id), settings)));
  return r;
}

parentPort.on("message", ({ batch }) => {
  for (let i = 0; i < batch.length; i++) {
    const { schemaId, bytes } = batch[i];
    parentPort.postMessage({ type: "start", index: i });
    const started = performance.now();
    let outcome = "ok";
    let detail = "";
    try {
      readerFor(schemaId)(bytes);
    } catch (e) {
      if (SerializationError.is(e)) outcome = "serialization";
      else {
        outcome = "crash";
        detail = e instanceof Error ? `${e.constructor.name}: ${e.message}` : `non-error thrown: ${String(e)}`;
      }
    }
    parentPort.postMessage({ type: "done", index: i, outcome, detail, ms: performance.now() - started });
  }
  parentPort.postMessage({ type: "batch-done" });
});
parentPort.postMessage({ type: "ready" });
