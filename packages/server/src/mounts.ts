/**
 * Routes served next to a service's own: a path prefix and a web-standard
 * handler (documentation, an explorer, health checks). Adapters look a
 * request's path up here before the service's router sees it.
 */

import { pathOf } from "./target.js";

/** A web-standard handler for mounted routes: it gets the whole request, URL with origin included. */
export type MountedHandler = (request: Request) => Promise<Response>;

/** One mount: a prefix and its handler. */
interface Mount {
  readonly prefix: string;
  readonly handler: MountedHandler;
}

/** Mounted handlers by prefix; the longest matching prefix wins. */
export class Mounts {
  #mounts: Mount[] = [];

  /** Adds a mount. Throws on a malformed or repeated prefix. */
  add(prefix: string, handler: MountedHandler): void {
    if (!/^\/[^?#]*$/.test(prefix) || (prefix.length > 1 && prefix.endsWith("/"))) {
      throw new TypeError(`mount: the prefix must be a path starting with "/" and not ending with one, like "/docs" (got ${JSON.stringify(prefix)})`);
    }
    if (typeof handler !== "function") throw new TypeError(`mount: the handler of ${prefix} is not a function`);
    if (this.#mounts.some((m) => m.prefix === prefix)) throw new Error(`mount: ${prefix} is mounted already`);
    this.#mounts = [...this.#mounts, { prefix, handler }].sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /**
   * The handler serving a request target's path: a prefix equal to it, or
   * followed in it by `/`. The target's query, if any, is ignored, and
   * without mounts nothing is looked at (adapters ask for every request).
   */
  find(target: string): MountedHandler | undefined {
    const mounts = this.#mounts;
    if (mounts.length === 0) return undefined;
    const path = pathOf(target);
    for (let i = 0; i < mounts.length; i++) {
      const { prefix, handler } = mounts[i]!;
      if (path.startsWith(prefix) && (path.length === prefix.length || prefix === "/" || path.charCodeAt(prefix.length) === 47) /* "/" */) return handler;
    }
    return undefined;
  }
}
