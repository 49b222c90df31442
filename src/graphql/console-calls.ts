import { Kind, OperationTypeNode, parse } from "graphql";
import type { Plugin } from "graphql-yoga";
import { ForbiddenError, isDomainError, UnauthenticatedError } from "../domain/errors.js";
import { consoleSecretOf } from "../transport/console-session.js";
import type { RequestContexts } from "../transport/request-context.js";
import { callRefusal } from "./call-refusal.js";

/** A persisted document: its text, and whether it changes anything. */
interface PersistedDocument {
  text: string;
  mutation: boolean;
}

/** The console's documents (codegen's persisted-documents.json: `sha256:<hash>` → text), by hash and by operation name. */
export function persistedDocuments(byKey: Record<string, string>) {
  const byHash = new Map<string, PersistedDocument>();
  const hashes: Record<string, string> = {};
  for (const [key, text] of Object.entries(byKey)) {
    const hash = key.replace(/^sha256:/, "");
    for (const definition of parse(text).definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      byHash.set(hash, { text, mutation: definition.operation === OperationTypeNode.MUTATION });
      if (definition.name) hashes[definition.name.value] = hash;
    }
  }
  return { byHash: byHash as ReadonlyMap<string, PersistedDocument>, hashes };
}

const forbidden = (message: string) => callRefusal(new ForbiddenError("FORBIDDEN", message));

/**
 * The rules of a call authenticated by a console session's cookie (one without X-Api-Key that
 * carries it; transport/console-session.ts checks its X-Console-Csrf): its Origin is PUBLIC_URL's,
 * and it runs only one of the console's persisted documents, named by its SHA-256 hash
 * (`extensions.persistedQuery.sha256Hash`, or `documentId`), so a stolen session cannot run any
 * other query. A read-only session's mutations are refused before they run. Each refusal is 403
 * FORBIDDEN; an ended or expired session is 401 KEY_NOT_AUTHORIZED. (A GET or a form never gets this far without a key: useKeyOnSimpleRequests.)
 */
export function useConsoleCalls(
  documents: ReadonlyMap<string, PersistedDocument>,
  { cookie, origin, contexts }: { cookie: string; origin: string; contexts: RequestContexts },
): Plugin {
  return {
    async onParams({ params, request, setParams }) {
      if (consoleSecretOf(request, cookie) === undefined) return;
      // Only a JSON POST authenticates by the cookie (a browser sends no other cross-site with a preflight).
      if (request.method !== "POST" || !/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
        throw callRefusal(new UnauthenticatedError());
      if (request.headers.get("origin") !== origin) throw forbidden("A console call must come from the console's own origin.");
      const extensions = params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined;
      const hash = extensions?.persistedQuery?.sha256Hash ?? (params as { documentId?: unknown }).documentId;
      const document = typeof hash === "string" ? documents.get(hash.replace(/^sha256:/, "")) : undefined;
      if (!document || (params.query !== undefined && params.query !== document.text))
        throw forbidden("A console session may run only the console's own documents, by their hash.");
      // The session, and its CSRF token, for the whole call: a refusal is the call's answer.
      const { actor } = await contexts(request)
        .key()
        .catch((err: unknown) => {
          throw isDomainError(err) ? callRefusal(err) : err;
        });
      if (document.mutation && actor.kind === "merchant" && actor.session?.readOnly)
        throw forbidden("A read-only console session changes nothing.");
      setParams({ ...params, query: document.text });
    },
  };
}
