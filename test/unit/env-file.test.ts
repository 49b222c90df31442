import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDatabasePassword, loadEnvFile } from "../../src/env-file.js";

describe("the settings file (loadEnvFile)", () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "payreq-env-file-"));
    file = join(dir, "settings.env");
    await writeFile(
      file,
      "# a comment\nPORT=4100\nDATABASE_URL=postgresql://file@127.0.0.1/from_file\nLOG_LEVEL='warn' # quoted\n",
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("adds the file's variables that the environment does not set; a set variable wins, even when empty", () => {
    const env: NodeJS.ProcessEnv = { ENV_FILE: file, DATABASE_URL: "postgresql://set@127.0.0.1/set", PORT: "" };
    loadEnvFile(env);
    expect(env).toEqual({
      ENV_FILE: file,
      DATABASE_URL: "postgresql://set@127.0.0.1/set",
      PORT: "",
      LOG_LEVEL: "warn",
    });
  });

  it("reads no file when ENV_FILE is empty (as in the test suite)", () => {
    const env: NodeJS.ProcessEnv = { ENV_FILE: "" };
    loadEnvFile(env);
    expect(env).toEqual({ ENV_FILE: "" });
  });

  it("refuses a file that ENV_FILE names and that does not exist, naming it", () => {
    expect(() => loadEnvFile({ ENV_FILE: join(dir, "missing.env") })).toThrow(
      /ENV_FILE names .*missing\.env, which does not exist/,
    );
  });
});

describe("the database password file (loadDatabasePassword)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "payreq-password-"));
    await writeFile(join(dir, "password"), "s3cret:/@?#%\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("puts the file's password (without its final newline) into DATABASE_URL, escaped, replacing any there", () => {
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: "postgresql://postgres:old@db:5432/payreq",
      DATABASE_PASSWORD_FILE: join(dir, "password"),
    };
    loadDatabasePassword(env);
    expect(env["DATABASE_URL"]).toBe("postgresql://postgres:s3cret%3A%2F%40%3F%23%25@db:5432/payreq");
    expect(decodeURIComponent(new URL(env["DATABASE_URL"]!).password)).toBe("s3cret:/@?#%");
  });

  it("puts it into DATABASE_DIRECT_URL and DATABASE_READ_URL too, unless they carry a password of their own", () => {
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: "postgresql://app@pooler:6432/payreq",
      DATABASE_DIRECT_URL: "postgresql://app@db:5432/payreq",
      DATABASE_READ_URL: "postgresql://reader:own@replica:5432/payreq",
      DATABASE_PASSWORD_FILE: join(dir, "password"),
    };
    loadDatabasePassword(env);
    const password = (name: string) => decodeURIComponent(new URL(env[name]!).password);
    expect(password("DATABASE_URL")).toBe("s3cret:/@?#%");
    expect(password("DATABASE_DIRECT_URL")).toBe("s3cret:/@?#%");
    expect(env["DATABASE_DIRECT_URL"]).toBe("postgresql://app:s3cret%3A%2F%40%3F%23%25@db:5432/payreq");
    expect(env["DATABASE_READ_URL"]).toBe("postgresql://reader:own@replica:5432/payreq");

    const unset: NodeJS.ProcessEnv = {
      DATABASE_URL: "postgresql://app@db/payreq",
      DATABASE_PASSWORD_FILE: join(dir, "password"),
    };
    loadDatabasePassword(unset);
    expect(Object.keys(unset).sort()).toEqual(["DATABASE_PASSWORD_FILE", "DATABASE_URL"]);
  });

  it("is read by loadEnvFile, after the settings file", async () => {
    const settings = join(dir, "settings.env");
    await writeFile(settings, `DATABASE_URL=postgresql://app@db/payreq\nDATABASE_PASSWORD_FILE=${join(dir, "password")}\n`);
    const env: NodeJS.ProcessEnv = { ENV_FILE: settings };
    loadEnvFile(env);
    expect(decodeURIComponent(new URL(env["DATABASE_URL"]!).password)).toBe("s3cret:/@?#%");
  });

  it("changes nothing when unset, and refuses an unreadable file or a missing DATABASE_URL, naming them", () => {
    const env: NodeJS.ProcessEnv = { DATABASE_URL: "postgresql://app@db/payreq" };
    loadDatabasePassword(env);
    expect(env).toEqual({ DATABASE_URL: "postgresql://app@db/payreq" });
    expect(() => loadDatabasePassword({ ...env, DATABASE_PASSWORD_FILE: join(dir, "none") })).toThrow(
      /DATABASE_PASSWORD_FILE names .*none, which cannot be read \(ENOENT\)/,
    );
    expect(() => loadDatabasePassword({ DATABASE_PASSWORD_FILE: join(dir, "password") })).toThrow(/DATABASE_URL must be set/);
  });
});
