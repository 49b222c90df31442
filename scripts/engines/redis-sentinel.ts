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

/** Where the group's servers listen and how to reach them: what each step of starting and running it needs. */
interface Layout {
  readonly name: string;
  /** The temporary folder of the servers' files. */
  readonly dir: string;
  readonly masterPort: number;
  readonly replicaPort: number;
  readonly sentinelPorts: number[];
  readonly access: RedisAccess;
  /** One command to the master or the replica. */
  readonly ask: AskNode;
  /** One command to a sentinel (TLS as the servers, no password). */
  readonly askSentinel: AskNode;
}

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
  const layout: Layout = {
    name,
    dir,
    masterPort: masterPort!,
    replicaPort: replicaPort!,
    sentinelPorts,
    access,
    ask: askerFor(access),
    askSentinel: askerFor({ tls: access.tls }),
  };
  const daemons: Daemon[] = [];
  const stop = async () => {
    await Promise.all(daemons.map((d) => d.stop("SIGKILL")));
    await rm(dir, { recursive: true, force: true });
  };
  const started = <T extends Daemon>(daemon: T) => (daemons.push(daemon), daemon);
  try {
    const [master, replica] = await Promise.all([
      startRedisServer(layout.masterPort, dataServerOptions(layout, "master")).then(started),
      startRedisServer(layout.replicaPort, dataServerOptions(layout, "replica")).then(started),
    ]);
    await untilReplicaSynced(layout);
    await Promise.all(sentinelPorts.map(async (port) => started(await startSentinel(layout, port))));
    await untilSentinelsSeeEachOther(layout);
    const byPort = new Map([
      [layout.masterPort, master],
      [layout.replicaPort, replica],
    ]);
    return groupOver(layout, byPort, stop);
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The master's or the replica's redis-server options: its files in the group's folder, the replica following the master. */
function dataServerOptions(layout: Layout, role: "master" | "replica") {
  const port = role === "master" ? layout.masterPort : layout.replicaPort;
  const args = [
    // A replica syncs at once, not after the 5 s a master waits for others to share the transfer.
    "--repl-diskless-sync-delay",
    "0",
    "--dir",
    layout.dir,
    "--dbfilename",
    `dump-${port}.rdb`,
  ];
  if (role === "replica") args.push("--replicaof", "127.0.0.1", String(layout.masterPort));
  return { access: layout.access, args, name: `redis ${role} :${port}` };
}

/** Resolves once the master lists the replica online: the sentinels learn the replica from the master's first INFO. */
async function untilReplicaSynced({ ask, masterPort, replicaPort }: Layout): Promise<void> {
  await until(
    async () => String(await ask(masterPort, "INFO", "replication")),
    (info) => info.includes(`port=${replicaPort},state=online`),
    20_000,
    "the replica to sync",
    50,
  );
}

/** A sentinel's configuration: it watches the master (quorum 2), holds it down after 1 s without answers. */
function sentinelConfig({ name, dir, masterPort, access }: Layout, port: number): string {
  return [
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
  ].join("\n");
}

/** Starts one sentinel on `port` and resolves once it answers PING. */
async function startSentinel(layout: Layout, port: number): Promise<Daemon> {
  // A sentinel rewrites its file as it learns the group, so each has its own.
  const file = join(layout.dir, `sentinel-${port}.conf`);
  await writeFile(file, sentinelConfig(layout, port));
  return startDaemon(
    `redis-sentinel :${port}`,
    "redis-sentinel",
    [file],
    async () => (await layout.askSentinel(port, "PING")) === "PONG",
  );
}

/** Resolves once every sentinel sees the replica and the two other sentinels, so a failover can be agreed on. */
async function untilSentinelsSeeEachOther({ name, replicaPort, sentinelPorts, askSentinel }: Layout): Promise<void> {
  const seesTheGroup = async (port: number) => {
    const replicas = records(await askSentinel(port, "SENTINEL", "REPLICAS", name));
    const others = records(await askSentinel(port, "SENTINEL", "SENTINELS", name));
    return replicas.some((r) => r["port"] === String(replicaPort) && r["flags"] === "slave") && others.length >= 2;
  };
  await until(
    async () => {
      for (const port of sentinelPorts) if (!(await seesTheGroup(port))) return false;
      return true;
    },
    Boolean,
    30_000,
    "the sentinels to see the replica and each other",
    100,
  );
}

/** The master the sentinel on `port` names now. */
async function masterNamedBy({ name, askSentinel }: Layout, port: number): Promise<HostPort> {
  const [host, named] = (await askSentinel(port, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", name)) as [string, string];
  return { host, port: Number(named) };
}

/** The running group's handle; `byPort` holds the master's and the replica's servers. */
function groupOver(layout: Layout, byPort: Map<number, Daemon>, stop: () => Promise<void>): SentinelGroup {
  const frozen: number[] = [];
  const sentinels = layout.sentinelPorts.map((port) => ({ host: "127.0.0.1", port }));
  const master = () => masterNamedBy(layout, layout.sentinelPorts[0]!);
  /** Ends the master's reign with `end` and resolves once the sentinels name another one, answering as a master. */
  const replaceMaster = async (end: (old: HostPort) => Promise<void> | void, timeoutMs: number) => {
    const old = await master();
    const failedAt = Date.now();
    await end(old);
    const promoted = await untilPromoted(layout, old, timeoutMs);
    return { failedAt, promotedAt: Date.now(), master: promoted };
  };
  return {
    name: layout.name,
    sentinels,
    sentinelsSetting: sentinels.map(({ host, port }) => `${host}:${port}`).join(","),
    ask: layout.ask,
    master,
    killMaster: (timeoutMs = 30_000) => replaceMaster((old) => byPort.get(old.port)!.stop("SIGKILL"), timeoutMs),
    freezeMaster: (timeoutMs = 30_000) =>
      replaceMaster((old) => {
        byPort.get(old.port)!.child.kill("SIGSTOP");
        frozen.push(old.port);
      }, timeoutMs),
    async thaw() {
      for (const port of frozen.splice(0)) {
        byPort.get(port)!.child.kill("SIGCONT");
        await untilFollowing(layout, port, await master());
      }
    },
    stop,
  };
}

/** Resolves with the new master once every sentinel names the same one other than `old`, and it answers as a master. */
async function untilPromoted(layout: Layout, old: HostPort, timeoutMs: number): Promise<HostPort> {
  const promoted = await until(
    async () => {
      const named = await Promise.all(layout.sentinelPorts.map((port) => masterNamedBy(layout, port)));
      const port = named[0]!.port;
      if (port === old.port || named.some((m) => m.port !== port)) return null;
      const role = (await layout.ask(port, "ROLE")) as [string];
      return role[0] === "master" ? { host: "127.0.0.1", port } : null;
    },
    (found) => found !== null,
    timeoutMs,
    "the sentinels to promote the replica",
    50,
  );
  return promoted!;
}

/** Resolves once `master` lists the server on `port` as its replica, online. */
async function untilFollowing({ ask }: Layout, port: number, master: HostPort): Promise<void> {
  await until(
    async () => String(await ask(master.port, "INFO", "replication")),
    (info) => info.includes(`port=${port},state=online`),
    30_000,
    `the thawed master :${port} to serve as a replica`,
    100,
  );
}
