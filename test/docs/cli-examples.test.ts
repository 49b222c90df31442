/**
 * Every example of the operator CLI that the README, docs/*.md and `npm run admin -- --help` show
 * runs as written: pasted into bash, it exits 0 (and with `--json` prints one JSON object).
 *
 * An example is a shell line, or an inline code span, that runs the CLI with a command:
 * `npm run [--silent] admin -- …` or, from a build, `node dist/src/cli/admin.js …`, after any
 * `NAME=value` settings. `[…]` and `|` belong to the usage synopsis (`--help`'s command lines,
 * which do not start so), never to an example.
 *
 * Examples name what they act on by the shell variables the README and `--help` define, which the
 * test sets for each example to things of the example's own: `MERCHANT` (a new merchant's id),
 * `ENDPOINT` (a webhook endpoint of that merchant, at a receiver here that answers 200) and
 * `KEY_PREFIX` (the prefix of a new key of that merchant). `npm run admin --` runs the CLI from the
 * run's build (test/docs/shell.ts), and `dist/` is that build.
 * A worker runs meanwhile, so `endpoint ping` is delivered: hence a database of this file's own.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { keyPrefixOf } from "../../src/domain/keys/api-key.js";
import { built } from "../built.js";
import { buildEndpoint, buildMerchant } from "../factories.js";
import { startReceiver, withWorker, workerConfig } from "../worker/harness.js";
import { codeBlocks, codeSpans } from "./markdown.js";
import { bash } from "./shell.js";

const run = promisify(execFile);

/** A line that runs the CLI with a command, after any settings. */
const EXAMPLE = /^(?:[A-Z_]+=\S*\s+)*(?:npm run (?:--silent )?admin --|node dist\/src\/cli\/admin\.js)\s+\S/;

/** The CLI's `--help`, as an operator reads it. */
async function help(): Promise<string> {
  const { stdout } = await run(process.execPath, [...built("src/cli/admin.ts"), "--help"]);
  return stdout;
}

/** Every example, with where it was found. */
async function examples(): Promise<{ where: string; command: string }[]> {
  const fromBlocks = codeBlocks()
    .filter((block) => ["sh", "bash", "shell"].includes(block.lang))
    .flatMap(({ file, text }) =>
      text
        .replace(/\\\n\s*/g, "")
        .split("\n")
        .filter((line) => EXAMPLE.test(line))
        .map((command) => ({ where: file, command })),
    );
  const fromProse = codeSpans()
    .filter(({ text }) => EXAMPLE.test(text))
    .map(({ file, text }) => ({ where: file, command: text }));
  const fromHelp = (await help())
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => EXAMPLE.test(line))
    .map((command) => ({ where: "--help", command }));
  return [...fromBlocks, ...fromProse, ...fromHelp];
}

const work = await mkdtemp(join(tmpdir(), "payreq-cli-examples-"));
afterAll(() => rm(work, { recursive: true, force: true }));

/** Runs `task` on each item, at most `width` at a time (each runs a CLI process). */
async function inTurn<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i]!);
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

describe("the CLI's examples", () => {
  it("run as written, from the README, docs/*.md and --help", { timeout: 180_000 }, async () => {
    await symlink(inject("build"), join(work, "dist"));
    const receiver = await startReceiver();
    const shown = await examples();
    // The README's CLI section alone shows every command.
    expect(shown.length).toBeGreaterThanOrEqual(20);
    expect(shown.map(({ where }) => where)).toContain("--help");

    const outcomes = await withWorker(workerConfig({ timeoutMs: 2_000 }), () =>
      inTurn(shown, 3, async ({ where, command }) => {
        const merchant = await buildMerchant();
        const endpoint = await buildEndpoint(merchant, { url: receiver.url });
        const variables = { MERCHANT: merchant.merchantId, ENDPOINT: endpoint.id, KEY_PREFIX: keyPrefixOf(merchant.apiKey) };
        return { where, command, ...(await bash(command, work, variables)) };
      }),
    );
    await receiver.close();

    const failed = outcomes
      .filter(
        ({ command, code, stdout }) => code !== 0 || (/--json\b/.test(command) && !command.includes("|") && !isJson(stdout)),
      )
      .map(({ where, command, code, stdout, stderr }) => `${where}: ${command}\n  exit ${code}: ${(stderr || stdout).trim()}`);
    expect(failed).toEqual([]);
  });
});

function isJson(text: string): boolean {
  try {
    return typeof JSON.parse(text) === "object";
  } catch {
    return false;
  }
}
