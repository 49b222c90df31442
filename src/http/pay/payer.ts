/** What the pay page's routes share: the caller's meter and words, the payer's context and view, refusals. */
import type { Context } from "hono";
import type { DomainContext } from "../../domain/context.js";
import type { RequestDetails } from "../../domain/requests/aggregate.js";
import { PAY_PAGE } from "../../domain/requests/pay-page.js";
import type { Logger } from "../../logger.js";
import { clientBucketOf } from "../../transport/client-address.js";
import type { Links } from "../../transport/links.js";
import { clientAddressOf, requestIdOf } from "../../transport/request-context.js";
import { presentRequest } from "../rest/present.js";
import type { AssetHrefs } from "./assets.js";
import { chooseLanguage, messages, type Messages } from "./messages.js";
import type { PageContext } from "./page.js";

/** Every page, status read, stream and payment is charged to the caller's client address. */
export const pageMeter = (c: Context) => ({ bucket: `page:${clientBucketOf(clientAddressOf(c.req.raw))}`, perMinute: null });

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
