import type { Actor, DomainContext } from "./context.js";
import { ForbiddenError, NotFoundError, type NotFoundCode } from "./errors.js";

type MerchantActor = Extract<Actor, { kind: "merchant" }>;

/** The calling merchant; any other key kind may not do this. */
export function requireMerchant(ctx: DomainContext): MerchantActor {
  if (ctx.actor.kind !== "merchant") throw new ForbiddenError("FORBIDDEN", "Only a merchant key may do this.");
  return ctx.actor;
}

/** The calling merchant, which changes something: a read-only console session may not. */
export function requireWriter(ctx: DomainContext): MerchantActor {
  const actor = requireMerchant(ctx);
  if (actor.session?.readOnly) throw new ForbiddenError("FORBIDDEN", "A read-only console session changes nothing.");
  return actor;
}

/** The calling merchant, which must be the one named; another merchant's data is invisible. */
export function requireOwnMerchant(ctx: DomainContext, merchantId: string): MerchantActor {
  const actor = requireMerchant(ctx);
  if (actor.merchantId !== merchantId) throw new NotFoundError("MERCHANT_NOT_FOUND", "No such merchant.");
  return actor;
}

/** Merchant keys see only their own merchant's rows; payer keys see any request. */
export function merchantScope(ctx: DomainContext): { merchantId?: string } {
  return ctx.actor.kind === "merchant" ? { merchantId: ctx.actor.merchantId } : {};
}

/** Rejects payer keys for anything but reading and paying requests. */
export function requireMerchantOrPayer(ctx: DomainContext): void {
  if (ctx.actor.kind === "operator") throw new ForbiddenError("FORBIDDEN", "Operators use the admin CLI.");
}

export function notFound(code: NotFoundCode): NotFoundError {
  const thing = {
    REQUEST_NOT_FOUND: "request",
    TRANSACTION_NOT_FOUND: "transaction",
    MERCHANT_NOT_FOUND: "merchant",
    WEBHOOK_EVENT_NOT_FOUND: "webhook event",
    WEBHOOK_ENDPOINT_NOT_FOUND: "webhook endpoint",
    CONSOLE_SESSION_NOT_FOUND: "console session",
  }[code];
  return new NotFoundError(code, `No such ${thing}.`);
}

/** Operator-only operations (the admin CLI). */
export function requireOperator(ctx: DomainContext): void {
  if (ctx.actor.kind !== "operator") throw new ForbiddenError("FORBIDDEN", "Only an operator may do this.");
}
