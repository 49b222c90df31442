import { readFileSync } from "node:fs";
import type { RedisOptions } from "ioredis";

/** PEM files of a server's TLS: its certificate and key, and the CA that signed it (scripts/engines/tls-certificates.ts). */
export interface TlsFiles {
  cert: string;
  key: string;
  ca: string;
}

/** How an engine's Redis servers are protected. None of it (the default): anyone on loopback may connect, in plain text. */
export interface RedisAccess {
  /** An ACL user that may do everything; the default user is then switched off, so nothing gets in without it. */
  user?: string;
  /** The user's password or, with no user, the default user's (requirepass). */
  password?: string;
  /** TLS only (no plain port), for clients, replication, the Cluster bus and the sentinels' links alike. */
  tls?: TlsFiles;
}

/** A redis-server's (or redis-sentinel's) listening, credential and TLS arguments for `port`. */
export function serverArgs(port: number, { user, password, tls }: RedisAccess = {}): string[] {
  const args = ["--bind", "127.0.0.1"];
  if (tls)
    args.push(
      ...["--port", "0", "--tls-port", String(port)],
      ...["--tls-cert-file", tls.cert, "--tls-key-file", tls.key, "--tls-ca-cert-file", tls.ca],
      ...["--tls-auth-clients", "no", "--tls-replication", "yes", "--tls-cluster", "yes"],
    );
  else args.push("--port", String(port));
  if (user) args.push("--user", "default", "off", "--user", user, "on", `>${password ?? ""}`, "~*", "&*", "+@all");
  else if (password) args.push("--requirepass", password);
  // What a replica (or a master made one after a failover) gives its master.
  if (user) args.push("--masteruser", user);
  if (password) args.push("--masterauth", password);
  return args;
}

/** A redis-sentinel's configuration lines for serving on `port` as the servers of `access` do (it asks no password itself). */
export function sentinelListenLines(port: number, { tls }: RedisAccess = {}): string[] {
  if (!tls) return [`port ${port}`];
  return [
    "port 0",
    `tls-port ${port}`,
    `tls-cert-file ${tls.cert}`,
    `tls-key-file ${tls.key}`,
    `tls-ca-cert-file ${tls.ca}`,
    "tls-auth-clients no",
    // Its links to the servers and to the other sentinels.
    "tls-replication yes",
  ];
}

/** A redis-sentinel's lines (after `sentinel monitor <name>`) for the credentials the servers of `access` ask for. */
export function sentinelAuthLines(name: string, { user, password }: RedisAccess = {}): string[] {
  return [
    ...(user ? [`sentinel auth-user ${name} ${user}`] : []),
    ...(password ? [`sentinel auth-pass ${name} ${password}`] : []),
  ];
}

/** redis-cli's arguments for reaching the servers of `access`. */
export function cliArgs({ user, password, tls }: RedisAccess = {}): string[] {
  return [
    ...(tls ? ["--tls", "--cacert", tls.ca] : []),
    ...(user ? ["--user", user] : []),
    ...(password ? ["--pass", password, "--no-auth-warning"] : []),
  ];
}

/** An ioredis client's options for reaching the servers of `access`, trusting its CA. */
export function clientOptions({ user, password, tls }: RedisAccess = {}): RedisOptions {
  return {
    ...(user && { username: user }),
    ...(password && { password }),
    ...(tls && { tls: { ca: readFileSync(tls.ca) } }),
  };
}
