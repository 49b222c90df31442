import { createMiddleware } from "hono/factory";
import { fingerprintOf, withIdempotency } from "../../transport/idempotency.js";
import type { RestEnv } from "./route-context.js";

type KeptResponse = { status: number; body: unknown };

/**
 * A write sent with an Idempotency-Key runs at most once per key: the first response, errors
 * included, is kept and replayed (with `Idempotent-Replayed: true`) for 24 hours. Responses of
 * 500 and above are not kept, so a retry after an outage runs the write. If the process stopped
 * after the write committed but before its response was kept, a retry answers the write's entity
 * as it is now (the route's `replay`).
 */
export const idempotentWrites = createMiddleware<RestEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  const { outcome, replayed } = await withIdempotency<KeptResponse>(
    c.var.ctx.actor,
    key,
    fingerprintOf(c.var.operation, c.var.route.write!.input, c.var.params),
    async (alongWrite) => {
      c.set("ctx", { ...c.var.ctx, alongWrite });
      await next();
      if (c.res.status >= 500) throw c.error ?? new Error(`${c.var.operation} answered ${c.res.status}`);
      return { status: c.res.status, body: await c.res.clone().json() };
    },
    async (entityId) => ({ status: 200, body: await c.var.route.write!.replay(c.var.ctx, entityId, c.var.links) }),
  );
  if (!replayed) return;
  c.header("Idempotent-Replayed", "true");
  return c.json(outcome.body as object, outcome.status as 200);
});
