/**
 * The service of the gRPC interop matrix, as Smithy IDL loaded at run time
 * (the runner's dynamic schemas, no generated code), and its handlers.
 */
import { errorClass, type EventStream, type ServiceSchema, type StructSchema, type UnionValue } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";

const GREETER = `$version: "2.0"
namespace example.grpcinterop

use alloy.proto#grpc
use alloy.proto#protoIndex
use smithy.framework#ValidationException

@grpc
service Greeter {
    version: "1"
    operations: [SayHello, Echo, Fail, Wait, Countdown, Sum, Chat]
    errors: [ValidationException]
}

operation SayHello {
    input := {
        @required @length(min: 1) @protoIndex(1) name: String
        @protoIndex(2) times: Integer
    }
    output := { @protoIndex(1) message: String }
    errors: [NoSuchName]
}

@error("client") @httpError(404)
structure NoSuchName {
    @protoIndex(1) message: String
    @protoIndex(2) name: String
}

operation Echo {
    input := { @protoIndex(1) data: Blob }
    output := {
        @protoIndex(1) size: Integer
        @protoIndex(2) data: Blob
    }
}

operation Fail {}

operation Wait {}

operation Countdown {
    input := { @protoIndex(1) from: Integer }
    output := { @required @protoIndex(1) ticks: TickStream }
    errors: [NoSuchName]
}

operation Sum {
    input := { @required @protoIndex(1) ticks: TickStream }
    output := { @protoIndex(1) total: Integer }
}

operation Chat {
    input := { @required @protoIndex(1) says: ChatStream }
    output := { @required @protoIndex(1) replies: ChatStream }
}

@streaming
union TickStream { @protoIndex(1) tick: Tick }

structure Tick { @required @protoIndex(1) n: Integer }

@streaming
union ChatStream { @protoIndex(1) say: Say }

structure Say { @required @protoIndex(1) text: String }
`;

/** The Greeter service schema, built from the IDL above. */
export function greeterService(): ServiceSchema {
  const { model, events } = loadModel({ sources: [{ file: "greeter.smithy", text: GREETER }] });
  const errors = events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
  if (errors.length > 0) throw new Error(`grpc suite: the Greeter model does not load: ${errors.map((e) => e.message).join("; ")}`);
  return schemasFromModel(model).service("example.grpcinterop#Greeter");
}

type Tick = UnionValue<{ tick: { n: number } }>;
type Say = UnionValue<{ say: { text: string } }>;

/** What the handlers saw, for the checks. */
export interface Seen {
  headers?: Headers;
  readonly aborted: string[];
}

interface Ctx {
  readonly headers: Headers;
  readonly signal: AbortSignal;
  readonly responseHeaders: Headers;
}

/** The Greeter handlers. */
export function greeterHandlers(service: ServiceSchema, seen: Seen): Record<string, (input: any, context: Ctx) => unknown> {
  const NoSuchName = errorClass(service.operations["sayHello"]!.errors[0] as StructSchema);
  return {
    sayHello(input: { name: string; times?: number }, context: Ctx) {
      seen.headers = context.headers;
      context.responseHeaders.set("x-served-by", "anvil");
      if (input.name === "nobody") throw new NoSuchName({ message: "no such name", name: input.name });
      return { message: `hello ${input.name}`.repeat(input.times ?? 1) };
    },
    echo(input: { data?: Uint8Array }) {
      return { size: input.data?.byteLength ?? 0 };
    },
    fail(): never {
      throw new Error("secret database password in a stack trace");
    },
    wait(_input: unknown, context: Ctx) {
      return new Promise((_resolve, reject) => {
        context.signal.addEventListener("abort", () => {
          seen.aborted.push(String((context.signal.reason as Error | undefined)?.message));
          reject(context.signal.reason);
        });
      });
    },
    countdown(input: { from?: number }) {
      const from = input.from ?? 3;
      async function* ticks(): AsyncGenerator<Tick> {
        for (let n = Math.abs(from); n > 0; n--) yield { $case: "tick", value: { n } };
        if (from < 0) throw new NoSuchName({ message: "ran out", name: "countdown" });
      }
      return { ticks: ticks() };
    },
    async sum(input: { ticks: EventStream<Tick> }) {
      let total = 0;
      for await (const event of input.ticks) if (event.$case === "tick") total += (event.value as { n: number }).n;
      return { total };
    },
    chat(input: { says: EventStream<Say> }) {
      async function* replies(): AsyncGenerator<Say> {
        for await (const event of input.says)
          if (event.$case === "say") yield { $case: "say", value: { text: `you said ${(event.value as { text: string }).text}` } };
      }
      return { replies: replies() };
    },
  };
}
