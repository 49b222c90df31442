import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 to a local service (PostgreSQL, Redis) that a test can cut, dropping
 * every connection through it at once as a reset would, and restore. With `replyDelayMs`, what the
 * service sends reaches the client that much later, as over a slow link.
 */
export function startProxy(targetPort: number, { replyDelayMs = 0 } = {}) {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream);
    if (replyDelayMs === 0) upstream.pipe(client);
    else {
      // Timers of one delay fire in the order they were set: the replies keep their order.
      upstream.on("data", (chunk: Buffer) => setTimeout(() => client.write(chunk), replyDelayMs));
      upstream.on("end", () => setTimeout(() => client.end(), replyDelayMs));
    }
  });
  return {
    listen: () =>
      new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))),
    /** Sockets open through it now, both sides of each connection. */
    sockets: () => sockets.size,
    /** Drops every connection, and refuses new ones until restored. */
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
