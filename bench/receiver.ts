import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { waitUntil } from "./load.js";

/**
 * A webhook receiver on loopback that answers 200 at once and hands each call's token, with the
 * path it came to, to `onToken`.
 */
export async function startLoopbackReceiver(onToken: (path: string, token: string, at: number) => void) {
  let arrived = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      arrived += 1;
      onToken(req.url ?? "", (JSON.parse(body) as { token: string }).token, Date.now());
      res.writeHead(200).end("ok");
    });
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Calls received so far. */
    arrived: () => arrived,
    close: () => server.close(),
  };
}

/**
 * Deliveries per second of a burst of `count` started at `started`: once the receiver has had them
 * all and PostgreSQL records them delivered. Counting in PostgreSQL is work for the database too, so
 * it starts only once the receiver has them all.
 */
export async function deliveredPerSecond(burst: {
  what: string;
  count: number;
  started: number;
  /** Calls the receiver has had since the burst began. */
  received: () => number;
  /** Deliveries PostgreSQL records delivered. */
  recorded: () => Promise<number>;
}): Promise<number> {
  const { what, count, started, received, recorded } = burst;
  let done = 0;
  await waitUntil(
    () => `${count} ${what} delivered and recorded (${received()} received, ${done} recorded)`,
    async () => received() >= count && (done = await recorded()) >= count,
    300_000,
    10,
  );
  return Math.round((count / (Date.now() - started)) * 1000);
}

/** A webhook receiver on loopback that takes every call and never answers, as a server that hangs. */
export async function startHangingReceiver() {
  let arrived = 0;
  const server = createServer((req) => {
    arrived += 1;
    req.resume();
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Calls received so far. */
    arrived: () => arrived,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
