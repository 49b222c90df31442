/**
 * Operator CLI: `npm run admin -- <command> [--json]`. Operators act outside the API, so this
 * runs the domain operations directly with the operator actor.
 */
import { randomUUID } from "node:crypto";
import { readCommandLine, USAGE, UsageError, type Command } from "./command-line.js";
import type { DomainContext } from "../domain/context.js";

let commandLine: ReturnType<typeof readCommandLine>;
try {
  commandLine = readCommandLine(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(error.full ? `${error.message}\n\n${USAGE}` : error.message);
  process.exit(2);
}
if (commandLine.help) {
  console.log(USAGE);
  process.exit(0);
}
const { command, values, words } = commandLine;

// Only a command line that was read loads the database, Redis and the domain.
const [
  { closeDatabase, openDatabase },
  { closeKeyRevocations, openKeyRevocations },
  { redisTopology },
  { createClient },
  { isDomainError },
  { createApiKey },
  { revokeApiKey },
  { createMerchant },
  { allowRedirects },
  { rotateSigningKey },
  { createWallet },
  { cliEnv, parseEnv },
  { stderrLogger },
] = await Promise.all([
  import("../db.js"),
  import("../key-revocations.js"),
  import("../redis-connection.js"),
  import("../domain/clients/create.js"),
  import("../domain/errors.js"),
  import("../domain/keys/create.js"),
  import("../domain/keys/revoke.js"),
  import("../domain/merchants/create.js"),
  import("../domain/merchants/redirects.js"),
  import("../domain/webhooks/key-files.js"),
  import("../domain/wallets/create.js"),
  import("../env.js"),
  import("../logger.js"),
]);
const env = parseEnv(cliEnv);

const ctx: DomainContext = {
  actor: { kind: "operator" },
  requestId: randomUUID(),
  logger: stderrLogger({ level: env.LOG_LEVEL }).child({ component: "admin" }),
  now: () => new Date(),
};

openDatabase({ url: env.DATABASE_URL, poolSize: 2, preparedStatements: env.DATABASE_PREPARED_STATEMENTS }, ctx.logger);
openKeyRevocations(redisTopology(env));

async function run(command: Command): Promise<Record<string, unknown>> {
  const text = (name: string) => values[name] as string | undefined;
  switch (command) {
    case "merchant create":
      return createMerchant(ctx, { name: text("name") ?? "", currency: text("currency") });
    case "merchant redirect-urls":
      return allowRedirects(ctx, { merchantId: text("merchant") ?? "", urls: words });
    case "client create":
      return createClient(ctx, { merchantId: text("merchant") ?? "", name: text("name") });
    case "key create":
      return createApiKey(
        ctx,
        values.payer
          ? { kind: "PAYER", label: text("label") }
          : { kind: "MERCHANT", merchantId: text("merchant")!, label: text("label") },
      );
    case "key revoke":
      return revokeApiKey(ctx, words[0]!);
    case "wallet create":
      return createWallet(ctx, { currency: text("currency") ?? "", balance: text("balance") ?? "" });
    case "signing-key rotate": {
      if (env.WEBHOOK_SIGNING_KEY)
        throw new UsageError("The worker signs with WEBHOOK_SIGNING_KEY; rotate by deploying a new key there.");
      return rotateSigningKey(env.WEBHOOK_SIGNING_KEY_DIR, env.WEBHOOK_KEY_OVERLAP);
    }
  }
}

let exitCode = 0;
try {
  const result = await run(command);
  console.log(
    values.json
      ? JSON.stringify(result)
      : Object.entries(result)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join("\n"),
  );
} catch (error) {
  exitCode = error instanceof UsageError ? 2 : 1;
  if (error instanceof UsageError) console.error(error.message);
  else if (isDomainError(error))
    console.error(
      values.json ? JSON.stringify({ error: error.code, message: error.message }) : `${error.code}: ${error.message}`,
    );
  else throw error;
} finally {
  await Promise.all([closeDatabase(), closeKeyRevocations()]);
}
process.exitCode = exitCode;
