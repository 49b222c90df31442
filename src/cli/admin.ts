/**
 * Operator CLI: `npm run admin -- <command> [--json]`. Operators act outside the API, so this
 * runs the domain operations directly with the operator actor.
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { closeDatabase, openDatabase } from "../db.js";
import { closeKeyRevocations, openKeyRevocations } from "../key-revocations.js";
import { createClient } from "../domain/clients/create.js";
import type { DomainContext } from "../domain/context.js";
import { DomainError } from "../domain/errors.js";
import { createApiKey } from "../domain/keys/create.js";
import { revokeApiKey } from "../domain/keys/revoke.js";
import { createMerchant } from "../domain/merchants/create.js";
import { allowRedirects } from "../domain/merchants/redirects.js";
import { rotateSigningKey } from "../domain/webhooks/key-files.js";
import { createWallet } from "../domain/wallets/create.js";
import { cliEnv, parseEnv } from "../env.js";
import { stderrLogger } from "../logger.js";

const USAGE = `Usage: npm run admin -- <command> [--json]

  merchant create --name NAME [--currency NZD]   a merchant with a sandbox configuration and a merchant key
  merchant redirect-urls --merchant ID [URL ...] the URLs the merchant's requests may send payers back to from
                                                 the pay page (a redirectUrl must start with one); replaces the
                                                 list, none given clears it (legacy allowedRedirectUrls)
  client create --merchant ID [--name NAME]      a client configuration (a copy of the merchant's items)
  key create --merchant ID | --payer [--label L] an API key (shown once)
  key revoke KEY_PREFIX                          revoke a key by its prefix (mk_… or pk_…)
  wallet create --currency NZD --balance N       a sandbox wallet holding N minimum units
  signing-key rotate                             a new current webhook signing key; the old one stays published
                                                 for WEBHOOK_KEY_OVERLAP (run where the worker keeps its keys)`;

const options = {
  json: { type: "boolean", default: false },
  name: { type: "string" },
  currency: { type: "string" },
  merchant: { type: "string" },
  payer: { type: "boolean", default: false },
  label: { type: "string" },
  balance: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

function parseCommandLine() {
  try {
    return parseArgs({ allowPositionals: true, options });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

const { values, positionals } = parseCommandLine();
const env = parseEnv(cliEnv);

const ctx: DomainContext = {
  actor: { kind: "operator" },
  requestId: randomUUID(),
  logger: stderrLogger({ level: env.LOG_LEVEL }).child({ component: "admin" }),
  now: () => new Date(),
};

openDatabase({ url: env.DATABASE_URL, poolSize: 2 }, ctx.logger);
openKeyRevocations(env.REDIS_URL);

async function run(command: string): Promise<Record<string, unknown>> {
  switch (command) {
    case "merchant create":
      return createMerchant(ctx, { name: values.name ?? "", currency: values.currency });
    case "merchant redirect-urls":
      return allowRedirects(ctx, { merchantId: values.merchant ?? "", urls: positionals.slice(2) });
    case "client create":
      return createClient(ctx, { merchantId: values.merchant ?? "", name: values.name });
    case "key create":
      if (values.payer === Boolean(values.merchant)) throw new UsageError("key create takes --merchant ID or --payer");
      return createApiKey(
        ctx,
        values.payer
          ? { kind: "PAYER", label: values.label }
          : { kind: "MERCHANT", merchantId: values.merchant!, label: values.label },
      );
    case "key revoke":
      if (!positionals[2]) throw new UsageError("key revoke takes KEY_PREFIX");
      return revokeApiKey(ctx, positionals[2]);
    case "wallet create":
      return createWallet(ctx, { currency: values.currency ?? "", balance: values.balance ?? "" });
    case "signing-key rotate": {
      if (env.WEBHOOK_SIGNING_KEY)
        throw new UsageError("The worker signs with WEBHOOK_SIGNING_KEY; rotate by deploying a new key there.");
      return rotateSigningKey(env.WEBHOOK_SIGNING_KEY_DIR, env.WEBHOOK_KEY_OVERLAP);
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : "no command given");
  }
}

class UsageError extends Error {}

const command = positionals.slice(0, 2).join(" ");
let exitCode = 0;
try {
  if (values.help) {
    console.log(USAGE);
  } else {
    const result = await run(command);
    console.log(
      values.json
        ? JSON.stringify(result)
        : Object.entries(result)
            .map(([k, v]) => `${k}: ${v}`)
            .join("\n"),
    );
  }
} catch (error) {
  exitCode = error instanceof UsageError ? 2 : 1;
  if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
  else if (error instanceof DomainError)
    console.error(
      values.json ? JSON.stringify({ error: error.code, message: error.message }) : `${error.code}: ${error.message}`,
    );
  else throw error;
} finally {
  await Promise.all([closeDatabase(), closeKeyRevocations()]);
}
process.exitCode = exitCode;
