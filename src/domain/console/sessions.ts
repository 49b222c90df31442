import { createHash, randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { database } from "../../db.js";
import { notFound, requireMerchant } from "../auth.js";
import type { Actor, DomainContext } from "../context.js";
import { ForbiddenError, UnauthenticatedError } from "../errors.js";
import { id, optional, parseInput, text } from "../validation.js";

/**
 * The merchant console's sign-in links and sessions. A link's token and a session's cookie secret
 * are 256 random bits, shown once and stored only as SHA-256 hashes; a link opens one session,
 * once, within LINK_LIFETIME_MS. A session lasts until it is ended, unused for IDLE_MS, or
 * SESSION_MS after it began. Its calls act as a merchant key of its merchant (its actor names it
 * `console:<label or id prefix>` in the activity trail), changing nothing when it is read-only.
 */
export const LINK_LIFETIME_MS = 15 * 60_000;
export const IDLE_MS = 12 * 3_600_000;
export const SESSION_MS = 7 * 24 * 3_600_000;
/** A session's last use is recorded at most this often. */
const SEEN_RESOLUTION_MS = 60_000;

const newSecret = () => randomBytes(32).toString("base64url");
const hashOf = (secret: string) => createHash("sha256").update(secret, "utf8").digest("hex");
/** Longer texts are no token or secret of ours: refused before hashing. */
const MAX_SECRET_LENGTH = 100;

export const consoleLinkInput = z.object({
  merchantId: optional(id),
  readOnly: z.boolean().nullish(),
  label: optional(text(60)),
});
export type ConsoleLinkInput = z.input<typeof consoleLinkInput>;

/**
 * A new sign-in link's token (shown once) and when it expires. An operator names the merchant; a
 * merchant key makes one for its own merchant. A console session cannot: a stolen session must not
 * outlive itself.
 */
export async function createConsoleLink(ctx: DomainContext, input: ConsoleLinkInput) {
  const params = parseInput(consoleLinkInput, { merchantId: "INVALID_MERCHANT_ID" }, input);
  const merchantId = ctx.actor.kind === "operator" ? params.merchantId : linkingMerchant(ctx);
  if (!merchantId) throw notFound("MERCHANT_NOT_FOUND");
  const token = newSecret();
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
  const created = await database
    .insertInto("consoleLink")
    .columns(["id", "merchantId", "tokenHash", "label", "readOnly", "createdBy", "rateLimitPerMinute", "createdAt", "expiresAt"])
    .expression((eb) =>
      eb
        .selectFrom("merchant")
        .select([
          eb.val(randomUUID()).as("id"),
          "merchant.id",
          eb.val(hashOf(token)).as("tokenHash"),
          eb.val(params.label ?? null).as("label"),
          eb.val(params.readOnly ?? false).as("readOnly"),
          eb.val(ctx.actor.kind === "operator" ? "operator" : ctx.actor.keyPrefix).as("createdBy"),
          // A session may spend what the key that linked it may (an operator's link: the default).
          (ctx.actor.kind === "merchant"
            ? eb.selectFrom("apiKey").select("apiKey.rateLimitPerMinute").where("apiKey.prefix", "=", ctx.actor.keyPrefix)
            : eb.val<number | null>(null)
          ).as("rateLimitPerMinute"),
          eb.val(now).as("createdAt"),
          eb.val(expiresAt).as("expiresAt"),
        ])
        .where("merchant.id", "=", merchantId),
    )
    .returning("merchantId")
    .executeTakeFirst();
  if (!created) throw notFound("MERCHANT_NOT_FOUND");
  return { token, expiresAt, merchantId };
}

function linkingMerchant(ctx: DomainContext): string {
  const merchant = requireMerchant(ctx);
  if (merchant.session)
    throw new ForbiddenError("FORBIDDEN", "Sign-in links are made with a merchant key, not from the console.");
  return merchant.merchantId;
}

/** A live session, as the console reads it (GET /console/session) and its calls act. */
export interface ConsoleSession {
  id: string;
  merchantId: string;
  merchantName: string;
  label: string | null;
  readOnly: boolean;
  csrfToken: string;
  /** Its calls a minute: those of the key that linked it (null: the service's default). */
  rateLimitPerMinute: number | null;
  idleExpiresAt: Date;
  expiresAt: Date;
}

/**
 * Opens the link `token` as a new session, once: its secret (the cookie's value, shown once) and
 * the session. A used, expired or unknown link is refused alike (KEY_NOT_AUTHORIZED).
 */
export async function openConsoleSession(token: string, now: Date): Promise<{ secret: string; session: ConsoleSession }> {
  if (!token || token.length > MAX_SECRET_LENGTH) throw linkRefused();
  const secret = newSecret();
  const csrfToken = newSecret();
  const opened = await database
    .with("link", (db) =>
      db
        .updateTable("consoleLink")
        .set({ usedAt: now })
        .where("tokenHash", "=", hashOf(token))
        .where("usedAt", "is", null)
        .where("expiresAt", ">", now)
        .returning(["merchantId", "label", "readOnly", "rateLimitPerMinute"]),
    )
    .insertInto("consoleSession")
    .columns([
      "id",
      "merchantId",
      "secretHash",
      "csrfToken",
      "label",
      "readOnly",
      "rateLimitPerMinute",
      "createdAt",
      "lastSeenAt",
      "expiresAt",
    ])
    .expression((eb) =>
      eb
        .selectFrom("link")
        .select([
          eb.val(randomUUID()).as("id"),
          "link.merchantId",
          eb.val(hashOf(secret)).as("secretHash"),
          eb.val(csrfToken).as("csrfToken"),
          "link.label",
          "link.readOnly",
          "link.rateLimitPerMinute",
          eb.val(now).as("createdAt"),
          eb.val(now).as("lastSeenAt"),
          eb.val(new Date(now.getTime() + SESSION_MS)).as("expiresAt"),
        ]),
    )
    .returning(["id"])
    .executeTakeFirst();
  if (!opened) throw linkRefused();
  return { secret, session: (await sessionBySecret(secret, now))! };
}

/**
 * Whom an unused, live link signs in as, without opening it: what the sign-in page asks the reader
 * to confirm, so a link someone else sent does not sign them in to that someone's merchant unasked.
 */
export async function previewConsoleLink(token: string, now: Date) {
  if (!token || token.length > MAX_SECRET_LENGTH) throw linkRefused();
  const link = await database
    .selectFrom("consoleLink as l")
    .innerJoin("merchant as m", "m.id", "l.merchantId")
    .select(["m.name as merchantName", "l.label", "l.readOnly", "l.expiresAt"])
    .where("l.tokenHash", "=", hashOf(token))
    .where("l.usedAt", "is", null)
    .where("l.expiresAt", ">", now)
    .executeTakeFirst();
  if (!link) throw linkRefused();
  return link;
}

const linkRefused = () => new UnauthenticatedError("This sign-in link has been used or has expired: ask for a new one.");

/** The live session whose cookie secret is `secret`, its last use recorded; null when there is none. */
export async function sessionBySecret(secret: string | undefined, now: Date): Promise<ConsoleSession | null> {
  if (!secret || secret.length > MAX_SECRET_LENGTH) return null;
  const row = await database
    .selectFrom("consoleSession as s")
    .innerJoin("merchant as m", "m.id", "s.merchantId")
    .select([
      "s.id",
      "s.merchantId",
      "m.name as merchantName",
      "s.label",
      "s.readOnly",
      "s.csrfToken",
      "s.rateLimitPerMinute",
      "s.lastSeenAt",
      "s.expiresAt",
    ])
    .where("s.secretHash", "=", hashOf(secret))
    .where("s.endedAt", "is", null)
    .where("s.expiresAt", ">", now)
    .where("s.lastSeenAt", ">", new Date(now.getTime() - IDLE_MS))
    .executeTakeFirst();
  if (!row) return null;
  let { lastSeenAt } = row;
  if (now.getTime() - lastSeenAt.getTime() >= SEEN_RESOLUTION_MS) {
    lastSeenAt = now;
    await database.updateTable("consoleSession").set({ lastSeenAt: now }).where("id", "=", row.id).execute();
  }
  const { lastSeenAt: _seen, ...session } = row;
  return { ...session, idleExpiresAt: new Date(Math.min(lastSeenAt.getTime() + IDLE_MS, row.expiresAt.getTime())) };
}

/** The actor a session's calls act as: a merchant key of its merchant, named for the session. */
export function sessionActor(session: ConsoleSession): Extract<Actor, { kind: "merchant" }> {
  return {
    kind: "merchant",
    merchantId: session.merchantId,
    keyPrefix: `console:${session.label ?? session.id.slice(0, 8)}`,
    session: { id: session.id, readOnly: session.readOnly, rateLimitPerMinute: session.rateLimitPerMinute },
  };
}

/** The merchant's live sessions, newest first: an operator names the merchant, a merchant sees its own. */
export async function listConsoleSessions(ctx: DomainContext, merchantId?: string) {
  const merchant =
    ctx.actor.kind === "operator"
      ? parseInput(z.object({ merchantId: id }), { merchantId: "INVALID_MERCHANT_ID" }, { merchantId }).merchantId
      : requireMerchant(ctx).merchantId;
  const now = ctx.now();
  const sessions = await database
    .selectFrom("consoleSession")
    .select(["id", "label", "readOnly", "createdAt", "lastSeenAt", "expiresAt"])
    .where("merchantId", "=", merchant)
    .where("endedAt", "is", null)
    .where("expiresAt", ">", now)
    .where("lastSeenAt", ">", new Date(now.getTime() - IDLE_MS))
    .orderBy("createdAt", "desc")
    .execute();
  return sessions;
}

/** Ends a session by its id: an operator's any, a merchant's (or its console's) its own. Answers it as it was listed. */
export async function endConsoleSession(ctx: DomainContext, sessionId: string) {
  const params = parseInput(z.object({ sessionId: id }), {}, { sessionId });
  const scope = ctx.actor.kind === "operator" ? null : requireMerchant(ctx).merchantId;
  const ended = await database
    .updateTable("consoleSession")
    .set({ endedAt: ctx.now() })
    .where("id", "=", params.sessionId)
    .where("endedAt", "is", null)
    .$if(scope !== null, (qb) => qb.where("merchantId", "=", scope!))
    .returning(["id", "label", "readOnly", "createdAt", "lastSeenAt", "expiresAt"])
    .executeTakeFirst();
  if (!ended) throw notFound("CONSOLE_SESSION_NOT_FOUND");
  return ended;
}

/** Signs out: ends the session whose cookie secret is `secret`, if it is live. */
export async function endSessionBySecret(secret: string | undefined, now: Date): Promise<void> {
  if (!secret || secret.length > MAX_SECRET_LENGTH) return;
  await database
    .updateTable("consoleSession")
    .set({ endedAt: now })
    .where("secretHash", "=", hashOf(secret))
    .where("endedAt", "is", null)
    .execute();
}
