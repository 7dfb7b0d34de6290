/**
 * What one HTTP/2 client may ask of a server: calls in flight on a session
 * are bounded (H1: streams beyond the bound are refused with
 * REFUSED_STREAM, whether their streams are open or were reset while their
 * handlers still run, as in a rapid-reset attack, H2), and a session that
 * keeps abusing the server is sent GOAWAY ENHANCE_YOUR_CALM: too many
 * refused or reset streams in a second, or PINGs more often than gRPC's
 * keepalive policy permits (H4, debug data `too_many_pings`).
 */
import * as http2 from "node:http2";

const { NGHTTP2_ENHANCE_YOUR_CALM, NGHTTP2_REFUSED_STREAM } = http2.constants;

/** The bounds and the keepalive policy of a server's HTTP/2 sessions. */
export interface SessionPolicy {
  /** Calls in flight on one session (advertised as SETTINGS_MAX_CONCURRENT_STREAMS). */
  readonly maxConcurrentStreams: number;
  /** Shortest interval between a client's PINGs while it has calls in flight, in milliseconds (gRPC's default: 5 minutes). */
  readonly minPingIntervalMs: number;
  /** Whether a client may PING (at that interval) with no call in flight; if not, such PINGs count as strikes after the first. */
  readonly permitPingsWithoutCalls: boolean;
  /** PINGs too soon tolerated before GOAWAY (gRPC's default: 2). A call or an answer clears them. */
  readonly maxPingStrikes: number;
}

/** gRPC's keepalive enforcement defaults (grpc-go, grpc-java, grpc-js). */
export const DEFAULT_SESSION_POLICY: SessionPolicy = Object.freeze({
  maxConcurrentStreams: 100,
  minPingIntervalMs: 300_000,
  permitPingsWithoutCalls: false,
  maxPingStrikes: 2,
});

/** How long a session told to calm down may take to close before it is destroyed. */
const CALM_CLOSE_MS = 1_000;

/** The state of one session. */
export class SessionGuard {
  /** Calls admitted whose handlers have not settled (their streams may be closed already). */
  inFlight = 0;
  /** Streams open. */
  #open = 0;
  #lastStreamId = 0;
  /** Refused and reset streams in the current second, and when it began. */
  #abuse = 0;
  #abuseSince = 0;
  #lastPing = Number.NEGATIVE_INFINITY;
  #strikes = 0;
  #calmed = false;

  constructor(
    private readonly session: http2.Http2Session,
    private readonly policy: SessionPolicy,
  ) {
    session.on("ping", () => this.#pinged());
  }

  /** A new stream: true if its call may run; else it is refused (REFUSED_STREAM) and false. */
  admit(stream: http2.ServerHttp2Stream): boolean {
    const id = stream.id ?? 0;
    if (id > this.#lastStreamId) this.#lastStreamId = id;
    if (this.inFlight >= this.policy.maxConcurrentStreams) {
      // Closed with an error code, a stream is destroyed with an error: heard here, not as an uncaught exception.
      stream.on("error", ignore);
      stream.close(NGHTTP2_REFUSED_STREAM);
      this.#abused("too_many_streams");
      return false;
    }
    this.inFlight++;
    this.#open++;
    this.#strikes = 0;
    return true;
  }

  /** An admitted call's handler settled (its answer is written or being written, or it was never run). */
  settled(): void {
    this.inFlight--;
  }

  /** An admitted call's stream closed; `reset` if the client reset it (or left) before its answer ended. */
  closed(reset: boolean): void {
    this.#open--;
    if (reset) this.#abused("too_many_resets");
  }

  /** An answer's head went out: as gRPC servers do, it clears the PING strikes. */
  answered(): void {
    this.#strikes = 0;
  }

  /** Counts a refused or reset stream; beyond ten times the bound in a second, the session is told to calm down. */
  #abused(why: string): void {
    const now = Date.now();
    if (now - this.#abuseSince >= 1_000) {
      this.#abuseSince = now;
      this.#abuse = 0;
    }
    if (++this.#abuse > 10 * this.policy.maxConcurrentStreams) this.calm(why);
  }

  #pinged(): void {
    const now = Date.now();
    const { minPingIntervalMs, permitPingsWithoutCalls, maxPingStrikes } = this.policy;
    // With no call in flight, and none permitted, any PING after the first is too soon (gRPC: 2 hours).
    const interval = this.#open > 0 || permitPingsWithoutCalls ? minPingIntervalMs : Math.max(minPingIntervalMs, 7_200_000);
    if (now - this.#lastPing < interval && ++this.#strikes > maxPingStrikes) this.calm("too_many_pings");
    this.#lastPing = now;
  }

  /** GOAWAY ENHANCE_YOUR_CALM with `why` as debug data, then a close (destroyed if it lingers). */
  calm(why: string): void {
    if (this.#calmed || this.session.destroyed) return;
    this.#calmed = true;
    const session = this.session;
    session.goaway(NGHTTP2_ENHANCE_YOUR_CALM, this.#lastStreamId, Buffer.from(why));
    session.close();
    const timer = setTimeout(() => session.destroy(), CALM_CLOSE_MS);
    timer.unref();
    session.once("close", () => clearTimeout(timer));
  }
}

/** The guards of a server's sessions. */
export class SessionGuards {
  readonly #guards = new WeakMap<http2.Http2Session, SessionGuard>();

  constructor(readonly policy: SessionPolicy) {}

  /** Starts guarding a new session. */
  watch(session: http2.Http2Session): void {
    if (!this.#guards.has(session)) this.#guards.set(session, new SessionGuard(session, this.policy));
  }

  /** The session's guard (made on first sight for a session not watched from its start). */
  of(session: http2.Http2Session): SessionGuard {
    let guard = this.#guards.get(session);
    if (guard === undefined) this.#guards.set(session, (guard = new SessionGuard(session, this.policy)));
    return guard;
  }
}

function ignore(): void {}
