import { built } from "../built.js";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { buildMerchant, buildRequest, type TestMerchant } from "../factories.js";
import { startApiProcess } from "../service-processes.js";
import { openStream, type Stream } from "../graphql/subscriptions/sse.js";

const run = promisify(execFile);
const servers: { kill: () => void }[] = [];
afterAll(() => servers.forEach((server) => server.kill()));

/** `key revoke PREFIX` as an operator runs it, with `env` over the test's settings. */
async function revoke(prefix: string, env: Record<string, string> = {}) {
  return run(process.execPath, [...built("src/cli/admin.ts"), "key", "revoke", prefix, "--json"], {
    env: { ...process.env, ...env },
  }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: "" }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/**
 * Cancels probe requests of `owner` through `base` until every one of `streams` has heard one of
 * them: a stream opens before its process has subscribed to Redis, and then it has heard an event.
 */
async function hearProbe(base: string, owner: TestMerchant, streams: Stream[], timeoutMs = 15_000): Promise<void> {
  const probes = new Set<string>();
  const heard = (stream: Stream) => stream.events.some((event) => probes.has(event.id));
  const deadline = Date.now() + timeoutMs;
  while (!streams.every(heard)) {
    if (Date.now() > deadline) throw new Error(`not every stream of ${owner.merchantId} heard one of ${probes.size} probes`);
    const { request: probe } = await buildRequest({ merchant: owner });
    probes.add(probe.id);
    const cancelled = await fetch(`${base}/api/requests.cancel`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": owner.apiKey },
      body: JSON.stringify({ requestId: probe.id }),
    });
    expect(cancelled.status).toBe(200);
    // A live stream hears it at once; one not yet listening never will, so another probe goes out.
    for (const stream of streams) await stream.heardWithin(() => heard(stream), 500);
  }
}

describe("a key revoked with the CLI", () => {
  it("is refused by a running API process on its very next call, over REST and GraphQL, though the process had just read it", async () => {
    const api = await startApiProcess();
    servers.push(api);
    const [{ merchant, request }, other] = await Promise.all([buildRequest(), buildMerchant()]);
    const info = (apiKey: string) =>
      fetch(`${api.base}/api/requests.info?requestId=${request.id}`, { headers: { "x-api-key": apiKey } });
    const read = (apiKey: string) =>
      fetch(`${api.base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body: JSON.stringify({ query: `{ paymentRequest(id: "${request.id}") { id } }` }),
      }).then((response) => response.json() as Promise<{ data?: unknown; errors?: { extensions: { code: string } }[] }>);
    for (let i = 0; i < 3; i++) expect((await info(merchant.apiKey)).status).toBe(200);
    expect(await read(merchant.apiKey)).toEqual({ data: { paymentRequest: { id: request.id } } });

    expect((await revoke(keyPrefixOf(merchant.apiKey))).code).toBe(0);
    const refused = await info(merchant.apiKey);
    expect([refused.status, await refused.json()]).toEqual([401, expect.objectContaining({ message: "KEY_NOT_AUTHORIZED" })]);
    expect((await read(merchant.apiKey)).errors?.[0]?.extensions.code).toBe("KEY_NOT_AUTHORIZED");
    // Other keys are not touched.
    expect(
      (
        await fetch(`${api.base}/api/merchants.configurations.info?merchantId=${other.merchantId}`, {
          headers: { "x-api-key": other.apiKey },
        })
      ).status,
    ).toBe(200);
  });

  it("ends the key's open subscription streams in every API process within seconds: KEY_NOT_AUTHORIZED, then complete", async () => {
    const [a, b] = await Promise.all([startApiProcess(), startApiProcess()]);
    servers.push(a, b);
    const [merchant, other] = await Promise.all([buildMerchant(), buildMerchant()]);
    const streams = [openStream(a.base, merchant.apiKey), openStream(b.base, merchant.apiKey)];
    const untouched = openStream(a.base, other.apiKey);
    try {
      for (const stream of [...streams, untouched]) expect((await stream.opened).status).toBe(200);
      await hearProbe(a.base, merchant, streams);
      await hearProbe(b.base, other, [untouched]);

      expect((await revoke(keyPrefixOf(merchant.apiKey))).code).toBe(0);
      // Each process looks up its streams' keys every 2 seconds; the CLI returns once Redis has the mark.
      await Promise.all(streams.map((stream) => stream.ended(6_000)));
      for (const stream of streams) {
        expect(stream.errors).toEqual([expect.objectContaining({ extensions: { code: "KEY_NOT_AUTHORIZED" } })]);
        expect(stream.completed()).toBe(true);
      }
      // The key opens no new stream, and another key's stream goes on.
      const again = openStream(a.base, merchant.apiKey);
      expect((await again.opened).status).toBe(401);
      await hearProbe(b.base, other, [untouched]);
      expect(untouched.errors).toEqual([]);
    } finally {
      [...streams, untouched].forEach((stream) => stream.close());
    }
  });

  it("is revoked in the database when Redis cannot be told, and the CLI says that processes may accept it for 10 seconds more", async () => {
    const merchant = await buildMerchant();
    const prefix = keyPrefixOf(merchant.apiKey);
    // Nothing listens on port 1 of the loopback address: the CLI's Redis is unreachable.
    const result = await revoke(prefix, { REDIS_URL: "redis://127.0.0.1:1" });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error: "EXTERNAL_SERVICE_ERROR",
      message: `The key ${prefix} is revoked, but Redis could not be told: API processes may accept it for 10 seconds more.`,
    });
    expect((await db.apiKey.findUniqueOrThrow({ where: { prefix } })).revokedAt).not.toBeNull();
  });
});
