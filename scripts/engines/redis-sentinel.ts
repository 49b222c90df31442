import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "../../src/poll.js";
import { askerFor, type AskNode } from "./ask-redis.js";
import { startDaemon, type Daemon } from "./daemon.js";
import { freePorts } from "./free-ports.js";
import { sentinelAuthLines, sentinelListenLines, type RedisAccess } from "./redis-access.js";
import { startRedisServer } from "./redis-server.js";

export interface HostPort {
  host: string;
  port: number;
}

/** A Redis Sentinel group on loopback: one master, one replica and three sentinels (quorum 2). */
export interface SentinelGroup {
  /** The name the sentinels know the master by (REDIS_SENTINEL_NAME). */
  readonly name: string;
  readonly sentinels: HostPort[];
  /** REDIS_SENTINELS for it: `127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`. */
  readonly sentinelsSetting: string;
  /** One command to a master or replica, with the group's credentials and TLS. */
  readonly ask: AskNode;
  /** The master the sentinels name now. */
  master(): Promise<HostPort>;
  /**
   * Kills the master (SIGKILL) and resolves once the sentinels name another one: the replica they
   * promoted, when it answers as a master, and when the master was killed.
   */
  killMaster(timeoutMs?: number): Promise<{ failedAt: number; promotedAt: number; master: HostPort }>;
  /**
   * Freezes the master (SIGSTOP), as a hung host or a network partition would: its connections stay
   * open but nothing answers on them. Resolves once the sentinels promoted the replica.
   */
  freezeMaster(timeoutMs?: number): Promise<{ failedAt: number; promotedAt: number; master: HostPort }>;
  /** Wakes a frozen master (SIGCONT) and resolves once the sentinels have made it a replica of the new one. */
  thaw(): Promise<void>;
  stop(): Promise<void>;
}

/** A reply of SENTINEL REPLICAS/SENTINELS (a flat field/value list per entry) as objects. */
const records = (reply: unknown): Record<string, string>[] =>
  (reply as string[][]).map((fields) =>
    Object.fromEntries(fields.flatMap((_, i): [string, string][] => (i % 2 ? [] : [[fields[i] ?? "", fields[i + 1] ?? ""]]))),
  );

const redisArgs = (port: number, dir: string) => [
  // A replica syncs at once, not after the 5 s a master waits for others to share the transfer.
  "--repl-diskless-sync-delay",
  "0",
  "--dir",
  dir,
  "--dbfilename",
  `dump-${port}.rdb`,
];

/**
 * Starts the group on free loopback ports, each server a child of this process with its files in a
 * temporary folder, and resolves once every sentinel sees the replica and the two other sentinels
 * (so a failover can be agreed on). A master is held down after 1 s without answers. The master
 * and the replica ask for credentials and speak TLS as `access` says; the sentinels speak TLS with
 * them, and ask no password themselves.
 */
