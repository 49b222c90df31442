import type { z } from "zod";
import type { DomainContext } from "../domain/context.js";
import {
  DomainError,
  ForbiddenError,
  LedgerRefusedError,
  NotFoundError,
  StateConflictError,
  ValidationError,
} from "../domain/errors.js";
import { fingerprintOf, withIdempotency } from "../transport/idempotency.js";

const replayable = { ValidationError, NotFoundError, ForbiddenError, StateConflictError, LedgerRefusedError } as const;

type Outcome = { id: string } | { error: { type: keyof typeof replayable; code: string; message: string } };

/**
 * A mutation made with `idempotencyKey`: the first outcome is kept, and a retry (with an input that
 * `schema`, the domain operation's, reads the same) gets the same entity back (as it is now) or the
 * same typed error. Without a key the mutation just runs.
 */
export async function idempotent<T extends { id: string }>(
  ctx: DomainContext,
  key: string | null | undefined,
  operation: string,
  schema: z.ZodObject,
  input: unknown,
  run: (ctx: DomainContext) => Promise<T>,
  reload: (id: string) => Promise<T>,
): Promise<T> {
  if (key === null || key === undefined) return run(ctx);
  let result: T | undefined;
  const { outcome, replayed } = await withIdempotency<Outcome>(
    ctx.actor,
    key,
    fingerprintOf(`graphql:${operation}`, schema, input),
    async (claim) => {
      try {
        result = await run({ ...ctx, idempotencyClaim: claim });
        return { id: result.id };
      } catch (error) {
        const type = error instanceof DomainError ? (error.constructor.name as keyof typeof replayable) : undefined;
        if (!type || !(type in replayable)) throw error;
        return { error: { type, code: (error as DomainError).code, message: (error as DomainError).message } };
      }
    },
    async (id) => ({ id }),
  );
  if ("error" in outcome) {
    const ErrorClass = replayable[outcome.error.type] as new (code: string, message: string) => DomainError;
    throw new ErrorClass(outcome.error.code, outcome.error.message);
  }
  return replayed || !result ? reload(outcome.id) : result;
}
