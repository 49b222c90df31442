import { expect, it } from "vitest";
import { startSentinelGroup } from "../../scripts/engines/redis-sentinel.js";
import { connectRedis } from "../../src/redis-connection.js";
import { startProxy } from "../proxy.js";

it("clients that are asking the sentinels where to reconnect when the promotion is announced reach the new master", async () => {
  const group = await startSentinelGroup();
  // The sentinels behind a link that delays each reply by 200 ms: a client that lost its master
  // spends most of each try at reconnecting asking them, so the announcement of the promotion finds
  // some of the clients doing so.
  const proxies = group.sentinels.map(({ port }) => startProxy(port, { replyDelayMs: 200 }));
  const sentinels = (await Promise.all(proxies.map((proxy) => proxy.listen()))).map((port) => ({ host: "127.0.0.1", port }));
  const topology = { kind: "sentinel", url: "redis://127.0.0.1:1/0", sentinels, name: group.name } as const;
  // As the worker's connection: commands wait for a master however long it takes.
  const clients = Array.from({ length: 12 }, () => connectRedis(topology, { maxRetriesPerRequest: null }));
  for (const client of clients) client.on("error", () => {});
  try {
    await Promise.all(clients.map((client, i) => client.set(`before:${i}`, "1")));
    const { master } = await group.killMaster();

    // A client given up answers at once "Connection is closed."; the others once they reach the new master.
    const answers = await Promise.all(
      clients.map((client, i) => client.set(`after:${i}`, "1").catch((err: Error) => `${client.status}: ${err.message}`)),
    );
    expect(answers).toEqual(clients.map(() => "OK"));
    expect(await group.ask(master.port, "EXISTS", ...clients.map((_, i) => `after:${i}`))).toBe(clients.length);
  } finally {
    for (const client of clients) client.disconnect();
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await group.stop();
  }
}, 60_000);
