import { createServer } from "node:net";
import { connect as connectTls } from "node:tls";
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
    // One PING needs no watch on the sentinels for a failover.
    failoverDetector: false,
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
    throw new StartupProblem(redisProblem(topology, [cause, err as NodeJS.ErrnoException, await certificateProblem(topology)]));
  } finally {
    redis.disconnect();
  }
}

/** What Node says of a TLS certificate signed by no CA it trusts. */
const untrustedCertificate =
  /SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|self[- ]signed certificate|unable to (verify the first|get local issuer) certificate/;

/**
 * Whether the topology's first server (a sentinel, a seed node) presents a certificate this process
 * does not trust, over `rediss:`. A Sentinel or Cluster client reports only that the connection
 * closed, so it is asked on a TLS connection of its own.
 */
async function certificateProblem(topology: RedisTopology): Promise<NodeJS.ErrnoException | undefined> {
  const url = new URL(topology.url);
  if (url.protocol !== "rediss:") return undefined;
  const { host, port } =
    topology.kind === "sentinel"
      ? topology.sentinels[0]!
      : topology.kind === "cluster"
        ? topology.nodes[0]!
        : { host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 6379) };
  return new Promise((resolve) => {
    const socket = connectTls({ host, port, timeout: 3_000 }, () => (socket.destroy(), resolve(undefined)));
    socket.once("timeout", () => (socket.destroy(), resolve(undefined)));
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(untrustedCertificate.test(err.code ?? "") ? err : undefined));
  });
}

/** The sentence that says why the topology did not answer, from the errors seen (the first that explains it). */
function redisProblem(topology: RedisTopology, errors: (NodeJS.ErrnoException | undefined)[]): string {
  const at = describeRedis(topology);
  const setting = redisSetting(topology);
  const seen = errors.filter((err) => err !== undefined);
  const said = (pattern: RegExp) => seen.find((err) => pattern.test(err.message) || pattern.test(err.code ?? ""));
  // What a server answered comes before what it led to: a Sentinel or Cluster client that was
  // refused by every server then says that none answered.
  const credentials = said(/NOAUTH|WRONGPASS/);
  if (credentials) return `${capitalized(at)} refused the credentials in REDIS_URL (${credentials.message}): fix them.`;
  const untrusted = said(untrustedCertificate);
  if (untrusted)
    return `${capitalized(at)} presented a TLS certificate this machine does not trust (${untrusted.code ?? untrusted.message}): set NODE_EXTRA_CA_CERTS to the PEM file of the CA that signed it.`;
  if (said(/^ECONNREFUSED$/))
    return `Cannot reach ${at}: nothing is listening there. Start Redis or set ${setting} to a running server.`;
  if (said(/All sentinels are unreachable/))
    return `Cannot reach ${at}: no sentinel answered. Start them or set REDIS_SENTINELS to running sentinels.`;
  if (said(/None of startup nodes is available/))
    return `Cannot reach ${at}: none of its nodes answered. Start the Cluster or set REDIS_CLUSTER_NODES to its nodes.`;
  if (said(/cluster support disabled/))
    return `${capitalized(at)} is not a Redis Cluster (cluster support disabled): set REDIS_CLUSTER_NODES to a Cluster's nodes, or leave it unset for a single Redis at REDIS_URL.`;
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
