import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";
import type { HostPort } from "./env.js";
import { SentinelReconnector } from "./sentinel-connector.js";

/**
 * Which Redis the processes use, from the settings (src/env.ts): a single node (REDIS_URL), a
 * Sentinel group (REDIS_SENTINELS, REDIS_SENTINEL_NAME) or a Cluster (REDIS_CLUSTER_NODES). In
 * every mode REDIS_URL gives the credentials and TLS (`rediss:`); with a single node or a Sentinel
 * group also the database number (a Cluster has only database 0).
 */
export type RedisTopology =
  | { kind: "single"; url: string }
  | { kind: "sentinel"; url: string; sentinels: HostPort[]; name: string }
  | { kind: "cluster"; url: string; nodes: HostPort[] };

/** A connection to any topology: ioredis's own client, or its Cluster client. */
export type RedisClient = Redis | Cluster;

interface RedisSettings {
  REDIS_URL: string;
  REDIS_SENTINELS?: HostPort[] | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_CLUSTER_NODES?: HostPort[] | undefined;
}

/** The topology the parsed settings name (the schema has already refused a contradictory set). */
export function redisTopology(env: RedisSettings): RedisTopology {
  if (env.REDIS_CLUSTER_NODES) return { kind: "cluster", url: env.REDIS_URL, nodes: env.REDIS_CLUSTER_NODES };
  if (env.REDIS_SENTINELS)
    return { kind: "sentinel", url: env.REDIS_URL, sentinels: env.REDIS_SENTINELS, name: env.REDIS_SENTINEL_NAME! };
  return { kind: "single", url: env.REDIS_URL };
}

/** What REDIS_URL says about every node: user, password, TLS and, outside a Cluster, the database. */
function nodeOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.slice(1) || 0);
  return {
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
    ...(parsed.protocol === "rediss:" && { tls: {} }),
    ...(Number.isInteger(db) && db > 0 && { db }),
  };
}

/** Options of one connection, whatever the topology; those only a Cluster has are given apart. */
export interface ConnectOptions extends RedisOptions {
  /** Cluster only: subscribe to sharded channels (SSUBSCRIBE) on the shard that owns each. */
  shardedSubscribers?: boolean;
}

/**
 * Opens a connection to the topology with ioredis's own support for it. A Sentinel client asks the
 * sentinels for the current master and, after a failover, for the new one; a Cluster client learns
 * the slots from the seeds and follows MOVED and ASK. `options` are a single connection's (each
 * Cluster node gets them); the few that a Cluster takes for itself are moved there.
 */
export function connectRedis(topology: RedisTopology, options: ConnectOptions = {}): RedisClient {
  const { shardedSubscribers, lazyConnect, enableOfflineQueue, maxRetriesPerRequest, retryStrategy, ...connection } = options;
  const node = nodeOptions(topology.url);
  switch (topology.kind) {
    case "single":
      return new Redis(topology.url, options);
    case "sentinel":
      return new Redis({
        // Leave the old master when the sentinels announce a new one (+switch-master): a master
        // that hangs or is cut off keeps its connections open, and nothing would move them.
        failoverDetector: true,
        Connector: SentinelReconnector,
        ...node,
        ...options,
        sentinels: topology.sentinels,
        name: topology.name,
        // The sentinels are asked over TLS when the nodes are.
        ...(node.tls && { enableTLSForSentinelMode: true, sentinelTLS: {} }),
      });
    case "cluster": {
      const { db: _db, ...clusterNode } = node;
      const clusterOptions: ClusterOptions = {
        redisOptions: { ...clusterNode, ...connection, ...(maxRetriesPerRequest !== undefined && { maxRetriesPerRequest }) },
        ...(lazyConnect !== undefined && { lazyConnect }),
        ...(enableOfflineQueue !== undefined && { enableOfflineQueue }),
        ...(maxRetriesPerRequest !== undefined && { maxRedirections: 16 }),
        ...(retryStrategy && { clusterRetryStrategy: (times: number) => retryStrategy(times) ?? null }),
        ...(shardedSubscribers && { shardedSubscribers: true }),
        // Seeds are addresses as given; never look them up again (each node's address is its own).
        dnsLookup: (address, callback) => callback(null, address),
      };
      return new Cluster(topology.nodes, clusterOptions);
    }
  }
}

/** Where the topology is, without credentials, for logs and problems. */
export function describeRedis(topology: RedisTopology): string {
  const at = (nodes: HostPort[]) =>
    nodes.map(({ host, port }) => (host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`)).join(",");
  switch (topology.kind) {
    case "single": {
      const { hostname, port } = new URL(topology.url);
      return `Redis at ${hostname}:${port || 6379}`;
    }
    case "sentinel":
      return `Redis master "${topology.name}" of the sentinels at ${at(topology.sentinels)}`;
    case "cluster":
      return `the Redis Cluster at ${at(topology.nodes)}`;
  }
}

/** The setting that says where the topology is: the one to fix when it cannot be reached. */
export function redisSetting(topology: RedisTopology): "REDIS_URL" | "REDIS_SENTINELS" | "REDIS_CLUSTER_NODES" {
  return ({ single: "REDIS_URL", sentinel: "REDIS_SENTINELS", cluster: "REDIS_CLUSTER_NODES" } as const)[topology.kind];
}
