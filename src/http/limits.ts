/** Largest request body the API reads on its REST routes. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Largest GraphQL body: a pay page logo of 64 KB travels as a `data:` URL of 88 KB (base64). */
export const MAX_GRAPHQL_BODY_BYTES = 128 * 1024;

/**
 * The body length a call declares with Content-Length, or null when it streams its body
 * (Transfer-Encoding) or declares none. Node's HTTP parser never hands on more body than the
 * declared length, so a declared length within the bound lets a handler read the body in one go.
 */
export function declaredBodyLength(headers: Headers): number | null {
  const declared = headers.get("content-length");
  if (declared === null || headers.has("transfer-encoding")) return null;
  return Number(declared);
}
