/**
 * The reflection service's two messages, read and written by hand: what
 * protobufjs writes from the upstream reflection.proto reads back the same,
 * what is written protobufjs reads back the same, and random bytes give a
 * request or a SerializationError, never anything else.
 */
import { fileURLToPath } from "node:url";
import { SerializationError } from "@anvil/core";
import fc from "fast-check";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { type ReflectionResponse, readRequest, writeResponse } from "./reflection.js";

const PROTO = fileURLToPath(new URL("../node_modules/@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto", import.meta.url));
const root = protobuf.loadSync(PROTO);
const Request = root.lookupType("grpc.reflection.v1.ServerReflectionRequest");
const Response = root.lookupType("grpc.reflection.v1.ServerReflectionResponse");

const text = fc.string({ maxLength: 20 });
const asked = fc.oneof(
  fc.record({ fileByFilename: text }),
  fc.record({ fileContainingSymbol: text }),
  fc.record({ allExtensionNumbersOfType: text }),
  fc.record({ listServices: text }),
  fc.record({ fileContainingExtension: fc.record({ containingType: text, extensionNumber: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) }) }),
);

describe("reflection messages", () => {
  it("reads every request protobufjs writes", () => {
    fc.assert(
      fc.property(text, asked, (host, request) => {
        const bytes = Request.encode(Request.fromObject({ host, ...request })).finish();
        const read = readRequest(bytes);
        const [$case, value] = Object.entries(request)[0]!;
        expect(read.host).toBe(host);
        expect(read.request).toEqual({ $case, value });
        expect(read.raw).toEqual(new Uint8Array(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it("writes answers protobufjs reads back", () => {
    const answer = fc.oneof(
      fc.record({ $case: fc.constant("fileDescriptorResponse" as const), value: fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 4 }) }),
      fc.record({ $case: fc.constant("listServicesResponse" as const), value: fc.array(text, { maxLength: 4 }) }),
      fc.record({ $case: fc.constant("errorResponse" as const), value: fc.record({ code: fc.integer({ min: 0, max: 16 }), message: text }) }),
    );
    fc.assert(
      fc.property(text, asked, answer, (validHost, request, response) => {
        const originalRequest = Request.encode(Request.fromObject(request)).finish();
        const bytes = writeResponse({ validHost, originalRequest, response } as ReflectionResponse);
        const decoded = Response.toObject(Response.decode(bytes), { defaults: false, oneofs: true }) as Record<string, any>;
        expect(decoded.validHost ?? "").toBe(validHost);
        expect(Request.toObject(Request.decode(Request.encode(decoded.originalRequest ?? {}).finish()))).toEqual(
          Request.toObject(Request.decode(originalRequest)),
        );
        if (response.$case === "fileDescriptorResponse") {
          expect(decoded.messageResponse).toBe("fileDescriptorResponse");
          expect((decoded.fileDescriptorResponse.fileDescriptorProto ?? []).map((b: Uint8Array) => Uint8Array.from(b))).toEqual(response.value);
        } else if (response.$case === "listServicesResponse") {
          expect(decoded.messageResponse).toBe("listServicesResponse");
          expect((decoded.listServicesResponse.service ?? []).map((s: { name?: string }) => s.name ?? "")).toEqual(response.value);
        } else {
          expect(decoded.messageResponse).toBe("errorResponse");
          expect([decoded.errorResponse.errorCode ?? 0, decoded.errorResponse.errorMessage ?? ""]).toEqual([response.value.code, response.value.message]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("reads random bytes into a request or a SerializationError, nothing else", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          readRequest(bytes);
        } catch (error) {
          expect(SerializationError.is(error), String(error)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
