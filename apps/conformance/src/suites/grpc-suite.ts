/**
 * The `grpc` suite: the interop matrix with grpc-js (see `grpc/matrix.ts`),
 * one part per direction, one case per behaviour. Unlike the corpus suites
 * it needs no corpus files: the peers are real (grpc-js with proto-loader on
 * the `.proto` Anvil emits).
 */
import { describeError } from "../runner.js";
import { failed, passed, type CaseResult, type Suite, type SuitePart } from "../suite.js";
import { anvilClientSide, grpcJsClientSide, type InteropSide } from "./grpc/matrix.js";

function part(name: string, description: string, side: () => InteropSide): SuitePart {
  return {
    name,
    description,
    async run(): Promise<CaseResult[]> {
      const running = side();
      const results: CaseResult[] = [];
      try {
        for (const c of await running.start()) {
          try {
            await c.run();
            results.push(passed(c.name));
          } catch (error) {
            results.push(failed(c.name, describeError(error)));
          }
        }
      } catch (error) {
        results.push(failed("(start)", describeError(error)));
      } finally {
        await running.stop();
      }
      return results;
    },
  };
}

/** The gRPC interop suite. */
export const grpcSuite: Suite = {
  name: "grpc",
  description:
    "gRPC interop with grpc-js (proto-loader on the emitted .proto): every call kind, errors, deadlines, cancellation, metadata and limits, both ways",
  parts: [
    part("grpc-js-client", "a grpc-js client calling the Anvil server behaves as the case says", grpcJsClientSide),
    part("anvil-client", "the Anvil client calling a grpc-js server behaves as the case says", anvilClientSide),
  ],
};
