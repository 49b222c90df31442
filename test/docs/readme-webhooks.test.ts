/**
 * The README's webhook endpoint walkthrough, as a reader follows it with the API on a port `.env`
 * moved: the README's line exports that port into the shell, the README's receiver (saved where the
 * README says, in a copy of the repository's layout) reads it to fetch the API's keys, and the
 * README's commands register the receiver and send it a test event, which it verifies and prints.
 *
 * Substituted: the receiver's own port (8787 in the README) is a free one here, in the receiver and
 * in the endpoint's URL alike, and `MERCHANT` holds a merchant of the test's own. A worker runs in
 * this process and signs with issuer `payreq`, the default the receiver checks; hence a database of
 * this file's own.
 */
import { freePorts } from "../../scripts/engines/free-ports.js";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildMerchant } from "../factories.js";
import { startApiProcess } from "../service-processes.js";
import { until } from "../until.js";
import { withWorker, workerConfig } from "../worker/harness.js";
import { codeBlocks, root } from "./markdown.js";
import { readFileSync } from "node:fs";
import { bash } from "./shell.js";

const readme = readFileSync(join(root, "README.md"), "utf8");
/** Where the README says to save the receiver, and the receiver. */
const receiverPath = /save this receiver as `([^`]+)`/.exec(readme)![1]!;
const receiverCode = /save this receiver as[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1]!;
/** The README's one line that gives the shell the port `.env` names. */
const exportPort = /`(export PORT=[^`]+)`/.exec(readme)![1]!;
/** The walkthrough's CLI commands: register the receiver, then ping it. */
const [create, ping] = codeBlocks()
  .filter(({ file, lang }) => file === "README.md" && lang === "sh")
  .flatMap(({ text }) => text.replace(/\\\n\s*/g, "").split("\n"))
  .filter((line) => /admin -- endpoint (create .*--url http:\/\/127\.0\.0\.1:8787|ping )/.test(line));

const freePort = async () => (await freePorts(1))[0]!;

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
      .once("connect", () => (socket.destroy(), resolve(true)))
      .once("error", () => resolve(false));
  });

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("the README's webhook endpoint walkthrough", () => {
  it("works with the API on the port .env names", async () => {
    expect(create).toBeDefined();
    expect(ping).toBeDefined();
    const api = await startApiProcess();
    cleanups.push(api.kill);
    const apiPort = new URL(api.base).port;
    const receiverPort = String(await freePort());

    // A checkout's layout: .env, the receiver where the README puts it, the project's packages.
    const checkout = await mkdtemp(join(tmpdir(), "payreq-readme-webhooks-"));
    cleanups.push(() => rm(checkout, { recursive: true, force: true }));
    await writeFile(join(checkout, ".env"), `PORT=${apiPort}\n`);
    await symlink(join(root, "node_modules"), join(checkout, "node_modules"));
    await mkdir(dirname(join(checkout, receiverPath)), { recursive: true });
    await writeFile(join(checkout, receiverPath), receiverCode.replace("8787", receiverPort));

    const env = { ...process.env };
    delete env["PORT"];
    const receiver = spawn("bash", ["-c", `${exportPort}\nexec node ${receiverPath}`], { cwd: checkout, env });
    cleanups.push(() => receiver.kill("SIGKILL"));
    let printed = "";
    receiver.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    receiver.stderr.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    await until(() => listening(Number(receiverPort)), Boolean, 10_000, `the receiver to listen on ${receiverPort}`);

    const merchant = await buildMerchant();
    await withWorker(workerConfig({ issuer: "payreq", timeoutMs: 2_000 }), async () => {
      const created = await bash(create!.replace("8787", receiverPort), checkout, { MERCHANT: merchant.merchantId });
      expect(created.code, created.stderr).toBe(0);
      const endpoint = JSON.parse(created.stdout) as { id: string; url: string };
      expect(endpoint.url).toBe(`http://127.0.0.1:${receiverPort}/hooks`);

      const pinged = await bash(ping!, checkout, { ENDPOINT: endpoint.id });
      expect([pinged.code, pinged.stdout, pinged.stderr]).toEqual([0, expect.any(String), ""]);
      const outcome = JSON.parse(pinged.stdout) as { deliveryId: string; delivered: boolean };
      expect(outcome.delivered).toBe(true);
      // The receiver verified the token with the keys of the API on .env's port, and printed it.
      const line = await until(
        () => printed,
        (text) => text.includes("\n"),
        10_000,
        "the receiver to print the test event",
      );
      expect(line).toContain(`ping ${outcome.deliveryId}`);
      expect(line).toContain(endpoint.id);
      expect(line).not.toContain("refused");
    });
  });
});
