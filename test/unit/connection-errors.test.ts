import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, isRedisUnavailable } from "../../src/connection-errors.js";

const failure = (code: string, message = "failed") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["no such database (3D000)", failure("3D000", 'database "x" does not exist')],
    ["role refused (28000)", failure("28000")],
    ["password refused (28P01)", failure("28P01")],
    ["administrator shutdown (57P01)", failure("57P01")],
    ["starting up (57P03)", failure("57P03")],
    ["connection failure (08006)", failure("08006")],
    ["connection rejected (08004)", failure("08004")],
    ["too many connections (53300)", failure("53300")],
    ["connection refused (ECONNREFUSED)", failure("ECONNREFUSED")],
    ["host unreachable (EHOSTUNREACH)", failure("EHOSTUNREACH")],
    ["Prisma: database does not exist (P1003)", failure("P1003")],
    ["Prisma: initialization, server unreachable", Object.assign(new Error("x"), { errorCode: "P1001" })],
    ["a driver error carried as the cause", new Error("query failed", { cause: { kind: "postgres", code: "57P01" } })],
    ["node-postgres's own connect timeout", new Error("timeout exceeded when trying to connect")],
    [
      "Prisma: no connection for a transaction within its wait (P2028)",
      failure("P2028", "Transaction API error: Unable to start a transaction in the given time."),
    ],
  ])("%s is the database being unavailable", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation (23505)", failure("23505")],
    ["a missing table (42P01)", failure("42P01")],
    ["bad input text (22P02)", failure("22P02")],
    ["a statement timeout (57014)", failure("57014")],
    ["Prisma: record not found (P2025)", failure("P2025")],
    ["Prisma: a transaction used after it ended (P2028)", failure("P2028", "Transaction API error: Transaction not found.")],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
  ])("%s is not", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("isRedisUnavailable", () => {
  it.each([
    ["connection refused (ECONNREFUSED)", failure("ECONNREFUSED")],
    ["connection reset (ECONNRESET)", failure("ECONNRESET")],
    ["ioredis: a closed connection", new Error("Connection is closed.")],
    ["ioredis: its own connect timeout", new Error("connect ETIMEDOUT")],
    ["ioredis: a command it cannot send", new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ["BullMQ: a wrapped cause", new Error("job failed", { cause: failure("ECONNREFUSED") })],
    [
      "ioredis: a Sentinel client finding no master",
      new Error("All sentinels are unreachable. Retrying from scratch after 10ms."),
    ],
    [
      "ioredis: a command out of retries",
      new Error('Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.'),
    ],
    [
      "a master demoted in a failover (READONLY)",
      Object.assign(new Error("READONLY You can't write against a read only replica."), { name: "ReplyError" }),
    ],
  ])("%s is Redis being unavailable", (_, error) => {
    expect(isRedisUnavailable(error)).toBe(true);
  });

  it.each([
    ["a Lua error", Object.assign(new Error("ERR Error running script"), { name: "ReplyError" })],
    ["a refused command (WRONGTYPE)", failure("WRONGTYPE", "WRONGTYPE Operation against a key holding the wrong kind of value")],
    ["a message that merely mentions a closed connection", new Error("the receiver said: Connection is closed. Bye")],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
  ])("%s is not", (_, error) => {
    expect(isRedisUnavailable(error)).toBe(false);
  });
});
