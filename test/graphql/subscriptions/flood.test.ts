import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { buildMerchant, buildRequest, type TestMerchant } from "../../factories.js";
import { startApiProcess } from "../../service-processes.js";
import { until } from "../../until.js";
import { openStream, ownLoopbackAddress } from "./sse.js";

const cleanUp: (() => void)[] = [];
afterAll(() => cleanUp.forEach((kill) => kill()));

/** The contract's default SUBSCRIPTIONS_PER_KEY, which the spawned processes run with. */
const PER_KEY = 20;
/** The flooding merchant's changes a second: three times what its default rate limit (200 calls a minute) allows. */
const CHANGES_PER_SECOND = 10;
/** The other tenant's calls under each turn of the flood. */
const BLOCK = 100;
const TURNS = 2;

const post = (base: string, owner: TestMerchant, operation: string, body: object) =>
  fetch(`${base}/api/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": owner.apiKey },
    body: JSON.stringify(body),
  });

/**
 * `count` streams of one key held by a process of their own (test/graphql/subscriptions/stream-holder.ts), so
 * that reading them takes nothing from this process's event loop, which calls as the other tenant.
 */
function holdStreams(base: string, owner: TestMerchant, address: string, count: number) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "test/graphql/subscriptions/stream-holder.ts", base, owner.apiKey, address, String(count)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  cleanUp.push(() => child.kill("SIGKILL"));
  const heardByAll = new Set<string>();
  let statuses: number[] | null = null;
  let failure: string | null = null;
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as { statuses?: number[]; heardByAll?: string; failure?: string };
    statuses ??= message.statuses ?? null;
    if (message.heardByAll) heardByAll.add(message.heardByAll);
    failure ??= message.failure ?? null;
  });
  const unfailed = () => {
    if (failure) throw new Error(`the stream holder reports: ${failure}`);
  };
  return {
    opened: () =>
      until(
        () => statuses,
        (found) => found !== null,
        20_000,
        "the stream holder to report its streams' statuses",
      ),
    heardByAll: (ids: string[], timeoutMs = 20_000) =>
      until(
        () => (unfailed(), ids.filter((id) => !heardByAll.has(id)).length),
        (missing) => missing === 0,
        timeoutMs,
        `every stream to hear all ${ids.length} changes (the number not heard by all is shown)`,
      ),
    /** Cancels probe requests of `owner` until every stream has heard one: each is then live. */
    async confirmLive(changer: string) {
      for (let probes = 1; ; probes++) {
        const { request } = await buildRequest({ merchant: owner });
        expect((await post(changer, owner, "requests.cancel", { requestId: request.id })).status).toBe(200);
        // Live streams hear it at once; a stream not yet listening never will, so another probe goes out.
        const heard = await until(
          () => heardByAll.has(request.id),
          (yes) => yes,
          500,
        ).then(
          () => true,
          () => false,
        );
        unfailed();
        if (heard) return;
        if (probes === 40) throw new Error(`the held streams did not all hear any of ${probes} probes`);
      }
    },
  };
}

describe("paymentRequestChanged under a flood", () => {
  // How much the flood slows the other tenant is a figure of `npm run bench` (tenant isolation), not a test's.
  it("one key holding its most streams while it changes its requests: a stream more is refused, every change reaches every stream, another tenant's calls are all answered", async () => {
    // The streams and the other tenant's calls on one process; the flood's changes made through another.
    const [api, changer, flooder, tenant] = await Promise.all([
      startApiProcess(),
      startApiProcess(),
      buildMerchant(),
      buildMerchant(),
    ]);
    cleanUp.push(api.kill, changer.kill);
    const address = ownLoopbackAddress();

    const held = holdStreams(api.base, flooder, address, PER_KEY);
    expect(await held.opened()).toEqual(Array(PER_KEY).fill(200));
    const refused = openStream(api.base, flooder.apiKey, address);
    const answer = await refused.opened;
    await refused.ended();
    expect(answer.status).toBe(429);
    expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.refusal()).toContain("RATE_LIMIT_EXCEEDED");
    await held.confirmLive(changer.base);

    const toChange = await Promise.all(
      Array.from({ length: CHANGES_PER_SECOND * 15 }, () => buildRequest({ merchant: flooder }).then((r) => r.request.id)),
    );
    const changed: string[] = [];
    /** Cancels the flooder's requests at CHANGES_PER_SECOND until `stopped()`. */
    async function flood(stopped: () => boolean) {
      const started = performance.now();
      for (let n = 0; !stopped(); n++) {
        const requestId = toChange[changed.length] ?? (await buildRequest({ merchant: flooder })).request.id;
        expect((await post(changer.base, flooder, "requests.cancel", { requestId })).status).toBe(200);
        changed.push(requestId);
        const wait = started + ((n + 1) * 1000) / CHANGES_PER_SECOND - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }

    const { request: own } = await buildRequest({ merchant: tenant });
    const read = async () => {
      const response = await fetch(`${api.base}/api/requests.info?requestId=${own.id}`, {
        headers: { "x-api-key": tenant.apiKey },
      });
      await response.arrayBuffer();
      return response.status;
    };

    const tenantStatuses: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      let stop = false;
      const flooding = flood(() => stop);
      const before = changed.length;
      await until(
        () => changed.length,
        (count) => count >= before + 2,
        10_000,
        "the flood to start",
      );
      for (let i = 0; i < BLOCK; i++) tenantStatuses.push(await read());
      stop = true;
      await flooding;
      // Every stream hears every change (the flood reached them all).
      await held.heardByAll(changed);
    }
    expect(tenantStatuses).toEqual(Array(TURNS * BLOCK).fill(200));
    expect(changed.length).toBeGreaterThanOrEqual(TURNS * 2);
  }, 180_000);
});
