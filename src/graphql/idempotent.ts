import type { z } from "zod";
import type { DomainContext } from "../domain/context.js";
import { runIdempotently } from "../transport/idempotency.js";
import type { GraphQLContext } from "./context.js";

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
 * The resolver of a mutation made with `idempotencyKey`, under the transport's idempotency rule
 * (transport/idempotency.ts). A retry gets the same entity back (as it is now, for the retry's own
 * selection) or the same typed error. Without a key the mutation just runs.
 */
export function idempotentMutation<Input, T extends { id: string }>(mutation: IdempotentMutation<Input, T>) {
  return async (
    _root: unknown,
    { input, idempotencyKey }: { input: Input; idempotencyKey?: string | null },
    ctx: GraphQLContext,
  ): Promise<T> => {
    const domain = await ctx.domain();
    if (idempotencyKey === null || idempotencyKey === undefined) return mutation.run(domain, input);
    const answer = await runIdempotently({
      actor: domain.actor,
      key: idempotencyKey,
      operation: `graphql:${mutation.operation}`,
      schema: mutation.schema,
      input,
      run: (writeIdempotencyRecord) => mutation.run({ ...domain, writeIdempotencyRecord }, input),
      keep: (entity) => ({ id: entity.id }),
      rebuild: async (id) => ({ id }),
    });
    if (!answer.ok) throw answer.refusal;
    return answer.replayed ? mutation.reload(domain, answer.kept.id) : answer.result;
  };
}
