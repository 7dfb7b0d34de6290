/**
 * Body helpers every protocol needs, on web-standard APIs only
 * (CompressionStream works in Node 18+, Deno, Bun and browsers).
 */
import { collectBytes } from "../values/streams.js";
import type { HttpBody } from "./http.js";

const EMPTY = new Uint8Array(0);

/** A whole body as bytes: nothing is empty bytes, streams are collected. */
export async function readBody(body: HttpBody): Promise<Uint8Array> {
  if (body === undefined) return EMPTY;
  return collectBytes(body);
}

/** Whether bytes hold nothing but JSON whitespace (an empty body for protocols that read it as `{}`). */
export function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

async function pipe(bytes: Uint8Array, transform: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Gzips bytes (`@requestCompression`). */
export function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(bytes, new CompressionStream("gzip"));
}

/** Gunzips bytes (a request sent with `Content-Encoding: gzip`); rejects on data that is not gzip. */
export function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(bytes, new DecompressionStream("gzip"));
}

/** Whether a message's `Content-Encoding` lists gzip. */
export function isGzipEncoded(headers: Headers): boolean {
  const encoding = headers.get("content-encoding");
  return encoding !== null && encoding.split(",").some((e) => e.trim().toLowerCase() === "gzip");
}
