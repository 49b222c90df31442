import { describe, expect, it } from "vitest";
import { loadApiConfig } from "../../src/api/config.js";
import { apiEnv, workerEnv } from "../../src/env.js";
import { loadWorkerConfig } from "../../worker/config.js";

describe("DATABASE_POOL_SIZE", () => {
  it("is 20 connections per API and worker process unless set, and what is set otherwise", () => {
    expect(loadApiConfig(apiEnv.parse({})).db.poolSize).toBe(20);
    expect(loadWorkerConfig(workerEnv.parse({})).db.poolSize).toBe(20);
    expect(loadApiConfig(apiEnv.parse({ DATABASE_POOL_SIZE: "5" })).db.poolSize).toBe(5);
    expect(loadWorkerConfig(workerEnv.parse({ DATABASE_POOL_SIZE: "64" })).db.poolSize).toBe(64);
  });

  it("refuses a value that is not a whole number from 2 to 1000, naming the setting", () => {
    for (const DATABASE_POOL_SIZE of ["0", "1", "-3", "2.5", "many", "1001", " "]) {
      for (const schema of [apiEnv, workerEnv]) {
        const parsed = schema.safeParse({ DATABASE_POOL_SIZE });
        expect(parsed.success, DATABASE_POOL_SIZE).toBe(false);
        expect(parsed.error!.issues.map((issue) => issue.path.join("."))).toEqual(["DATABASE_POOL_SIZE"]);
      }
    }
  });
});
