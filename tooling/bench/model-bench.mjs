// IDL parse + assemble throughput on a large generated model, against
// JSON.parse of the same model's JSON AST (V8's native parser) as baseline.
import { interleaved } from "./timing.mjs";
import { loadModel, modelToJsonAst, stringifyNode } from "@anvil/model";

/** A deterministic Smithy model of about `targetBytes`: services, operations, structures, docs and traits. */
export function generateModel(targetBytes) {
  const parts = ['$version: "2.0"\n\nnamespace bench.large\n\nuse aws.protocols#restJson1\n'];
  let size = parts[0].length;
  const ops = [];
  for (let i = 0; size < targetBytes; i++) {
    const chunk = `
/// Operation ${i} reads a widget and its ${i % 7} related gadgets.
/// Documentation comments span lines, as in real models.
@readonly
@http(method: "GET", uri: "/widgets/{id}/op${i}", code: 200)
operation Op${i} {
    input := {
        @required
        @httpLabel
        @length(min: 1, max: 64)
        id: String

        @httpQuery("limit")
        @range(min: 1, max: 100)
        limit: Integer = 10

        @httpHeader("X-Trace-${i}")
        trace: String
    }
    output := {
        @required
        widget: Widget${i}
        tags: TagList
    }
    errors: [NotFound]
}

/// A widget, version ${i}.
structure Widget${i} {
    @required
    name: String

    @jsonName("created_at")
    @timestampFormat("date-time")
    createdAt: Timestamp

    size: WidgetSize
    attributes: AttributeMap
    price: BigDecimal
    enabled: Boolean = true
}
`;
    parts.push(chunk);
    size += chunk.length;
    ops.push(`Op${i}`);
  }
  parts.push(`
@restJson1
service LargeService {
    version: "2024-01-01"
    operations: [${ops.join(", ")}]
}

@error("client")
@httpError(404)
structure NotFound {
    @required
    message: String
}

enum WidgetSize {
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
}

map AttributeMap {
    key: String
    value: String
}

list TagList {
    member: String
}
`);
  return parts.join("");
}

export async function runModelBench({ quick }) {
  const idl = generateModel(quick ? 400_000 : 2_000_000);
  const mb = Buffer.byteLength(idl) / 1e6;
  const first = loadModel({ sources: [{ file: "large.smithy", text: idl }] });
  const errors = first.events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
  if (errors.length) throw new Error(`bench model is invalid: ${errors[0].message}`);
  const json = stringifyNode(modelToJsonAst(first.model));
  const jsonMb = Buffer.byteLength(json) / 1e6;
  const minMs = quick ? 500 : 3000;

  const [baseline, idlOnly, idlValidated, ast] = interleaved(
    [
      () => JSON.parse(json),
      () => loadModel({ sources: [{ file: "large.smithy", text: idl }], validate: false }),
      () => loadModel({ sources: [{ file: "large.smithy", text: idl }] }),
      () => loadModel({ sources: [{ file: "large.json", text: json }], validate: false }),
    ],
    minMs * 4,
    quick ? 5 : 9,
  );
  const [baselineMs, idlMs, idlValidatedMs, astMs] = [baseline.ms, idlOnly.ms, idlValidated.ms, ast.ms];

  const rows = [
    ["JSON.parse of the JSON AST (baseline)", jsonMb, baselineMs],
    ["anvil: IDL parse + assemble", mb, idlMs],
    ["anvil: IDL parse + assemble + validate", mb, idlValidatedMs],
    ["anvil: JSON AST load + assemble", jsonMb, astMs],
  ];
  console.log(`\nModel loader — generated model: ${mb.toFixed(2)} MB IDL, ${jsonMb.toFixed(2)} MB JSON AST, ${first.model.shapes.size} shapes`);
  console.log(`${"case".padEnd(44)} ${"MB/s".padStart(8)} ${"ms/run".padStart(9)} ${"vs baseline".padStart(12)}`);
  for (const [name, size, ms] of rows) {
    console.log(
      `${name.padEnd(44)} ${(size / (ms / 1000)).toFixed(1).padStart(8)} ${ms.toFixed(1).padStart(9)} ${`${(ms / baselineMs).toFixed(1)}x time`.padStart(12)}`,
    );
  }
}
