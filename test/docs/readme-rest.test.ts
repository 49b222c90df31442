/**
 * The README's REST examples, run as a reader runs them: curl in a shell, against an API process on
 * the port `PORT` names, with a merchant, payer key and wallet of the test's own in place of the
 * credentials `npm start` prints. Run twice, they make two requests, never a replay of the first.
 */
import { built } from "../built.js";
import { execFile, type ChildProcess } from "node:child_process";
import { reportedPort, spawnNode } from "../../scripts/node-process.js";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMerchant, buildPayerKey, buildWallet } from "../factories.js";

const readme = readFileSync(resolve(import.meta.dirname, "../../README.md"), "utf8");
const block = /With the credentials `npm start` printed[^\n]*\n\n```sh\n([\s\S]*?)```/.exec(readme)![1]!;
/** The block's shell lines, continuation lines joined; each `#   →` comment kept as the answer expected of the command before it. */
const lines = block.replace(/\\\n\s*/g, "").split("\n");
const [assignments, run] = lines.filter((line) => /^[A-Z]+=/.test(line));
const steps = lines.flatMap((line, i) =>
  line.startsWith("curl ") ? [{ command: line, expected: /^#\s+→ (.*)$/.exec(lines[i + 1] ?? "")?.[1] }] : [],
);

let api: ChildProcess;
let port: string;
beforeAll(async () => {
  api = spawnNode([...built("src/api/server.ts")], {
    env: { ...process.env, PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "info" },
    stdout: "ignore",
  });
  port = String(await reportedPort(api, "the API"));
});
afterAll(() => void api.kill("SIGKILL"));

/** Runs the README's examples once, in order, filling in the ids each answer gives. */
async function runExamples(credentials: Record<string, string>) {
  const prelude = `${assignments!.replace(/(\w+)=\S*…/g, (_, name: string) => `${name}=${credentials[name]}`)}\n${run}\n`;
  const ids: Record<string, string> = {};
  const answers: Record<string, unknown>[] = [];
  for (const { command, expected } of steps) {
    let filled = command.replace(/<([^>]+)>/g, (_, name: string) => ids[name]!);
    // "Create another": the create example again, for a request to cancel.
    if (command.includes("<another requestId>")) {
      const create = steps.find((step) => step.command.includes("requests.create"))!.command;
      ids["another requestId"] = ((await shell(prelude + create)) as { requestId: string }).requestId;
      filled = command.replace("<another requestId>", ids["another requestId"]);
    }
    const answer = await shell(prelude + filled);
    answers.push(answer);
    if (command.includes("requests.create")) ids["requestId"] ??= (answer as { requestId: string }).requestId;
    if (command.includes("requests.pay"))
      ids["paidBy.transactionId"] = (answer as { paidBy: { transactionId: string } }).paidBy.transactionId;
    // Every literal field of the answer the README shows (`"status":"paid"`, `"amount":300`) is in the real one.
    for (const [field] of (expected ?? "").matchAll(/"\w+":("[^"…]*"|\d+)/g)) expect(JSON.stringify(answer)).toContain(field);
  }
  return { ids, answers };
}

async function shell(script: string): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)("bash", ["-c", script.replace(/^curl /gm, "curl -sS ")], {
    env: { ...process.env, PORT: port },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("the README's REST examples", () => {
  // Two dozen bash and curl processes: a machine busy with other work spreads them over a minute.
  it("run as written, and run again make a new request and a new refund", { timeout: 120_000 }, async () => {
    const merchant = await buildMerchant();
    const wallet = await buildWallet(10_000);
    const credentials = {
      KEY: merchant.apiKey,
      PAYER: await buildPayerKey(),
      MERCHANT: merchant.merchantId,
      WALLET: wallet.walletId,
    };
    expect(steps.length).toBeGreaterThanOrEqual(6);
    const first = await runExamples(credentials);
    const second = await runExamples(credentials);
    expect(second.ids["requestId"]).not.toBe(first.ids["requestId"]);
    expect(second.ids["paidBy.transactionId"]).not.toBe(first.ids["paidBy.transactionId"]);
    const created = first.answers.find((answer) => answer["requestId"] === first.ids["requestId"])!;
    const lifetime = Date.parse(created["expiresAt"] as string) - Date.parse(created["createdAt"] as string);
    expect(lifetime).toBe(1800_000);
  });
});
