/** Request targets (RFC 9112 §3.2): what the adapters and the mounts make of them. */

/** The path and query of a request target; an absolute-form target (`http://host/path`, as sent to proxies) is reduced to them. */
export function originForm(target: string): string {
  if (target.startsWith("/")) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return target;
  }
}

/** The path of a request target, without its query. */
export function pathOf(target: string): string {
  const url = originForm(target);
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}
