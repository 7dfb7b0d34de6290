/**
 * Retires HTTP/2 sessions that have lived long enough, as gRPC's A9 "max
 * connection age" does: so that clients behind a load balancer reconnect
 * from time to time and new instances get their share. A session's age is
 * the limit give or take 10% (so that sessions opened together do not all
 * go at once); at that age it is told to go away ({@link retire}, debug
 * data `max_age`). Calls in flight finish; after the grace time, those left
 * are cut.
 */
import * as http2 from "node:http2";
import { MAX_TIMER_MS } from "@anvil/core/protocol";

const { NGHTTP2_NO_ERROR } = http2.constants;

/** The highest stream id there is: "no stream is refused yet". */
const ANY_STREAM = 2 ** 31 - 1;

/** How long to wait for the PING of the first step before the second step goes anyway. */
const PING_WAIT_MS = 1_000;

/** Maximum connection age and the grace after it, in milliseconds. */
export interface SessionAge {
  readonly maxMs: number;
  /** 0: calls in flight may take as long as they take. */
  readonly graceMs: number;
}

/** Ages `session`: from now, it is retired at `age.maxMs` ± 10%. */
export function retireAtAge(session: http2.Http2Session, age: SessionAge, random: () => number = Math.random): void {
  const ms = Math.min(MAX_TIMER_MS, Math.round(age.maxMs * (0.9 + 0.2 * random())));
  const timer = setTimeout(() => retire(session, "max_age", age.graceMs), ms);
  timer.unref();
  session.once("close", () => clearTimeout(timer));
}

/**
 * Tells a session to go away (`why` as the GOAWAY's debug data), as gRPC's
 * A9 has it: GOAWAY with the highest stream id there is, a PING, and once
 * it comes back (or a second has passed) the GOAWAY with the last stream
 * taken. Calls in flight finish; after `graceMs` (if not 0), those left are
 * cut.
 *
 * On Node the first step does not admit the calls crossing it: once a
 * session has sent any GOAWAY, nghttp2 takes no new stream, whatever the
 * last stream id said. The last GOAWAY tells the client which streams were
 * not taken, so a gRPC client retries them (they never ran); a client that
 * must not lose a call to a close is served by the listener's lame duck
 * instead (`CloseOptions.lameDuckMs`).
 */
export function retire(session: http2.Http2Session, why: string, graceMs = 0): void {
  if (session.closed || session.destroyed) return;
  session.goaway(NGHTTP2_NO_ERROR, ANY_STREAM, Buffer.from(why));
  let wait: NodeJS.Timeout | undefined;
  let grace: NodeJS.Timeout | undefined;
  session.once("close", () => {
    clearTimeout(wait);
    clearTimeout(grace);
  });
  const close = (): void => {
    clearTimeout(wait);
    if (session.closed || session.destroyed) return;
    // Node's close sends the GOAWAY with the last stream taken, and ends the session once its streams have.
    session.close();
    if (graceMs > 0) {
      grace = setTimeout(() => session.destroy(), Math.min(graceMs, MAX_TIMER_MS));
      grace.unref();
    }
  };
  if (!session.ping(close)) return close();
  wait = setTimeout(close, PING_WAIT_MS);
  wait.unref();
}
