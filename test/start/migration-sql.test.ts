import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const work = await mkdtemp(join(tmpdir(), "payreq-migration-sql-"));
afterAll(() => rm(work, { recursive: true, force: true }));

/** `npm run db:migration-sql -- …`, as a developer runs it; its exit code and output. */
async function migrationSql(...args: string[]) {
  return run(process.execPath, ["--import", "tsx", "scripts/migration-sql.ts", ...args], {
    cwd: root,
    env: { ...process.env, ENV_FILE: "" },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

describe("npm run db:migration-sql", () => {
  it("prints the SQL from an older schema to prisma/schema.prisma, offline, with Prisma 7's schema (no url)", async () => {
    const current = await readFile(join(root, "prisma/schema.prisma"), "utf8");
    // The schema before a change that added payment_request.description.
    const before = current.replace(/(model PaymentRequest \{[^}]*?)\n\s*description\s+String\?\n/, "$1\n");
    expect(before).not.toBe(current);
    await writeFile(join(work, "before.prisma"), before);
    const { code, stdout } = await migrationSql("--from", join(work, "before.prisma"));
    expect(code).toBe(0);
    expect(stdout).toMatch(/ALTER TABLE "payment_request" ADD COLUMN\s+"description" TEXT;/);
  });

  it("refuses a migration name that is not lower-case words", async () => {
    const { code, stderr } = await migrationSql("--name", "Add Column");
    expect(code).toBe(2);
    expect(stderr).toContain("--name takes lower-case letters, digits and underscores");
  });
});
