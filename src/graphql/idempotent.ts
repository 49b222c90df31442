import type { z } from "zod";
import type { DomainContext } from "../domain/context.js";
import { runIdempotently } from "../transport/idempotency.js";
import type { GraphQLContext } from "./context.js";

/** A mutation that takes `input` and `idempotencyKey`, and what a retry under the key answers. */
export interface IdempotentCall<Input, T, Kept> {
  /** The mutation's name: the same key on another mutation is another call. */
  operation: string;
  /** The domain operation's input schema: inputs it reads the same are the same call. */
  schema: z.ZodObject;
  run: (ctx: DomainContext, input: Input) => Promise<T>;
  /** What is kept of the answer for a retry. */
  keep: (result: T) => Kept;
  /** The kept answer made again from the write's entity, when the process stopped before keeping it. */
  rebuild: (ctx: DomainContext, entityId: string) => Promise<Kept>;
  /** A retry's answer, from what was kept: read with the caller's own context. */
  replay: (ctx: DomainContext, kept: Kept) => Promise<T>;
}

/**
 * Runs a mutation made with `idempotencyKey` under the transport's idempotency rule
 * (transport/idempotency.ts): a retry gets `replay`'s answer, or the same typed error. Without a key
 * the mutation just runs.
 */
export async function runIdempotentCall<Input, T, Kept>(
  call: IdempotentCall<Input, T, Kept>,
  input: Input,
  idempotencyKey: string | null | undefined,
  ctx: GraphQLContext,
): Promise<T> {
  const domain = await ctx.domain();
  if (idempotencyKey === null || idempotencyKey === undefined) return call.run(domain, input);
  const answer = await runIdempotently({
    actor: domain.actor,
    key: idempotencyKey,
    operation: `graphql:${call.operation}`,
    schema: call.schema,
    input,
    run: (idempotencyClaim) => call.run({ ...domain, idempotencyClaim }, input),
    keep: call.keep,
    rebuild: (entityId) => call.rebuild(domain, entityId),
  });
  if (!answer.ok) throw answer.refusal;
  return answer.replayed ? call.replay(domain, answer.kept) : answer.result;
}

/** A mutation whose answer is an entity with an id: a retry gets the same entity, as it is now. */
export interface IdempotentMutation<Input, T extends { id: string }> {
  operation: string;
  schema: z.ZodObject;
  run: (ctx: DomainContext, input: Input) => Promise<T>;
  /** The entity as it is now, for a retry: read with the caller's own context. */
  reload: (ctx: DomainContext, id: string) => Promise<T>;
}

/**
 * The resolver of a mutation made with `idempotencyKey` that answers an entity: the entity's id is
 * kept, and a retry reads the entity again for its own selection.
 */
export function idempotentMutation<Input, T extends { id: string }>(mutation: IdempotentMutation<Input, T>) {
  const call: IdempotentCall<Input, T, { id: string }> = {
    ...mutation,
    keep: (entity) => ({ id: entity.id }),
    rebuild: async (_ctx, id) => ({ id }),
    replay: (ctx, kept) => mutation.reload(ctx, kept.id),
  };
  return async (
    _root: unknown,
    { input, idempotencyKey }: { input: Input; idempotencyKey?: string | null },
    ctx: GraphQLContext,
  ): Promise<T> => runIdempotentCall(call, input, idempotencyKey, ctx);
}
