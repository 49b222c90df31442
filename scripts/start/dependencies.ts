import { createServer } from "node:net";
import { Redis } from "ioredis";
import { StartupProblem, hostOf } from "./problem.js";

/** Answers when Redis answers a PING within 3 s, or says in one sentence why not. */
export async function checkRedis(url: string): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let cause: NodeJS.ErrnoException | undefined;
  redis.on("error", (err: NodeJS.ErrnoException) => (cause ??= err));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    const at = hostOf(url, 6379);
    const { code, message } = cause ?? (err as NodeJS.ErrnoException);
    throw new StartupProblem(
      code === "ECONNREFUSED"
        ? `Cannot reach Redis at ${at}: nothing is listening there. Start Redis or set REDIS_URL to a running server.`
        : /NOAUTH|WRONGPASS/.test(message)
          ? `Redis at ${at} refused the credentials in REDIS_URL (${message}): fix them.`
          : `Redis at ${at} did not answer (${code ?? message}): check REDIS_URL and that the server is up.`,
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * Fails when `port` of `host` (HOST; undefined: every interface) cannot be listened on, naming the
 * variable to fix. Port 0 is never checked.
 */
export async function checkPortFree(host: string | undefined, port: number, variable: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  }).catch((err: NodeJS.ErrnoException) => {
    throw new StartupProblem(
      err.code === "EADDRINUSE"
        ? `Port ${port} is already in use (another npm start?): stop the process holding it or set ${variable} to a free port.`
        : err.code === "EADDRNOTAVAIL"
          ? `HOST ${host} is not an address of this machine: set HOST to one of its addresses, or to 0.0.0.0 or :: for every interface.`
          : `Cannot listen on port ${port} (${err.code ?? err.message}): set ${variable} to a port this user may open.`,
    );
  });
}
