/**
 * The console's one way to the service: GET /console/session for the session, and /graphql with
 * the session's cookie, its CSRF token and one of the console's persisted documents, named by its
 * hash (codegen.ts compiles operations/*.graphql into gql/, each document carrying only its hash).
 */
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { signal } from "@preact/signals";

export interface Session {
  merchantId: string;
  merchantName: string;
  label: string | null;
  readOnly: boolean;
  csrfToken: string;
  idleExpiresAt: string;
  expiresAt: string;
}

/** A refusal, in the API's words: its stable code, and its message, which the console shows as it is. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** Whether a call found the session ended or expired: the console then shows its sign-in page. */
export const sessionEnded = signal(false);

/** The session, or null when there is none (401). */
export async function currentSession(): Promise<Session | null> {
  const answer = await fetch("/console/session");
  if (answer.status === 401) return null;
  if (!answer.ok) throw new ApiError(`The console could not start (${answer.status}).`, undefined);
  return (await answer.json()) as Session;
}

/** A generated document carries only its hash (codegen.ts). */
const hashOf = (document: object) => (document as { __meta__: { hash: string } }).__meta__.hash.replace(/^sha256:/, "");

const callOf = (session: Session, document: object, variables: object, accept: string): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", accept, "x-console-csrf": session.csrfToken },
  body: JSON.stringify({ variables, extensions: { persistedQuery: { version: 1, sha256Hash: hashOf(document) } } }),
});

interface GraphQLAnswer<R> {
  data?: R | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

function dataOf<R>(status: number, body: GraphQLAnswer<R> | null): R {
  if (status === 401) sessionEnded.value = true;
  const error = body?.errors?.[0];
  if (error || !body?.data) throw new ApiError(error?.message ?? `The service answered ${status}.`, error?.extensions?.code);
  return body.data;
}

/** Runs a query or a mutation as the session. */
export async function run<R, V extends object>(session: Session, document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
  const answer = await fetch("/graphql", callOf(session, document, variables, "application/json"));
  return dataOf(answer.status, (await answer.json().catch(() => null)) as GraphQLAnswer<R> | null);
}

/** A mutation's answer: its success type, or its `Error` type thrown as an ApiError. */
export function succeeded<T extends { __typename?: string }>(result: T): Exclude<T, { code: string; message: string }> {
  if ("code" in result && "message" in result) throw new ApiError(String(result.message), String(result.code));
  return result as Exclude<T, { code: string; message: string }>;
}

/**
 * Follows a subscription over server-sent events (a POST, as every cookie-authenticated call is),
 * calling `onOpen` once the stream is open and `onNext` with each result, until the returned
 * function stops it.
 */
export function subscribe<R, V extends object>(
  session: Session,
  document: TypedDocumentNode<R, V>,
  variables: V,
  { onOpen, onNext }: { onOpen?: () => void; onNext: (data: R) => void },
): () => void {
  const stop = new AbortController();
  void (async () => {
    const answer = await fetch("/graphql", {
      ...callOf(session, document, variables, "text/event-stream"),
      signal: stop.signal,
    });
    if (!answer.ok || !answer.body) return;
    onOpen?.();
    const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let end: number;
      while ((end = buffered.indexOf("\n\n")) >= 0) {
        const message = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (/^event: next$/m.test(message) && data) {
          const body = JSON.parse(data) as GraphQLAnswer<R>;
          if (body.data) onNext(body.data);
        }
      }
    }
  })().catch(() => {
    // A stopped stream, or a lost connection: the screen reads the state again when it is next shown.
  });
  return () => stop.abort();
}
