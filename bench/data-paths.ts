/**
 * `npm run bench:data-paths`: what each raw-SQL hot path saves over Prisma, measured on this machine
 * (one process, sequential calls, a database of its own that is dropped at the end). Prints, per
 * path, the wall time and this process's CPU time per call for the statement the service runs and
 * for the same read or write through the Prisma client, and their ratio. docs/architecture.md's
 * data-access rule quotes these figures: a path stays raw SQL only where Prisma costs more than 1.2×.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createDatabase, dropDatabase } from "../scripts/start/database-admin.js";
import { createLogger } from "../src/logger.js";
import { closeDatabase, openDatabase, primaryDatabase } from "../src/db.js";
import { prismaOn } from "../src/graphql/prisma.js";
import type { PrismaClient } from "../src/generated/prisma/client.js";
import type { DomainContext } from "../src/domain/context.js";
import { authenticate } from "../src/domain/keys/authenticate.js";
import { hashApiKey } from "../src/domain/keys/api-key.js";
import { createMerchant } from "../src/domain/merchants/create.js";
import { createRequest } from "../src/domain/requests/create.js";
import { findRequestDetails } from "../src/domain/requests/aggregate.js";
import { payRequest } from "../src/domain/requests/pay.js";
import { loadEnvFile } from "../src/env-file.js";
import { projectRoot } from "../scripts/start/entrypoints.js";
import { applyMigrations } from "../scripts/start/migrations.js";

loadEnvFile();
const CALLS = Number(process.env.DATA_PATH_CALLS ?? 2_000);
const base = new URL(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/payreq");
base.pathname = `/payreq_data_paths_${randomBytes(4).toString("hex")}`;
const url = base.toString();

interface Cost {
  wallUs: number;
  cpuUs: number;
}

/** Runs `call` CALLS times after as many unmeasured calls (V8 and Prisma's plan cache warm up). */
/** Prisma on the bench's database, as GraphQL's reads use it. */
let db: PrismaClient;

async function measure(call: (i: number) => Promise<unknown>): Promise<Cost> {
  for (let i = 0; i < CALLS; i++) await call(i);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await call(CALLS + i);
  const used = process.cpuUsage(cpu);
  return { wallUs: ((performance.now() - started) * 1000) / CALLS, cpuUs: (used.user + used.system) / CALLS };
}

