import { validateValue, type ServiceSchema } from "@anvil/core";
import { fakeAnswer, type FakeOperation } from "@anvil/core/protocol";
import { operationExamples, schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fakeOperation, SYNTHESIZED_INSTANT } from "./index.js";

const { model, events } = loadModel({ paths: [fileURLToPath(new URL("./__fixtures__/zoo.smithy", import.meta.url))] });
const schemas = schemasFromModel(model);
const zoo = schemas.service("example.fakes#Zoo");

function tableOf(service: ServiceSchema, key: string): FakeOperation {
  const op = service.operations[key]!;
  return fakeOperation(op, operationExamples(model, model.getShape(op.id)!));
}

function answer(key: string, input: unknown, service: ServiceSchema = zoo) {
  return fakeAnswer(service.operations[key]!, tableOf(service, key), input);
}

describe("fakeOperation + fakeAnswer", () => {
  it("loads the test model without errors", () => {
    expect(events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER")).toEqual([]);
  });

  it("answers the first example whose input is a subset of the incoming one", () => {
    const a = answer("getAnimal", { name: "lion", detail: true });
    expect(a.source).toBe('example "lion"');
    expect(a).toMatchObject({
      output: {
        animal: {
          name: "lion",
          legs: 4,
          diet: "CARNIVORE",
          born: new Date("2020-02-03T04:05:06Z"),
          tags: ["big", "cat"],
          photo: new TextEncoder().encode("lion"),
        },
      },
    });
  });

  it("throws the modeled error of a matched error example, required members filled", () => {
    const a = answer("getAnimal", { name: "unicorn" });
    expect(a.source).toBe('example "no unicorns"');
    expect("error" in a && a.error.members()).toEqual({ message: "no unicorn here", name: "unicorn", hint: "hint" });
  });

  it("falls back to the first non-error example when nothing matches", () => {
    expect(answer("getAnimal", { name: "zebra" }).source).toBe('example "lion"');
    expect(answer("searchAnimals", {}).source).toBe('example "four legs or more"');
  });

  it.each([
    [{ filter: { minLegs: 4, kinds: ["MAMMAL"] } }, "four legs or more"],
    [{ filter: { minLegs: 3 } }, "four legs or more"], // no match: fallback
    [{ filter: { kinds: ["BIRD", "FISH"] } }, "birds and fish"],
    [{ filter: { kinds: ["BIRD"] } }, "four legs or more"], // list lengths differ
    [{ filter: { kinds: ["FISH", "BIRD"] } }, "four legs or more"], // order matters
    [{ labels: { color: "red" } }, "red things"],
    [{ labels: { color: "red", size: "big" } }, "four legs or more"], // map sizes differ
    [{ filter: { where: { $case: "wild", value: { continent: "Africa", country: "Kenya" } } } }, "wild in Africa"],
    [{ filter: { where: { $case: "zoo", value: "Berlin" } } }, "in a zoo"],
    [{ filter: { where: { $case: "zoo", value: "Africa" } } }, "four legs or more"],
    [{ ratio: Number.NaN }, "not a number"],
    [{ ratio: 1 }, "four legs or more"],
    [{ page: 99, ratio: 2 }, "too busy"],
  ])("search %j answers from %s", (input, title) => {
    expect(answer("searchAnimals", input).source).toBe(`example ${JSON.stringify(title)}`);
  });

  it("synthesizes an output honouring constraints, and it passes validation", () => {
    const op = zoo.operations.feedAnimal!;
    const a = answer("feedAnimal", { name: "x" });
    expect(a.source).toBe("synthesized");
    const out = (a as { output: Record<string, unknown> }).output;
    expect(out).toMatchObject({
      portion: 5,
      food: "foodfoodfood",
      code: "AAA-00",
      status: 200,
      when: new Date(SYNTHESIZED_INSTANT),
      meta: "meta",
      colors: ["MAMMAL", "BIRD"],
      counts: { counts: 0, counts1: 1 },
      diet: "HERBIVORE",
      place: { $case: "zoo", value: "zoo" },
      chill: -1,
      tree: { value: "value", children: [] },
    });
    expect([...(out.bytes as Uint8Array)]).toEqual([...new TextEncoder().encode("byte")]);
    expect(validateValue(op.output, out)).toEqual([]);
  });

  it("ends recursion with empty collections and omitted optional members", () => {
    expect((answer("getTree", {}) as { output: unknown }).output).toEqual({ root: { value: "value", children: [] } });
  });

  it("fills required members a single example leaves out", () => {
    expect(answer("ping", { message: "hi" })).toEqual({ source: 'example "pong"', output: { message: "pong", at: new Date(SYNTHESIZED_INSTANT) } });
  });

  it("answers union outputs and drops the pagination token", () => {
    expect((answer("getShape", {}) as { output: unknown }).output).toEqual({ shape: { $case: "square", value: { side: 2 } } });
    expect((answer("listAnimals", {}) as { output: unknown }).output).toEqual({ names: ["lion"] });
  });

  it("keeps a token another example's input carries, and compares the later page's example first: a paginator follows the chain", () => {
    const paged = loadModel({
      sources: [
        {
          file: "paged.smithy",
          text: `$version: "2.0"
namespace ex
@paginated(inputToken: "token", outputToken: "next", items: "names")
@examples([
  { title: "first", input: { size: 2 }, output: { names: ["a", "b"], next: "t2" } }
  { title: "second", input: { size: 2, token: "t2" }, output: { names: ["c"] } }
  { title: "dangling", input: { size: 9 }, output: { names: ["x"], next: "nowhere" } }
])
operation List { input := { token: String, size: Integer }, output := { next: String, names: Names } }
list Names { member: String }
service S { version: "1", operations: [List] }`,
        },
      ],
    }).model;
    const op = schemasFromModel(paged).service("ex#S").operations["list"]!;
    const table = fakeOperation(op, operationExamples(paged, paged.getShape("ex#List")!));
    expect(table.examples.map((e) => e.title)).toEqual(["second", "first", "dangling"]);
    expect(fakeAnswer(op, table, { size: 2 })).toMatchObject({ output: { names: ["a", "b"], next: "t2" } });
    expect(fakeAnswer(op, table, { size: 2, token: "t2" })).toMatchObject({ output: { names: ["c"] } });
    // A token no example's input carries is still left out: one page.
    expect(fakeAnswer(op, table, { size: 9 })).toEqual({ source: 'example "dangling"', output: { names: ["x"] } });
  });

  it("streams: the example's events in order, blob bytes as a stream", async () => {
    const streams = schemas.service("example.fakes#Streams");
    const watch = answer("watch", {}, streams) as { output: { events: AsyncIterable<unknown> } };
    const events: unknown[] = [];
    for await (const e of watch.output.events) events.push(e);
    expect(events).toEqual([
      { $case: "tick", value: { n: 1 } },
      { $case: "tick", value: { n: 0 } },
    ]);
    expect(watch).toMatchObject({ source: 'example "two ticks"' });
    const download = answer("download", {}, streams) as { output: { data: AsyncIterable<Uint8Array> } };
    const chunks: Uint8Array[] = [];
    for await (const c of download.output.data) chunks.push(c);
    expect(new TextDecoder().decode(chunks[0])).toBe("data");
  });

  it("synthesizes one event for an event stream without examples", async () => {
    const watch = schemas.service("example.fakes#Streams").operations.watch!;
    const answered = fakeAnswer(watch, fakeOperation(watch, []), {}) as { output: { events: AsyncIterable<unknown> }; source: string };
    const events: unknown[] = [];
    for await (const e of answered.output.events) events.push(e);
    expect(events).toEqual([{ $case: "tick", value: { n: 0 } }]);
    expect(answered.source).toBe("synthesized");
  });

  it("leaves out an error example naming an error the operation does not declare, and says so", () => {
    const ping = zoo.operations.ping!;
    const warnings: string[] = [];
    const which: unknown[] = [];
    const table = fakeOperation(
      ping,
      [
        { title: "bad", input: {}, error: { shapeId: "example.fakes#NotFound" } },
        { title: "ok", output: { message: "m" } },
      ],
      (w, example) => {
        warnings.push(w);
        which.push(example);
      },
    );
    expect(which).toEqual([{ operation: "example.fakes#Ping", title: "bad" }]);
    expect(table.examples.map((e) => e.title)).toEqual([]);
    expect(table.outputFrom).toBe("ok");
    expect(warnings).toEqual([
      'example "bad" of `example.fakes#Ping` names error `example.fakes#NotFound`, which the operation does not declare: the fake leaves it out',
    ]);
  });
});
