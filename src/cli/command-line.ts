/**
 * The operator CLI's command line (`npm run admin -- <command> [--json]`), read strictly before
 * anything else loads: a command line the CLI does not read makes nothing and touches nothing.
 */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

export const USAGE = `Usage: npm run admin -- <command> [--json]

  merchant create --name NAME [--currency NZD]   a merchant with a sandbox configuration and a merchant key
  merchant redirect-urls --merchant ID [URL ...] the URLs the merchant's requests may send payers back to from
                                                 the pay page (a redirectUrl must start with one); replaces the
                                                 list, none given clears it (legacy allowedRedirectUrls)
  client create --merchant ID [--name NAME]      a client configuration (a copy of the merchant's items)
  key create --merchant ID | --payer [--label L] an API key (shown once)
  key revoke KEY_PREFIX                          revoke a key by its prefix (mk_… or pk_…)
  wallet create --currency NZD --balance N       a sandbox wallet holding N minimum units
  signing-key rotate                             a new current webhook signing key; the old one stays published
                                                 for WEBHOOK_KEY_OVERLAP (run where the worker keeps its keys)
  endpoint create --merchant ID --url URL --types TYPE,TYPE [--description D] [--disabled]
                                                 a webhook endpoint of the merchant, sent every later event of
                                                 those types: payment.completed, refund.completed,
                                                 request.cancelled, request.expired (at most 16 per merchant)
  endpoint list --merchant ID                    the merchant's webhook endpoints, oldest first
  endpoint update ENDPOINT_ID [--url URL] [--types TYPE,TYPE] [--description D] [--enable | --disable]
                                                 change an endpoint (a blank option is not given); disabling
                                                 holds its deliveries until it is enabled and recovered
  endpoint delete ENDPOINT_ID                    delete an endpoint and its delivery log (its events stay)
  endpoint ping ENDPOINT_ID                      send it a signed test event and print the attempt's outcome
                                                 (exit 1 unless delivered; a worker must be running)
  endpoint recover ENDPOINT_ID --since TIME      send again its deliveries since TIME (ISO 8601) that were not
                                                 delivered; one recovery that sends anything per endpoint
                                                 a minute
  console link --merchant ID [--read-only] [--label TEXT]
                                                 a one-time sign-in link to the merchant console (15 minutes)
  console sessions --merchant ID                 the merchant's live console sessions, newest first
  console end SESSION_ID                         end a console session (it is signed out at once)
  stats rebuild --merchant ID                    sum the merchant's takings (merchantStats) again from its
                                                 requests and payments, after rows were imported with past times

[…] may be left out, | separates alternatives. --json prints the answer as one JSON object.

Examples, with MERCHANT, ENDPOINT and KEY_PREFIX set in the shell to a merchant's id, one of its webhook
endpoints' ids and a key's prefix (mk_ or pk_ and 12 characters):

  npm run admin -- merchant create --name "Corner Cafe" --currency NZD --json
  npm run admin -- key create --merchant "$MERCHANT" --label till-1
  npm run admin -- key revoke "$KEY_PREFIX"
  npm run admin -- wallet create --currency NZD --balance 50000
  npm run admin -- endpoint create --merchant "$MERCHANT" --url https://shop.example/hooks --types payment.completed
  npm run admin -- endpoint update "$ENDPOINT" --enable
  npm run admin -- endpoint recover "$ENDPOINT" --since 2026-11-27T00:00:00Z
  npm run admin -- console link --merchant "$MERCHANT" --label "front desk"`;

const string = { type: "string" } as const;
const flag = { type: "boolean", default: false } as const;

/** A command's line: see `commands`. */
interface Spec {
  usage: string;
  options: ParseArgsOptionsConfig;
  positional?: "one" | "any";
  /** Options the command cannot run without. */
  required?: readonly string[];
}

/**
 * What each command reads: its options, and whether it takes words after its name (`positional`,
 * shown in its usage line). Anything else on its command line is refused, before anything is made:
 * read as nothing, a stray word would let `merchant create --name Stray EUR` make an NZD merchant.
 */
