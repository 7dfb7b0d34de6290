/**
 * A small service and server for the adapter tests: echo, a failing
 * operation, streaming up- and downloads, and calls that wait (for their
 * signal, or to be released).
 *
 * @internal
 */
import { blob, integer, member, operation, service, string, struct } from "@anvil/core/codegenv1";
import type { ByteStream } from "@anvil/core";
import { createServer, type HandlerContext, type Server } from "./index.js";
import { testProtocol } from "./test-protocol.js";

const Echo = operation("example.test#Echo", {
  input: struct<{ name: string; text?: string }>("example.test#EchoInput", [
    member("name", string, { required: true, httpLabel: true }),
    member("text", string),
  ]),
  output: struct<{ message?: string }>("example.test#EchoOutput", [member("message", string)]),
  traits: { http: { method: "POST", uri: "/echo/{name}", code: 200 } },
});
const Fail = operation("example.test#Fail", {
  input: struct("example.test#FailInput", []),
  output: struct("example.test#FailOutput", []),
  traits: { http: { method: "POST", uri: "/fail", code: 200 } },
});
const Download = operation("example.test#Download", {
  input: struct<{ count: string }>("example.test#DownloadInput", [member("count", string, { required: true, httpLabel: true })]),
  output: struct<{ data?: ByteStream }>("example.test#DownloadOutput", [member("data", blob, { streaming: true })]),
  traits: { http: { method: "POST", uri: "/download/{count}", code: 200 } },
});
const Upload = operation("example.test#Upload", {
  input: struct<{ data?: ByteStream }>("example.test#UploadInput", [member("data", blob, { streaming: true })]),
  output: struct<{ size?: number }>("example.test#UploadOutput", [member("size", integer)]),
  traits: { http: { method: "POST", uri: "/upload", code: 200 } },
});
const Wait = operation("example.test#Wait", {
  input: struct("example.test#WaitInput", []),
  output: struct("example.test#WaitOutput", []),
  traits: { http: { method: "POST", uri: "/wait", code: 200 } },
});

/** The test service, on the JSON test protocol. */
export const TestService = service("example.test#TestService", {
  operations: { echo: Echo, fail: Fail, download: Download, upload: Upload, wait: Wait },
  protocols: ["test#json"],
});

/** 64 KiB, the chunk size of downloads. */
export const CHUNK = 64 * 1024;

/** What the handlers saw, for assertions. */
export interface Observed {
  /** Chunks the current download produced so far. */
  produced: number;
  /** Calls whose signal fired, with the reason's message. */
  readonly aborted: string[];
  /** Contexts of echo calls. */
  readonly contexts: HandlerContext[];
  /** Releases every waiting call that has not been aborted. */
  release(): void;
  /** Resolves when a call starts waiting. */
  waiting(): Promise<void>;
}

/** A started server for the test service (echo limit 2 KiB, 1 KiB for everything else). */
export function testServer(): { server: Server<typeof TestService>; observed: Observed } {
  const releases: (() => void)[] = [];
  const onWait: (() => void)[] = [];
  const observed: Observed = {
    produced: 0,
    aborted: [],
    contexts: [],
    release: () => releases.splice(0).forEach((r) => r()),
    waiting: () => new Promise((resolve) => onWait.push(resolve)),
  };
  const server = createServer(TestService, { protocols: [testProtocol("test#json")], bodyLimit: 1024, bodyLimits: { echo: 2048 } })
    .register({
      echo: (input, context) => {
        observed.contexts.push(context);
        return { message: `${input.name}:${input.text?.length ?? 0}` };
      },
      fail: () => {
        throw new Error("secret database password in a stack trace");
      },
      download: (input) => {
        observed.produced = 0;
        const count = Number(input.count);
        async function* chunks(): AsyncGenerator<Uint8Array> {
          for (let i = 0; i < Math.abs(count); i++) {
            // A negative count fails half-way, after the headers went out.
            if (count < 0 && i === 2) throw new Error("the disk went away");
            observed.produced++;
            yield new Uint8Array(CHUNK).fill(i % 256);
          }
        }
        return { data: chunks() };
      },
      upload: async (input) => {
        let size = 0;
        if (input.data !== undefined) for await (const chunk of input.data as AsyncIterable<Uint8Array>) size += chunk.byteLength;
        return { size };
      },
      wait: (_input, { signal }) =>
        new Promise((resolve, reject) => {
          releases.push(() => resolve({}));
          signal.addEventListener("abort", () => {
            observed.aborted.push(String((signal.reason as Error | undefined)?.message));
            reject(signal.reason);
          });
          onWait.splice(0).forEach((r) => r());
        }),
    })
    .mapService()
    .start();
  return { server, observed };
}
