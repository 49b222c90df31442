/** What the bench counts as a correct answer; anything else stops it (bench/load.ts). */

/**
 * Whether an answer to a call at `path` counts: a 2xx status and, for GraphQL, `data` with every field an object:
 * no `errors`, no null, no error result of a union (`... on Error { code }`), and no `{}` (a union
 * member the selection did not ask for).
 */
export function isCorrect(status: number, body: string, path: string): boolean {
  if (status < 200 || status > 299) return false;
  if (path !== "/graphql") return true;
  try {
    const { data, errors } = JSON.parse(body) as { data?: Record<string, unknown> | null; errors?: unknown };
    return (
      errors === undefined &&
      !!data &&
      Object.values(data).every(
        (field) => typeof field === "object" && field !== null && Object.keys(field).length > 0 && !("code" in field),
      )
    );
  } catch {
    return false;
  }
}
