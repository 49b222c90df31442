import type { z } from "zod";
import type { DomainContext } from "../domain/context.js";
import type { ErrorCode } from "../domain/errors.js";
import { fingerprintOf, withIdempotency } from "../transport/idempotency.js";
import type { GraphQLContext } from "./context.js";
import { errorOfCode, isReplayable } from "./errors.js";

/** What a retry is given back: the entity's id, or the typed error's code and message. */
type Outcome = { id: string } | { error: { code: ErrorCode; message: string } };

/** A mutation that takes `input` and `idempotencyKey` and returns an entity with an id. */
export interface IdempotentMutation<Input, T extends { id: string }> {
  /** The mutation's name: the same key on another mutation is another call. */
  operation: string;
  /** The domain operation's input schema: inputs it reads the same are the same call. */
  schema: z.ZodObject;
  run: (ctx: DomainContext, input: Input) => Promise<T>;
  /** The entity as it is now, for a retry: read with the caller's own context. */
  reload: (ctx: DomainContext, id: string) => Promise<T>;
}

/**
 * The resolver of a mutation made with `idempotencyKey`: the first outcome is kept, and a retry
 * (with an input the domain operation reads the same) gets the same entity back (as it is now) or
 * the same typed error. Without a key the mutation just runs.
 */
export function idempotentMutation<Input, T extends { id: string }>(mutation: IdempotentMutation<Input, T>) {
  return async (
    _root: unknown,
    { input, idempotencyKey }: { input: Input; idempotencyKey?: string | null },
    ctx: GraphQLContext,
  ): Promise<T> => {
    const domain = await ctx.domain();
    if (idempotencyKey === null || idempotencyKey === undefined) return mutation.run(domain, input);
    let result: T | undefined;
    const { outcome, replayed } = await withIdempotency<Outcome>(
      domain.actor,
      idempotencyKey,
      fingerprintOf(`graphql:${mutation.operation}`, mutation.schema, input),
      async (alongWrite) => {
        try {
          result = await mutation.run({ ...domain, alongWrite }, input);
          return { id: result.id };
        } catch (error) {
          // Typed errors are outcomes; anything else (an outage) releases the key for a retry.
          if (!isReplayable(error)) throw error;
          return { error: { code: error.code, message: error.message } };
        }
      },
      async (id) => ({ id }),
    );
    if ("error" in outcome) throw errorOfCode(outcome.error.code, outcome.error.message);
    return replayed || !result ? mutation.reload(domain, outcome.id) : result;
  };
}
