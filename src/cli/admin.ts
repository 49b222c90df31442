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

// Only a command line that was read loads the database and the domain; each command loads only the
// modules it runs (Redis's client only for `key revoke`): an operator's command, and a script that
// runs many, start in a fraction of the time.
const [
  { closeDatabase, openDatabase },
  { domainErrorOf, RateLimitedError },
  { cliEnv, parseEnv, publicUrlOf },
  { stderrLogger },
] = await Promise.all([import("../db.js"), import("../domain/errors.js"), import("../env.js"), import("../logger.js")]);
const env = parseEnv(cliEnv);

const ctx: DomainContext = {
  actor: { kind: "operator" },
  requestId: randomUUID(),
  logger: stderrLogger({ level: env.LOG_LEVEL }).child({ component: "admin" }),
  now: () => new Date(),
};

openDatabase(
  { url: env.DATABASE_URL, poolSize: 2, preparedStatements: env.DATABASE_PREPARED_STATEMENTS, applicationName: "payreq-admin" },
  ctx.logger,
);
/** What a command opened beside the database, closed when it ends. */
const opened: (() => Promise<void>)[] = [closeDatabase];

async function run(command: Command): Promise<Record<string, unknown>> {
  const text = (name: string) => values[name] as string | undefined;
  switch (command) {
    case "merchant create": {
      const { createMerchant } = await import("../domain/merchants/create.js");
      return createMerchant(ctx, { name: text("name") ?? "", currency: text("currency") });
    }
    case "merchant redirect-urls": {
      const { allowRedirects } = await import("../domain/merchants/redirects.js");
      return allowRedirects(ctx, { merchantId: text("merchant") ?? "", urls: words });
    }
    case "client create": {
      const { createClient } = await import("../domain/clients/create.js");
      return createClient(ctx, { merchantId: text("merchant") ?? "", name: text("name") });
    }
    case "key create": {
      const { createApiKey } = await import("../domain/keys/create.js");
      return createApiKey(
        ctx,
        values.payer
          ? { kind: "PAYER", label: text("label") }
          : { kind: "MERCHANT", merchantId: text("merchant")!, label: text("label") },
      );
    }
    case "key revoke": {
      // The revocation reaches running API processes through their Redis.
      const [{ closeKeyRevocations, openKeyRevocations }, { redisTopology }, { revokeApiKey }] = await Promise.all([
        import("../key-revocations.js"),
        import("../redis-connection.js"),
        import("../domain/keys/revoke.js"),
      ]);
      openKeyRevocations(redisTopology(env));
      opened.push(closeKeyRevocations);
      return revokeApiKey(ctx, words[0]!);
    }
    case "wallet create": {
      const { createWallet } = await import("../domain/wallets/create.js");
      return createWallet(ctx, { currency: text("currency") ?? "", balance: text("balance") ?? "" });
    }
    case "signing-key rotate": {
      if (env.WEBHOOK_SIGNING_KEY)
        throw new UsageError("The worker signs with WEBHOOK_SIGNING_KEY; rotate by deploying a new key there.");
      const { rotateSigningKey } = await import("../domain/webhooks/key-files.js");
      return rotateSigningKey(env.WEBHOOK_SIGNING_KEY_DIR, env.WEBHOOK_KEY_OVERLAP);
    }
    case "console link":
    case "console sessions":
    case "console end": {
      const { runConsoleCommand } = await import("./console-commands.js");
      return runConsoleCommand(
        ctx,
        command,
        { text, flag: (name) => values[name] === true, sessionId: words[0] ?? "" },
        publicUrlOf(env),
      );
    }
    case "stats rebuild": {
      const { rebuildTakings } = await import("../domain/stats/takings-rollup.js");
      return rebuildTakings(ctx, { merchantId: text("merchant") ?? "" });
    }
    case "endpoint create":
    case "endpoint list":
    case "endpoint update":
    case "endpoint delete":
    case "endpoint ping":
    case "endpoint recover": {
      const [{ runEndpointCommand }, { webhookCallSettings }] = await Promise.all([
        import("./endpoint-commands.js"),
        import("../domain/webhooks/call-settings.js"),
      ]);
      const args = { text, flag: (name: string) => values[name] === true, endpointId: words[0] ?? "" };
      return runEndpointCommand(ctx, command, args, webhookCallSettings(env));
    }
  }
}

const lines = (result: Record<string, unknown>) =>
  Object.entries(result)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join("\n");

/** `key: value` lines; a list's records (`endpoint list`) one block each, a blank line apart. */
function asText(result: Record<string, unknown>): string {
  const [[name, list] = []] = Object.entries(result);
  if (Object.keys(result).length !== 1 || !Array.isArray(list)) return lines(result);
  return list.length === 0 ? `no ${name}` : (list as Record<string, unknown>[]).map(lines).join("\n\n");
}

/**
 * What the driver said of a failure domainErrorOf answers (the database does not exist, refuses the
 * role, is not there), on one line: the operator who set DATABASE_URL is told why, which an API
 * caller is not.
 */
const driverSaid = (error: unknown) => {
  const { message, code } = error as { message?: unknown; code?: unknown };
  return (typeof message === "string" && message.trim() ? message : String(code)).replace(/\s+/g, " ").trim();
};

let exitCode = 0;
try {
  const result = await run(command);
  console.log(values.json ? JSON.stringify(result) : asText(result));
  // A test event the endpoint did not accept (or that no worker sent in time) is a failure.
  if (command === "endpoint ping" && result["delivered"] !== true) exitCode = 1;
} catch (error) {
  exitCode = error instanceof UsageError ? 2 : 1;
  const failure = error instanceof UsageError ? undefined : domainErrorOf(error);
  if (error instanceof UsageError) console.error(error.message);
  else if (failure) {
    // In JSON, a refusal to come back later (a recovery within the minute of the last one) gives when, in seconds.
    const retryAfterSeconds = failure instanceof RateLimitedError ? failure.retryAfterSeconds : undefined;
    const message = failure === error ? failure.message : `${failure.message} (${driverSaid(error)})`;
    console.error(
      values.json ? JSON.stringify({ error: failure.code, message, retryAfterSeconds }) : `${failure.code}: ${message}`,
    );
  } else throw error;
} finally {
  await Promise.all(opened.map((close) => close()));
}
process.exitCode = exitCode;
