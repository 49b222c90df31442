/**
 * Where the API process listens (the contract's "Listening"): on HOST only, with its metrics port on
 * HOST too, and with METRICS_PORT=0 on no metrics port at all. 127.0.0.1 and 127.0.0.2 are both
 * loopback on Linux, so a process on one is refused on the other without leaving this machine.
 */
import { built } from "../built.js";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { reportedPort, spawnNode } from "../../scripts/node-process.js";

/** Starts the API process with `env`; resolves once it says which port it listens on. */
async function startApi(env: Record<string, string>) {
  const { HOST: _, ...inherited } = process.env;
  const child = spawnNode([...built("src/api/server.ts")], {
    env: { ...inherited, PORT: "0", LOG_LEVEL: "info", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  onTestFinished(() => void child.kill("SIGKILL"));
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const port = await reportedPort(child, "the API process", 20_000).catch((err: Error) => {
    throw new Error(`${err.message}:\n${output.slice(-2000)}`);
  });
  return { pid: child.pid!, port, output: () => output };
}

/** What a GET answers: its status, or the code of the error that stopped it (ECONNREFUSED). */
const answer = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.status,
    (err: Error) => (err.cause as NodeJS.ErrnoException | undefined)?.code ?? err.message,
  );

/** A TCP port free on `host` just now. */
const freePort = (host: string) =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The TCP ports process `pid` listens on, from /proc: its sockets' inodes in the kernel's tables. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]].filter(Boolean);
      } catch {
        return []; // closed meanwhile
      }
    }),
  );
  return ["tcp", "tcp6"].flatMap((table) =>
    readFileSync(`/proc/${pid}/net/${table}`, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // local address (hex ip:port), state (0A: LISTEN), inode
      .filter((fields) => fields[3] === "0A" && inodes.has(fields[9]))
      .map((fields) => parseInt(fields[1]!.split(":")[1]!, 16)),
  );
}

describe("the API's listen address", () => {
  it("listens on HOST only, the API and its metrics port alike", async () => {
    const metricsPort = await freePort("127.0.0.2");
    const api = await startApi({ HOST: "127.0.0.2", METRICS_PORT: String(metricsPort) });
    expect(await answer(`http://127.0.0.2:${api.port}/health`)).toBe(200);
    expect(await answer(`http://127.0.0.2:${metricsPort}/metrics`)).toBe(200);
    expect(await answer(`http://127.0.0.1:${api.port}/health`)).toBe("ECONNREFUSED");
    expect(await answer(`http://127.0.0.1:${metricsPort}/metrics`)).toBe("ECONNREFUSED");
    expect(api.output()).toContain(`GraphQL at http://127.0.0.2:${api.port}/graphql`);
  });

  it("listens on 127.0.0.1 when HOST is not set, outside production", async () => {
    const api = await startApi({ METRICS_PORT: "0" });
    expect(await answer(`http://127.0.0.1:${api.port}/health`)).toBe(200);
    expect(await answer(`http://127.0.0.2:${api.port}/health`)).toBe("ECONNREFUSED");
  });

  it("serves no metrics port with METRICS_PORT=0", async () => {
    const api = await startApi({ METRICS_PORT: "0" });
    expect(await answer(`http://127.0.0.1:${api.port}/health`)).toBe(200);
    expect(listeningPorts(api.pid)).toEqual([api.port]);
    expect(api.output()).not.toContain("metrics at");
  });
});
