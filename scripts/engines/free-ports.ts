import { createServer } from "node:net";

/** Whether a TCP port of 127.0.0.1 can be listened on now. */
export const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });

/**
 * `count` ports of 127.0.0.1 that nothing listens on, each with `alsoFree` offsets free too (a Redis
 * Cluster node also listens on its port + 10000). Picked from a range the kernel does not hand out
 * for outgoing connections by default, at random, so two runs on one machine rarely try the same.
 */
export async function freePorts(count: number, { alsoFree = [] as number[] } = {}): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (ports.includes(port) || alsoFree.some((offset) => ports.includes(port + offset))) continue;
    if ((await portFree(port)) && (await Promise.all(alsoFree.map((offset) => portFree(port + offset)))).every(Boolean))
      ports.push(port);
  }
  return ports;
}
