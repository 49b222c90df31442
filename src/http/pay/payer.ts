/** What the pay page's routes share: the charge to the caller's address, its words, the payer's context and view, refusals. */
import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { DomainContext } from "../../domain/context.js";
import type { RequestDetails } from "../../domain/requests/aggregate.js";
import { PAY_PAGE } from "../../domain/requests/pay-page.js";
import type { Logger } from "../../logger.js";
import { clientBucketOf } from "../../transport/client-address.js";
import type { Links } from "../../transport/links.js";
import type { RateLimiter } from "../../transport/rate-limit.js";
import { clientAddressOf, requestIdOf } from "../../transport/request-context.js";
import { presentRequest } from "../rest/present.js";
import type { AssetHrefs } from "./assets.js";
import { chooseLanguage, messages, type Messages } from "./messages.js";
import type { PageContext } from "./page.js";

/**
 * The pay page's one charge: a call to its caller's client address (RATE_LIMIT_PER_MINUTE of them a
 * minute), refused with RATE_LIMIT_EXCEEDED (429, Retry-After) past the limit. routes.ts says which
 * routes it is on.
 */
export const chargedToAddress = (limiter: RateLimiter): MiddlewareHandler =>
  createMiddleware(async (c, next) => {
    await limiter.charge({ bucket: `page:${clientBucketOf(clientAddressOf(c.req.raw))}`, perMinute: null }, 1);
    await next();
  });

/** The reader's language and the files a page is made with. */
export const pageContextOf = (c: Context, assets: AssetHrefs): PageContext => {
  const language = chooseLanguage(c.req.header("accept-language"));
  return { language, words: messages[language], assets };
};

export const payerContext = (c: Context, logger: Logger): DomainContext => ({
  actor: PAY_PAGE,
  requestId: requestIdOf(c.req.raw),
  logger: logger.child({ component: "pay-page", requestId: requestIdOf(c.req.raw) }),
  now: () => new Date(),
});

const AS_A_PAYER = { now: () => new Date(), actor: PAY_PAGE };

/** The payer's view of a request: the legacy shape as a payer key reads it. */
export const payerView = (request: RequestDetails, links: Links) => presentRequest(request, AS_A_PAYER, links);

export const refusal = (code: string, message: string) => ({ error: { code, message } });
export const UNKNOWN_REQUEST = refusal("REQUEST_NOT_FOUND", "No such request.");

/** The sentence a page shows for a refusal's code. */
export function refusalText(words: Messages, code: string): string {
  const key = `error${code}` as keyof Messages;
  return key in words ? words[key] : words.errorOTHER;
}
