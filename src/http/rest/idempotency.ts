import { createMiddleware } from "hono/factory";
import { httpStatusOf } from "../../transport/http-status.js";
import { runIdempotently } from "../../transport/idempotency.js";
import type { RestEnv } from "./routes.js";
import { restError } from "./errors.js";

/**
 * A write sent with an Idempotency-Key, under the transport's idempotency rule
 * (transport/idempotency.ts). The route runs as without a key; what the rule keeps of a success is
 * the response's body. An answer given from what an earlier call kept carries
 * `Idempotent-Replayed: true`.
 */
export const idempotentWrites = createMiddleware<RestEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  let ran = false;
  const answer = await runIdempotently({
    actor: c.var.ctx.actor,
    key,
    operation: c.var.operation,
    schema: c.var.route.write!.input,
    input: c.var.params,
    run: async (idempotencyClaim) => {
      ran = true;
      c.set("ctx", { ...c.var.ctx, idempotencyClaim });
      await next();
      // The route threw, and the app's error handler answered: the rule decides whether that is kept.
      if (c.error) throw c.error;
      return (await c.res.clone().json()) as unknown;
    },
    keep: (body) => body,
    rebuild: (entityId) => c.var.route.write!.replay(c.var.ctx, entityId, c.var.links),
  }).catch((error: unknown) => {
    // Not kept, and already answered by the app's error handler: that answer stands.
    if (ran && error === c.error) return null;
    throw error;
  });
  // The route's own answer stands when it ran.
  if (answer === null || ran) return;
  if (answer.replayed) c.header("Idempotent-Replayed", "true");
  if (!answer.ok) return c.json(restError(answer.refusal), httpStatusOf(answer.refusal.code) as 400);
  if (answer.replayed) return c.json(answer.kept as object, 200);
});
