/**
 * Where the API (and its metrics port, and the worker's) listens: HOST, read the same way by the
 * API, the worker and `npm start`'s supervisor. Imports nothing, so the supervisor can carry it.
 */

/** The HOST a process listens on when none is set: this machine only, except in production (see src/env.ts). */
export function listenHost(env: { HOST?: string | undefined; NODE_ENV: string }): string | undefined {
  // Undefined is Node's own default: every interface, IPv6 and IPv4 (or IPv4's alone on a host without IPv6).
  return env.HOST ?? (env.NODE_ENV === "production" ? undefined : "127.0.0.1");
}

/** Whether `host` is a wildcard, every interface of one family or all (0.0.0.0, ::, or unset). */
const isWildcard = (host: string | undefined) => host === undefined || host === "0.0.0.0" || /^[0:]+$/.test(host);

/** The address this machine reaches a server listening on `host` at: its loopback when it listens on every interface. */
export function reachableHost(host: string | undefined): string {
  if (host === undefined || host === "0.0.0.0") return "127.0.0.1";
  return isWildcard(host) ? "::1" : host;
}

/** The base URL to show a person on this machine: `localhost` where that reaches the server, else its address. */
export function localBaseUrl(host: string | undefined, port: number): string {
  const name = isWildcard(host) || host === "127.0.0.1" ? "localhost" : host!.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
