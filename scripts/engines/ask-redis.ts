import { Redis } from "ioredis";

/** One command to a Redis server (a node, a replica, a sentinel) on 127.0.0.1, on a connection of its own. */
export async function askNode(port: number, ...args: (string | number)[]): Promise<unknown> {
  const client = new Redis({ host: "127.0.0.1", port, lazyConnect: true, retryStrategy: () => null, connectTimeout: 1_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return await client.call(String(args[0]), ...args.slice(1));
  } finally {
    client.disconnect();
  }
}
