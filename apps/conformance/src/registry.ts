import type { Suite } from "./suite.js";
import { grpcSuite } from "./suites/grpc-suite.js";
import { idlSuite } from "./suites/idl-suite.js";
import { modelsSuite } from "./suites/models-suite.js";
import { PROTOCOL_SUITES } from "./suites/protocol-suite.js";

/**
 * Every registered suite, in run order. To add one, write
 * `suites/<name>-suite.ts` exporting a {@link Suite} and list it here.
 * Protocol suites (restJson1, simpleRestJson, awsJson1_0, ...) come from
 * the configs in `suites/protocol-suite.ts`; `grpc` runs the gRPC interop
 * matrix with grpc-js (`suites/grpc-suite.ts`).
 */
export const SUITES: readonly Suite[] = [idlSuite, modelsSuite, ...PROTOCOL_SUITES, grpcSuite];
