import { askerFor } from "./ask-redis.js";
import { startDaemon, type Daemon } from "./daemon.js";
import { serverArgs, type RedisAccess } from "./redis-access.js";

/**
 * Runs a redis-server on 127.0.0.1:`port` as a child of this process that keeps nothing on disk
 * (started again, it is empty), protected as `access` says, with `args` added (a Cluster's or a
 * replica's), and resolves once it answers a PING.
 */
export function startRedisServer(
  port: number,
  { access = {}, args = [], name = `redis-server :${port}` }: { access?: RedisAccess; args?: string[]; name?: string } = {},
): Promise<Daemon> {
  const ask = askerFor(access);
  return startDaemon(
    name,
    "redis-server",
    [...serverArgs(port, access), "--save", "", "--appendonly", "no", ...args],
    async () => (await ask(port, "PING")) === "PONG",
  );
}
