import { Redis } from "ioredis";
import { clientOptions, type RedisAccess } from "./redis-access.js";

/** One command to a Redis server (a node, a replica, a sentinel) on 127.0.0.1, on a connection of its own. */
export type AskNode = (port: number, ...args: (string | number)[]) => Promise<unknown>;

/** askNode for servers that ask for credentials or TLS (`access`). */
export function askerFor(access: RedisAccess = {}): AskNode {
  const options = clientOptions(access);
  return async (port, ...args) => {
    const client = new Redis({
      host: "127.0.0.1",
      port,
      lazyConnect: true,
      retryStrategy: () => null,
      connectTimeout: 1_000,
      ...options,
    });
    client.on("error", () => {});
    try {
      await client.connect();
      return await client.call(String(args[0]), ...args.slice(1));
    } finally {
      client.disconnect();
    }
  };
}

/** One command to an unprotected Redis server (a node, a replica, a sentinel) on 127.0.0.1. */
export const askNode: AskNode = askerFor();