const commands = {
  "merchant create": { usage: "--name NAME [--currency NZD]", options: { name: string, currency: string } },
  "merchant redirect-urls": { usage: "--merchant ID [URL ...]", options: { merchant: string }, positional: "any" },
  "client create": { usage: "--merchant ID [--name NAME]", options: { merchant: string, name: string } },
  "key create": { usage: "--merchant ID | --payer [--label L]", options: { merchant: string, payer: flag, label: string } },
  "key revoke": { usage: "KEY_PREFIX", options: {}, positional: "one" },
  "wallet create": { usage: "--currency NZD --balance N", options: { currency: string, balance: string } },
  "signing-key rotate": { usage: "", options: {} },
  "endpoint create": {
    usage: "--merchant ID --url URL --types TYPE,TYPE [--description D] [--disabled]",
    options: { merchant: string, url: string, types: string, description: string, disabled: flag },
    required: ["merchant", "url", "types"],
  },
  "endpoint list": { usage: "--merchant ID", options: { merchant: string }, required: ["merchant"] },
  "endpoint update": {
    usage: "ENDPOINT_ID [--url URL] [--types TYPE,TYPE] [--description D] [--enable | --disable]",
    options: { url: string, types: string, description: string, enable: flag, disable: flag },
    positional: "one",
  },
  "endpoint delete": { usage: "ENDPOINT_ID", options: {}, positional: "one" },
  "endpoint ping": { usage: "ENDPOINT_ID", options: {}, positional: "one" },
  "endpoint recover": { usage: "ENDPOINT_ID --since TIME", options: { since: string }, positional: "one", required: ["since"] },
  "console link": {
    usage: "--merchant ID [--read-only] [--label TEXT]",
    options: { merchant: string, "read-only": flag, label: string },
    required: ["merchant"],
  },
  "console sessions": { usage: "--merchant ID", options: { merchant: string }, required: ["merchant"] },
  "console end": { usage: "SESSION_ID", options: {}, positional: "one" },
  "stats rebuild": { usage: "--merchant ID", options: { merchant: string }, required: ["merchant"] },
} as const satisfies Record<string, Spec>;
export type Command = keyof typeof commands;

/** Options every command takes. */
const common = { json: flag, help: { type: "boolean", short: "h", default: false } } as const;

/** A command line the CLI does not read; `full` when the whole usage helps more than the command's line. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly full = false,
  ) {
    super(message);
  }
}

/**
 * The command line, read strictly: the command's name (two words), then only what that command
 * reads. A problem is a UsageError saying, in one line, what was wrong and the command's usage.
 */
export function readCommandLine(args: string[]) {
  // The command's name is the first two words that are not options or their values (options may come first).
  const every = Object.assign({}, ...Object.values(commands).map((spec) => spec.options), common) as ParseArgsOptionsConfig;
  const name = parseArgs({ args, options: every, strict: false, allowPositionals: true }).positionals.slice(0, 2).join(" ");
  if (!(name in commands)) {
    if (parseArgs({ args, options: every, strict: false }).values.help === true) return { help: true } as const;
    throw new UsageError(name ? `unknown command: ${name}` : "no command given", true);
  }
  const command = name as Command;
  const spec: Spec = commands[command];
  const usage = `Usage: npm run admin -- ${command}${spec.usage && ` ${spec.usage}`} [--json]`;
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { ...spec.options, ...common }, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's own messages, such as "Unknown option '--payer'. To specify a positional argument starting with a '-', …", in one line.
    throw new UsageError(`${command}: ${(error as Error).message.split(". ")[0]!.replace(/\.$/, "")}. ${usage}`);
  }
  if (parsed.values.help) return { help: true } as const;
  const rest = parsed.positionals.slice(2);
  const allowed = spec.positional === "any" ? Infinity : spec.positional === "one" ? 1 : 0;
  if (rest.length > allowed) throw new UsageError(`${command} does not take ${JSON.stringify(rest[allowed])}. ${usage}`);
  if (spec.positional === "one" && rest.length === 0) throw new UsageError(`${command} takes ${spec.usage}. ${usage}`);
  if (command === "key create" && parsed.values.payer === Boolean(parsed.values.merchant))
    throw new UsageError(`key create takes --merchant ID or --payer. ${usage}`);
  const missing = spec.required?.find((option) => parsed.values[option] === undefined);
  if (missing) throw new UsageError(`${command} needs --${missing}. ${usage}`);
  if (command === "endpoint update") checkEndpointUpdate(parsed.values, usage);
  return { command, values: parsed.values, words: rest };
}

/** `endpoint update` changes something, and does not both enable and disable. */
function checkEndpointUpdate(values: Record<string, string | boolean | undefined>, usage: string) {
  if (values["enable"] && values["disable"])
    throw new UsageError(`endpoint update takes --enable or --disable, not both. ${usage}`);
  const changes = Object.keys(commands["endpoint update"].options);
  // Blank text, as everywhere, is not given.
  const given = (value: string | boolean | undefined) => (typeof value === "string" ? value.trim() !== "" : value === true);
  if (!changes.some((option) => given(values[option])))
    throw new UsageError(`endpoint update takes at least one of --url, --types, --description, --enable, --disable. ${usage}`);
}
