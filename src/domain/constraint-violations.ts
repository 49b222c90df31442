/**
 * True for a unique-constraint violation (PostgreSQL's 23505), which several operations turn into a
 * domain answer.
 */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}

/** The name of the constraint a statement violated (PostgreSQL's `constraint` field), if any. */
export function violatedConstraint(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === "string" ? constraint : undefined;
}
