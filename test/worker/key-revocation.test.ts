import { built } from "../built.js";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../../src/db.js";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { buildMerchant, buildRequest } from "../factories.js";
import { startApiProcess } from "./harness.js";

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
  }, 60_000);

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
  }, 60_000);
});
