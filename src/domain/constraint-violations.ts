import { Prisma } from "../db.js";

/**
 * True for a unique-constraint violation, which several operations turn into a domain answer:
 * Prisma's P2002, or PostgreSQL's 23505 from plain SQL on the pool.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code === "P2002";
  return (error as { code?: unknown } | null)?.code === "23505";
}

/** The name of the constraint a plain-SQL statement violated (PostgreSQL's `constraint` field), if any. */
export function violatedConstraint(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === "string" ? constraint : undefined;
}
