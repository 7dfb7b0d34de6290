/**
 * `@anvil/eventstream`: `application/vnd.amazon.eventstream` for every
 * protocol that uses it, and Server-Sent Events (`text/event-stream`) as a
 * second framing of output event streams. A `@streaming` union compiles
 * once into the mapping between its variants and messages, with the
 * protocol's payload codec. Imports only `@anvil/core`.
 *
 * @packageDocumentation
 */
export { decodeEventMessage, encodeEventMessage, EVENT_STREAM_MEDIA_TYPE } from "./message.js";
export type { EventHeaderValue, EventMessage } from "./message.js";
export { DEFAULT_MAX_FRAME_BYTES, splitFrames } from "./frames.js";
export { compileEventStream } from "./events.js";
export type { EventPayloadCodec, EventStreamSerde } from "./events.js";
export { initialMessage, openEventStream, readEventStream, writeEventStream } from "./stream.js";
export type { InitialEventType, ReadEventStreamOptions } from "./stream.js";
export { documentEventStreams, eventStreamMember } from "./document-streams.js";
export type { DocumentEventStreamOptions, DocumentEventStreams, EventStreamMember } from "./document-streams.js";
export { formatServerSentComment, formatServerSentEvent, readServerSentEvents, SSE_MEDIA_TYPE } from "./sse-framing.js";
export type { ReadServerSentEventsOptions, ServerSentEvent, ServerSentEventInit } from "./sse-framing.js";
export { compileServerSentEvents, readServerSentEventStream, SSE_ERROR_EVENT, SSE_STREAM_ERROR_EVENT, writeServerSentEvents } from "./sse-events.js";
export type { EventTextCodec, ServerSentEventMessage, ServerSentEventSerde, WriteServerSentEventsOptions } from "./sse-events.js";
