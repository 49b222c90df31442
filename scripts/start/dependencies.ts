import { createServer } from "node:net";
import { connectRedis, describeRedis, redisSetting, type RedisTopology } from "../../src/redis-connection.js";
import { StartupProblem } from "./problem.js";

/** Answers when Redis answers a PING within 3 s, or says in one sentence why not, naming the setting to fix. */
export async function checkRedis(topology: RedisTopology): Promise<void> {
  const redis = connectRedis(topology, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
  });
  let cause: NodeJS.ErrnoException | undefined;
  const noteCause = (err: NodeJS.ErrnoException) => (cause ??= err);
  redis.on("error", noteCause);
  // A Cluster client reports each seed's failure apart from its own.
  redis.on("node error", noteCause);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new StartupProblem(redisProblem(topology, [cause, err as NodeJS.ErrnoException]));
  } finally {
    redis.disconnect();
  }
}

/** The sentence that says why the topology did not answer, from the errors seen (the first that explains it). */
function redisProblem(topology: RedisTopology, errors: (NodeJS.ErrnoException | undefined)[]): string {
  const at = describeRedis(topology);
  const setting = redisSetting(topology);
  const seen = errors.filter((err) => err !== undefined);
  const said = (pattern: RegExp) => seen.find((err) => pattern.test(err.message) || pattern.test(err.code ?? ""));
  const credentials = said(/NOAUTH|WRONGPASS/);
  if (said(/^ECONNREFUSED$/))
    return `Cannot reach ${at}: nothing is listening there. Start Redis or set ${setting} to a running server.`;
  if (said(/All sentinels are unreachable/))
    return `Cannot reach ${at}: no sentinel answered. Start them or set REDIS_SENTINELS to running sentinels.`;
  if (said(/None of startup nodes is available/))
    return `Cannot reach ${at}: none of its nodes answered. Start the Cluster or set REDIS_CLUSTER_NODES to its nodes.`;
  if (said(/cluster support disabled/))
    return `${capitalized(at)} is not a Redis Cluster (cluster support disabled): set REDIS_CLUSTER_NODES to a Cluster's nodes, or leave it unset for a single Redis at REDIS_URL.`;
  if (credentials) return `${capitalized(at)} refused the credentials in REDIS_URL (${credentials.message}): fix them.`;
  const { code, message } = seen[0]!;
  return `${capitalized(at)} did not answer (${code ?? message}): check ${setting} and that the server is up.`;
}

const capitalized = (text: string) => text[0]!.toUpperCase() + text.slice(1);

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
