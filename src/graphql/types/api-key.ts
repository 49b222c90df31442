import { createApiKey, listMerchantKeys, merchantKey } from "../../domain/keys/create.js";
import { revokeApiKey, rollApiKey } from "../../domain/keys/revoke.js";
import { requireMerchant } from "../../domain/auth.js";
import { builder } from "../builder.js";

interface ApiKeyShape {
  prefix: string;
  label: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A merchant key, never its secret. */
const ApiKey = builder.objectRef<ApiKeyShape>("ApiKey").implement({
  description: "One of the merchant's API keys, named by its prefix; the key itself is shown only when it is made.",
  fields: (t) => ({
    prefix: t.exposeString("prefix", { description: "mk_ and 12 hexadecimal digits: how the key is named and revoked." }),
    label: t.exposeString("label", { nullable: true, description: "What the key is for." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was made." }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true, description: "Its last call, to within a minute." }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "When it stopped working." }),
  }),
});

const ApiKeyCreated = builder.objectRef<{ key: string; apiKey: ApiKeyShape }>("ApiKeyCreated").implement({
  description: "A new key: `key` is shown this once, and stored only as a hash.",
  fields: (t) => ({
    key: t.exposeString("key", { description: "The key, for the X-Api-Key header. Keep it secret; it is never shown again." }),
    apiKey: t.field({ type: ApiKey, description: "The key as listed.", resolve: (created) => created.apiKey }),
  }),
});

const ApiKeyCreateInput = builder.inputType("ApiKeyCreateInput", {
  description: "The new key.",
  fields: (t) => ({ label: t.string({ description: "What the key is for (up to 200 characters)." }) }),
});
const ApiKeyRevokeInput = builder.inputType("ApiKeyRevokeInput", {
  description: "The key to revoke.",
  fields: (t) => ({ prefix: t.string({ required: true, description: "The key's prefix (mk_…), or the whole key." }) }),
});

const ApiKeyRollInput = builder.inputType("ApiKeyRollInput", {
  description: "The key to roll, and how long it keeps working beside its successor.",
  fields: (t) => ({
    prefix: t.string({ required: true, description: "The key's prefix (mk_…), or the whole key." }),
    overlapSeconds: t.int({
      required: true,
      description: "Seconds the old key keeps working, 0 (revoked at once) to 604800 (7 days).",
    }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKey],
    description: "The merchant's API keys, newest first (merchant keys and console sessions).",
    resolve: async (_root, _args, ctx) => listMerchantKeys(await ctx.domain()),
  }),
}));

builder.mutationFields((t) => ({
  apiKeyCreate: t.field({
    type: ApiKeyCreated,
    description:
      "Make a merchant key of this merchant, with no more rights than the caller's (merchant keys and console sessions that may change things).",
    args: { input: t.arg({ type: ApiKeyCreateInput, required: false, description: "The new key." }) },
    errors: {},
    resolve: async (_root, { input }, ctx) => {
      const domain = await ctx.domain();
      const { merchantId } = requireMerchant(domain);
      const created = await createApiKey(domain, { kind: "MERCHANT", merchantId, label: input?.label });
      return { key: created.apiKey, apiKey: await merchantKey(domain, created.prefix) };
    },
  }),
  apiKeyRoll: t.field({
    type: ApiKeyCreated,
    description:
      "Roll one of the merchant's keys: a new key with its label (shown once), and the old one revoked overlapSeconds from now (merchant keys and console sessions that may change things).",
    args: { input: t.arg({ type: ApiKeyRollInput, required: true, description: "The key, and the overlap." }) },
    errors: {},
    resolve: async (_root, { input }, ctx) => {
      const domain = await ctx.domain();
      const rolled = await rollApiKey(domain, input);
      return { key: rolled.key, apiKey: await merchantKey(domain, rolled.prefix) };
    },
  }),
  apiKeyRevoke: t.field({
    type: ApiKey,
    description: "Revoke one of the merchant's keys: every API process refuses it at once.",
    args: { input: t.arg({ type: ApiKeyRevokeInput, required: true, description: "The key to revoke." }) },
    errors: {},
    resolve: async (_root, { input }, ctx) => {
      const domain = await ctx.domain();
      const { prefix } = await revokeApiKey(domain, input.prefix);
      return merchantKey(domain, prefix);
    },
  }),
}));
