import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnvFile } from "../../src/env-file.js";

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
