import { loadModel } from "@anvil/model";
import { describe, expect, it } from "vitest";
import { toOpenApi } from "./openapi.js";
import { documentedProtocols } from "./protocols.js";
import { exampleSamples } from "./site/samples.js";

const MODEL = `$version: "2.0"
namespace ex
use aws.protocols#restJson1
use aws.protocols#awsJson1_1
@restJson1
@awsJson1_1
service Alerts { operations: [Watch] }
@readonly
@http(method: "GET", uri: "/cities/{cityId}/alerts")
@examples([{
  title: "A storm"
  input: { cityId: "oslo" }
  output: { events: [{ tick: { at: "2024-06-01T12:00:00Z" } }, { alert: { level: 3, raw: "AQID" } }, { closed: { message: "bye" } }] }
}])
operation Watch {
  input := { @required @httpLabel cityId: String }
  output := { @httpHeader("X-Since") since: String, @required @httpPayload events: Events }
}
@streaming
union Events { tick: Tick, alert: Alert, closed: Closed }
structure Tick { @required at: Timestamp }
structure Alert { @eventHeader @required level: Integer, @jsonName("raw_bytes") raw: Blob }
@error("server")
structure Closed { message: String }
`;

const { model } = loadModel({ sources: [{ file: "alerts.smithy", text: MODEL }] });
const service = model.getShape("ex#Alerts")!;
const EVENTS = [
  'event: tick\nid: 1\ndata: {"at":1717243200}',
  'event: alert\nid: 2\ndata: {"level":3,"raw_bytes":"AQID"}',
  'event: Closed\nid: 3\ndata: {"message":"bye"}',
];

describe("output event streams as Server-Sent Events in the documentation", () => {
  it("the OpenAPI document's restJson1 answer offers text/event-stream next to the binary framing, with the example's events", () => {
    const doc = toOpenApi(model) as unknown as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, unknown> }> }>> };
    const content = doc.paths["/cities/{cityId}/alerts"]!.get!.responses["200"]!.content as Record<string, { schema: object; examples?: object }>;
    expect(Object.keys(content)).toEqual(["application/vnd.amazon.eventstream", "text/event-stream"]);
    expect(content["text/event-stream"]!.schema).toMatchObject({ type: "string" });
    expect(content["text/event-stream"]!.examples).toEqual({ "A-storm": { summary: "A storm", value: `${EVENTS.join("\n\n")}\n\n` } });
    // awsJson1_1 has no such framing.
    const rpc = JSON.stringify(Object.entries(doc.paths).filter(([path]) => path !== "/cities/{cityId}/alerts"));
    expect(rpc).not.toContain("text/event-stream");
  });

  it("the /docs samples show the curl -N call and its Server-Sent Events answer, for restJson1 only", () => {
    const operation = model.getShape("ex#Watch")!;
    const example = (operation.traits.get("smithy.api#examples") as never[])[0]!;
    const samples = exampleSamples(model, service, operation, example, documentedProtocols(service));
    const rest = samples.find((s) => s.protocol.name === "restJson1")!.samples;
    expect(rest.find((s) => s.label === "Request (Server-Sent Events)")?.text).toBe(
      `curl -N -X GET "$URL/cities/oslo/alerts" \\\n  -H 'Accept: text/event-stream'`,
    );
    expect(rest.find((s) => s.label === "Response (Server-Sent Events)")?.text).toBe(
      `HTTP/1.1 200 OK\nContent-Type: text/event-stream\nCache-Control: no-cache\n\n${EVENTS.join("\n\n")}`,
    );
    expect(samples.find((s) => s.protocol.name === "awsJson1_1")!.samples.some((s) => s.label.includes("Server-Sent"))).toBe(false);
  });
});