export async function startSentinelGroup(name = "payreq", access: RedisAccess = {}): Promise<SentinelGroup> {
  const dir = await mkdtemp(join(tmpdir(), "payreq-sentinel-"));
  const [masterPort, replicaPort, ...sentinelPorts] = await freePorts(5);
  const daemons: Daemon[] = [];
  const stop = async () => {
    await Promise.all(daemons.map((d) => d.stop("SIGKILL")));
    await rm(dir, { recursive: true, force: true });
  };
  const ask = askerFor(access);
  const askSentinel = askerFor({ tls: access.tls });
  try {
    const servers = await Promise.all(
      [masterPort!, replicaPort!].map(async (port, i) => {
        const args = redisArgs(port, dir);
        if (i === 1) args.push("--replicaof", "127.0.0.1", String(masterPort));
        return startRedisServer(port, { access, args, name: `redis ${i === 0 ? "master" : "replica"} :${port}` });
      }),
    );
    daemons.push(...servers);
    const byPort = new Map([
      [masterPort!, servers[0]!],
      [replicaPort!, servers[1]!],
    ]);
    // The sentinels learn the replica from the master's first INFO: it must be there by then.
    await until(
      async () => String(await ask(masterPort!, "INFO", "replication")),
      (info) => info.includes(`port=${replicaPort},state=online`),
      20_000,
      "the replica to sync",
      50,
    );
    daemons.push(
      ...(await Promise.all(
        sentinelPorts.map(async (port) => {
          // A sentinel rewrites its file as it learns the group, so each has its own.
          const file = join(dir, `sentinel-${port}.conf`);
          await writeFile(
            file,
            [
              ...sentinelListenLines(port, access),
              "bind 127.0.0.1",
              `dir ${dir}`,
              "sentinel resolve-hostnames no",
              `sentinel monitor ${name} 127.0.0.1 ${masterPort} 2`,
              `sentinel down-after-milliseconds ${name} 1000`,
              `sentinel failover-timeout ${name} 5000`,
              `sentinel parallel-syncs ${name} 1`,
              ...sentinelAuthLines(name, access),
              "",
            ].join("\n"),
          );
          return startDaemon(
            `redis-sentinel :${port}`,
            "redis-sentinel",
            [file],
            async () => (await askSentinel(port, "PING")) === "PONG",
          );
        }),
      )),
    );
    await until(
      async () => {
        for (const port of sentinelPorts) {
          const replicas = records(await askSentinel(port, "SENTINEL", "REPLICAS", name));
          const others = records(await askSentinel(port, "SENTINEL", "SENTINELS", name));
          if (!replicas.some((r) => r["port"] === String(replicaPort) && r["flags"] === "slave")) return false;
          if (others.length < 2) return false;
        }
        return true;
      },
      Boolean,
      30_000,
      "the sentinels to see the replica and each other",
      100,
    );

    const frozen: number[] = [];
    const sentinels = sentinelPorts.map((port) => ({ host: "127.0.0.1", port }));
    const master = async (): Promise<HostPort> => {
      const [host, port] = (await askSentinel(sentinelPorts[0]!, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", name)) as [
        string,
        string,
      ];
      return { host, port: Number(port) };
    };
    return {
      name,
      sentinels,
      sentinelsSetting: sentinels.map(({ host, port }) => `${host}:${port}`).join(","),
      ask,
      master,
      killMaster: (timeoutMs = 30_000) => replaceMaster((old) => byPort.get(old.port)!.stop("SIGKILL"), timeoutMs),
      freezeMaster: (timeoutMs = 30_000) =>
        replaceMaster(async (old) => {
          byPort.get(old.port)!.child.kill("SIGSTOP");
          frozen.push(old.port);
        }, timeoutMs),
      async thaw() {
        for (const port of frozen.splice(0)) {
          byPort.get(port)!.child.kill("SIGCONT");
          const { port: masterPort } = await master();
          await until(
            async () => String(await ask(masterPort, "INFO", "replication")),
            (info) => info.includes(`port=${port},state=online`),
            30_000,
            `the thawed master :${port} to serve as a replica`,
            100,
          );
        }
      },
      stop,
    };
    /** Ends the master's reign with `end` and resolves once the sentinels name another one, answering as a master. */
    async function replaceMaster(end: (old: HostPort) => Promise<void>, timeoutMs: number) {
      const old = await master();
      const failedAt = Date.now();
      await end(old);
      // Every sentinel names the new master, and it answers as one.
      const promoted = await until(
        async () => {
          const named = await Promise.all(
            sentinelPorts.map(
              async (port) => ((await askSentinel(port, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", name)) as string[])[1],
            ),
          );
          const port = Number(named[0]);
          if (port === old.port || named.some((p) => Number(p) !== port)) return null;
          const role = (await ask(port, "ROLE")) as [string];
          return role[0] === "master" ? { host: "127.0.0.1", port } : null;
        },
        (found) => found !== null,
        timeoutMs,
        "the sentinels to promote the replica",
        50,
      );
      return { failedAt, promotedAt: Date.now(), master: promoted! };
    }
  } catch (err) {
    await stop();
    throw err;
  }
}