const logger = createLogger({ level: "warn" }, "bench");
await createDatabase(url, { recreate: true });
try {
  await applyMigrations(projectRoot, { DATABASE_URL: url });
  openDatabase({ url, poolSize: 4 }, logger);
  db = prismaOn(primaryDatabase());
  const operator: DomainContext = { actor: { kind: "operator" }, requestId: randomUUID(), logger, now: () => new Date() };
  const merchant = await createMerchant(operator, { name: "Data paths", currency: "NZD" });
  const ctx: DomainContext = {
    ...operator,
    actor: { kind: "merchant", merchantId: merchant.merchantId, keyPrefix: "bench" },
  };
  const ids: string[] = [];
  for (let i = 0; i < 200; i++)
    ids.push((await createRequest(ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 300 })).id);
  const payer: DomainContext = { ...operator, actor: { kind: "payer", keyPrefix: "bench" } };
  const newRequests = async (count: number) => {
    const made: string[] = [];
    for (let i = 0; i < count; i++)
      made.push((await createRequest(ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 300 })).id);
    return made;
  };
  const hash = hashApiKey(merchant.apiKey);
  const pick = (i: number) => ids[i % ids.length]!;

  const paths: [string, () => Promise<Cost>, () => Promise<Cost>][] = [
    [
      "API key by hash (every call)",
      () => measure(() => authenticate(merchant.apiKey)),
      () => measure(() => db.apiKey.findUnique({ where: { hash } })),
    ],
    [
      "request with options and purchase (requests.info)",
      () => measure((i) => findRequestDetails({ requestId: pick(i), merchantId: merchant.merchantId })),
      () =>
        measure((i) =>
          db.paymentRequest.findFirst({
            where: { id: pick(i), merchantId: merchant.merchantId },
            include: { options: { orderBy: { index: "asc" } }, transactions: { where: { type: "PURCHASE" } } },
          }),
        ),
    ],
    [
      "create a request with its options and activity",
      () => measure(() => createRequest(ctx, { merchantId: merchant.merchantId, asset: "NZD", amount: 300 })),
      () => measure(() => createThroughPrisma(merchant.merchantId)),
    ],
    [
      "pay a request (lock, purchase, status, activity)",
      async () => {
        const fresh = await newRequests(2 * CALLS);
        return measure((i) => payRequest(payer, { requestId: fresh[i]!, ledger: "test.uplink", authorization: "x" }));
      },
      async () => {
        const fresh = await newRequests(2 * CALLS);
        return measure((i) => payThroughPrisma(fresh[i]!));
      },
    ],
  ];
  console.log(`data paths: ${CALLS} sequential calls each, after as many unmeasured; µs per call (wall / this process's CPU)`);
  for (const [name, statement, prisma] of paths) {
    const raw = await statement();
    const orm = await prisma();
    console.log(
      `  ${name.padEnd(52)} statement ${raw.wallUs.toFixed(0).padStart(5)} / ${raw.cpuUs.toFixed(0).padStart(5)}` +
        `   Prisma ${orm.wallUs.toFixed(0).padStart(5)} / ${orm.cpuUs.toFixed(0).padStart(5)}` +
        `   Prisma ÷ statement ${(orm.wallUs / raw.wallUs).toFixed(2)} / ${(orm.cpuUs / raw.cpuUs).toFixed(2)}`,
    );
  }
} finally {
  await closeDatabase().catch(() => {});
  await dropDatabase(url);
}

/** requests.create's writes as Prisma would make them: the request with nested options, and the activity. */
async function createThroughPrisma(merchantId: string) {
  const id = randomUUID();
  const now = new Date();
  await db.$transaction([
    db.paymentRequest.create({
      data: {
        id,
        merchantId,
        asset: "NZD",
        amount: 300n,
        requestCode: randomBytes(6).toString("hex"),
        shortCode: randomBytes(6).toString("hex"),
        paymentExpirySeconds: 120,
        expiresAt: new Date(now.getTime() + 120_000),
        options: {
          create: [
            { index: 0, ledgerId: "test.uplink", amount: 300n, methods: ["QR_CODE"] },
            { index: 1, ledgerId: "sandbox.nzd.wallet", amount: 300n, methods: ["QR_CODE"] },
          ],
        },
      },
      include: { options: { orderBy: { index: "asc" } } },
    }),
    db.activity.create({ data: { action: "request.created", actor: "bench", merchantId, requestId: id, outcome: "NEW" } }),
  ]);
}

/** requests.pay's statements as a Prisma interactive transaction: lock, read, write the purchase, status and activity. */
async function payThroughPrisma(requestId: string) {
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM payment_request WHERE id = ${requestId}::uuid FOR UPDATE`;
    const request = await tx.paymentRequest.findUniqueOrThrow({ where: { id: requestId }, include: { options: true } });
    const option = request.options.find((o) => o.ledgerId === "test.uplink")!;
    const now = new Date();
    const purchase = await tx.transaction.create({
      data: {
        type: "PURCHASE",
        requestId,
        merchantId: request.merchantId,
        ledgerId: option.ledgerId,
        amount: option.amount,
        authCode: "ABCDEF",
        responseCode: "00",
        paymentType: "test",
        settlementDate: now,
      },
    });
    await tx.paymentRequest.update({ where: { id: requestId }, data: { status: "PAID" } });
    await tx.activity.create({
      data: {
        action: "request.paid",
        actor: "bench",
        merchantId: request.merchantId,
        requestId,
        transactionId: purchase.id,
        outcome: "PAID",
      },
    });
  });
}
