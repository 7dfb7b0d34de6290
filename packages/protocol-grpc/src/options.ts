/**
 * Settings of both sides of the protocol, merged with frozen defaults in one
 * place.
 *
 * @internal
 */
import type { Codec } from "@anvil/core";
import { DEFAULT_MAX_RECEIVE_BYTES } from "./frames.js";

/** Settings of {@link grpc}. */
export interface GrpcOptions {
  /** The message codec. Default Anvil's protobuf codec (`application/grpc+proto`); tests may pass another `Codec`. */
  readonly codec: Codec;
  /** Largest message received, in bytes (after decompression); larger ones fail with RESOURCE_EXHAUSTED. Default 4 MiB. */
  readonly maxReceiveMessageBytes: number;
}

/** The settings with their defaults. */
export type ResolvedGrpcOptions = Readonly<GrpcOptions>;

/** Applies the defaults. */
export function resolveGrpcOptions(options: Partial<GrpcOptions>, defaultCodec: Codec | undefined): ResolvedGrpcOptions {
  const codec = options.codec ?? defaultCodec;
  if (codec === undefined) throw new TypeError("grpc: a message codec is required");
  const maxReceiveMessageBytes = options.maxReceiveMessageBytes ?? DEFAULT_MAX_RECEIVE_BYTES;
  if (!(maxReceiveMessageBytes >= 0) || !Number.isInteger(maxReceiveMessageBytes)) {
    throw new TypeError(`grpc: maxReceiveMessageBytes must be a whole number of bytes, got ${maxReceiveMessageBytes}`);
  }
  return Object.freeze({ codec, maxReceiveMessageBytes });
}
