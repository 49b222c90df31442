import { Prisma } from "../db.js";

/** True for a unique-constraint violation (P2002), which several operations turn into a domain answer. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
