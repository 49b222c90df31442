import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { until } from "../../src/poll.js";
import { askerFor, askNode, type AskNode } from "./ask-redis.js";
import type { Daemon } from "./daemon.js";
import { freePorts } from "./free-ports.js";
import { cliArgs, type RedisAccess } from "./redis-access.js";
import { startRedisServer } from "./redis-server.js";

export { askNode };

const run = promisify(execFile);

/** A Redis Cluster of three masters on loopback, no replicas. */
export interface RedisCluster {
  readonly ports: number[];
  /** REDIS_CLUSTER_NODES for it: `127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`. */
  readonly nodes: string;
  /** One command to a node, with the Cluster's credentials and TLS. */
  readonly ask: AskNode;
  stop(): Promise<void>;
}

/**
 * Starts three cluster-enabled redis-servers on free loopback ports (each also needs its port +
 * 10000 for the cluster bus), each a child of this process with its files in a temporary folder,
 * joins them with `redis-cli --cluster create` and resolves once every node says cluster_state:ok.
 * The nodes ask for credentials and speak TLS (clients and the Cluster bus) as `access` says.
 */
export async function startRedisCluster(access: RedisAccess = {}): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), "payreq-redis-cluster-"));
  const ports = await freePorts(3, { alsoFree: [10_000] });
  const daemons: Daemon[] = [];
  const ask = askerFor(access);
  const stop = async () => {
    await Promise.all(daemons.map((d) => d.stop("SIGKILL")));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(
      ports.map(async (port) =>
        daemons.push(
          await startRedisServer(port, {
            access,
            name: `redis-server (cluster node) on ${port}`,
            args: ["--dir", dir, "--cluster-enabled", "yes", "--cluster-config-file", `nodes-${port}.conf`],
          }),
        ),
      ),
    );
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await run(
      "redis-cli",
      [...cliArgs(access), "--cluster", "create", ...addresses, "--cluster-replicas", "0", "--cluster-yes"],
      { timeout: 20_000 },
    );
    const clusterOk = async (port: number) => String(await ask(port, "CLUSTER", "INFO")).includes("cluster_state:ok");
    await until(
      async () => (await Promise.all(ports.map(clusterOk))).every(Boolean),
      Boolean,
      20_000,
      "every Redis Cluster node to say cluster_state:ok",
      100,
    );
    return { ports, nodes: addresses.join(","), ask, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The port of the master that serves `key`'s slot, as the node at `port` sees the Cluster (asked with `ask`). */
export async function masterOf(port: number, key: string, ask: AskNode = askNode): Promise<number> {
  const slot = Number(await ask(port, "CLUSTER", "KEYSLOT", key));
  const ranges = (await ask(port, "CLUSTER", "SLOTS")) as [number, number, [string, number]][];
  return ranges.find(([from, to]) => from <= slot && slot <= to)![2][1];
}
