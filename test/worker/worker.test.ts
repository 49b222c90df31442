import { built } from "../built.js";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { db } from "../prisma.js";
import { startWorker } from "../../worker/app.js";
import { buildRequest } from "../factories.js";
import { silentLogger, until, workerConfig } from "./harness.js";

describe("worker", () => {
  it("stores EXPIRED on overdue requests through its scheduled sweep", async () => {
    const { request } = await buildRequest();
    await db.paymentRequest.update({ where: { id: request.id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const worker = await startWorker({ ...workerConfig(), expiry: { sweepIntervalMs: 200 } }, silentLogger);
    try {
      const stored = await until(
        () => db.paymentRequest.findUniqueOrThrow({ where: { id: request.id } }),
        (row) => row.status === "EXPIRED",
      );
      expect(stored.status).toBe("EXPIRED");
    } finally {
      await worker.close();
    }
  });

  it("rolls up merchants' takings through its scheduled job", async () => {
    const { request, merchant } = await buildRequest();
    const hourAgo = new Date(Date.now() - 3_600_000);
    await db.paymentRequest.update({ where: { id: request.id }, data: { createdAt: hourAgo } });

    const worker = await startWorker(workerConfig(), silentLogger);
    try {
      const rollup = await until(
        () => db.takingsRollup.findUnique({ where: { merchantId: merchant.merchantId } }),
        (row) => row !== null,
      );
      expect(rollup!.through.getTime()).toBeGreaterThan(hourAgo.getTime());
      expect(
        await db.takingsBin.findMany({ where: { merchantId: merchant.merchantId }, select: { created: true, asset: true } }),
      ).toEqual([{ created: 1, asset: request.asset }]);
    } finally {
      await worker.close();
    }
  });

  it("runs as its own process, logs that it is ready and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, [...built("worker/index.ts")], {
      env: { ...process.env, LOG_LEVEL: "info", QUEUE_PREFIX: `test-${randomUUID()}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await until(
      async () => output,
      (text) => text.includes("worker ready"),
      15_000,
    );
    expect(output).toContain("worker ready");

    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(output).toContain("worker stopped");
  });
});
