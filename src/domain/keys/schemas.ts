import { z } from "zod";
import { id, optional, text } from "../validation.js";

export const createApiKeyInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("MERCHANT"), merchantId: id, label: optional(text(200)) }),
  z.object({ kind: z.literal("PAYER"), label: optional(text(200)) }),
]);
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

export const revokeApiKeyInput = z.object({
  prefix: z
    .string()
    .trim()
    .regex(/^(mk|pk)_[0-9a-f]{12}/, "must be a key prefix such as mk_0123456789ab"),
});
