import type { Context, Hono, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { DomainContext } from "../../domain/context.js";
import { domainErrorOf, type DomainError } from "../../domain/errors.js";
import { payRequest } from "../../domain/requests/pay.js";
import { findPayPageRequest, findRequestByPageCode, type PayPageRequest } from "../../domain/requests/pay-page.js";
import { payRequestInput } from "../../domain/requests/schemas.js";
import type { Logger } from "../../logger.js";
import { formParams } from "../../transport/form-params.js";
import { httpStatusOf } from "../../transport/http-status.js";
import { runIdempotently } from "../../transport/idempotency.js";
import type { Links } from "../../transport/links.js";
import { carriesToken, sameSite } from "./csrf.js";
import { payerContext, payerView, refusal, UNKNOWN_REQUEST } from "./payer.js";

export interface PaymentParts {
  links: Links;
  logger: Logger;
}

/**
 * How a payment is answered: a post that asks for JSON with the body, a form post by sending it
 * back to the page (303), with `?error=<CODE>` when refused.
 */
function answerOf(c: Context) {
  const wantsJson = (c.req.header("accept") ?? "").includes("application/json");
  const code = c.req.param("code") ?? "";
  return (status: number, body: unknown, error?: string, headers?: Record<string, string>) =>
    wantsJson
      ? c.json(body, status as 200, headers)
      : c.redirect(`/pay/${encodeURIComponent(code)}${error ? `?error=${encodeURIComponent(error)}` : ""}`, 303);
}

/**
 * What POST /pay/:code refuses before anything is read, and before it is charged (routes.ts): a
 * form of more than a few hundred bytes, and a post from another site (`publicOrigin`, PUBLIC_URL's
 * origin, is the service's own).
 */
export function paymentChecks(publicOrigin: string): [formSize: MiddlewareHandler, sameOrigin: MiddlewareHandler] {
  return [
    bodyLimit({ maxSize: 4096, onError: (c) => c.json(refusal("BAD_REQUEST", "The form is too large."), 413) }),
    async (c, next) => {
      if (!sameSite(c, publicOrigin))
        return answerOf(c)(403, refusal("FORBIDDEN", "A payment must come from the pay page itself."), "FORBIDDEN");
      await next();
    },
  ];
}

/**
 * POST /pay/:code: pays with a sandbox wallet (form fields csrf, idempotencyKey, wallet), once
 * paymentChecks let the post through. A post that asks for JSON is answered with the payer's view
 * or the refusal; a form post is sent back to the page (303), with `?error=<CODE>` when refused.
 */
export function mountPayment(app: Hono, { links, logger }: PaymentParts) {
  app.post("/pay/:code", async (c) => {
    const code = c.req.param("code");
    const answer = answerOf(c);
    const refused = (error: DomainError, headers?: Record<string, string>) =>
      answer(httpStatusOf(error.code), refusal(error.code, error.message), error.code, headers);

    const form = await readForm(c);
    if (!form)
      return answer(
        400,
        refusal("BAD_REQUEST", "Send the form as application/x-www-form-urlencoded or multipart/form-data."),
        "BAD_REQUEST",
      );
    if (!carriesToken(c, form)) return answer(403, refusal("FORBIDDEN", "The form has expired: reload the page."), "FORBIDDEN");
    const page = await findPayPageRequest(code);
    if (!page) return answer(404, UNKNOWN_REQUEST, "REQUEST_NOT_FOUND");
    if (!page.walletLedger)
      return answer(
        400,
        refusal("LEDGER_NOT_ENABLED", "This request cannot be paid with a sandbox wallet."),
        "LEDGER_NOT_ENABLED",
      );

    let paid: Awaited<ReturnType<typeof payOnce>>;
    try {
      paid = await payOnce(payerContext(c, logger), page, form);
    } catch (error) {
      // An outage (the database's too) is not kept (a retry of the form runs again), but the form is told it as any refusal.
      const failure = domainErrorOf(error);
      if (failure) return refused(failure);
      throw error;
    }
    const replayed = paid.replayed ? { "Idempotent-Replayed": "true" } : undefined;
    if (!paid.ok) return refused(paid.refusal, replayed);
    // A replay ran nothing: the page shows the request as the earlier call left it, read now.
    const now = paid.replayed ? await findRequestByPageCode(page.request.requestCode) : paid.result;
    return answer(200, payerView(now!, links), undefined, replayed);
  });
}

/** The payment, under the form's idempotency key (transport/idempotency.ts): a double submit pays once. */
function payOnce(ctx: DomainContext, page: PayPageRequest, form: Record<string, string>) {
  const input = { requestId: page.request.id, ledger: page.walletLedger, authorization: form["wallet"] };
  return runIdempotently({
    actor: ctx.actor,
    key: form["idempotencyKey"] ?? "",
    operation: "pay-page",
    schema: payRequestInput,
    input,
    run: (idempotencyClaim) => payRequest({ ...ctx, idempotencyClaim }, input as never),
    // The page shows the request as it is now, whether paid by this call or an earlier one.
    keep: () => ({}),
    rebuild: async () => ({}),
  });
}

/**
 * The payment form's fields, or null for a body that is not a readable form. A URL-encoded body is
 * decoded strictly (transport/form-params.ts): bytes that are not UTF-8 reach the wallet id as an
 * unpaired surrogate, which the payment refuses, never as U+FFFD. A file field is not text.
 */
async function readForm(c: Context): Promise<Record<string, string> | null> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return formParams(await c.req.text());
  if (type !== "multipart/form-data") return null;
  try {
    const fields = await c.req.parseBody();
    return Object.fromEntries(Object.entries(fields).filter((field): field is [string, string] => typeof field[1] === "string"));
  } catch {
    return null;
  }
}
