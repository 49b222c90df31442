import type { Plugin } from "graphql-yoga";
import { UnauthenticatedError } from "../domain/errors.js";
import { callRefusal } from "./call-refusal.js";

/** Content types a browser sends cross-site without asking the server first (no CORS preflight). */
const SIMPLE_CONTENT_TYPE = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

/**
 * Refuses a key-less call that a browser could have sent from another site without a preflight (a
 * GET, or a POST of a form or plain text) as KEY_NOT_AUTHORIZED (401), before its document is read.
 * Keys travel only in the X-Api-Key header, which no browser adds to such a call, so this is the
 * CSRF protection too: whatever could run on such a call carries a key the page had to ask for.
 */
export function useKeyOnSimpleRequests(): Plugin {
  return {
    onRequestParse({ request }) {
      // A blank key is none (the console's cookie calls are told apart the same way: consoleSecretOf).
      if (request.headers.get("x-api-key")?.trim()) return;
      const type = request.headers.get("content-type");
      if (type && !SIMPLE_CONTENT_TYPE.test(type)) return;
      throw callRefusal(new UnauthenticatedError());
    },
  };
}
