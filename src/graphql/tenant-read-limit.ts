import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { defaultFieldResolver, isObjectType, type GraphQLSchema } from "graphql";
import type { Actor, DomainContext } from "../domain/context.js";
import { MAX_COST, readsOnItsOwn } from "./operation-cost.js";

/**
 * Database reads of one tenant (a merchant, across all of its keys; a payer key) that run at once
 * in this process, across all of its calls. The pool has DATABASE_POOL_SIZE connections (20 by
 * default): a tenant's flood holds at most this many of them and waits behind itself, and other
 * tenants' reads go straight to the rest. A call of one root field and no nested lists never waits for its own.
 */
export const READS_AT_ONCE = 3;

/**
 * Reads a tenant may have waiting in this process (a most costly operation's worth): past that,
 * its next call is refused with 429 RATE_LIMIT_EXCEEDED before it runs, rather than queued.
 */
export const MAX_WAITING_READS = MAX_COST;

/** What one call's reads run under: its tenant's queue, at most READS_AT_ONCE of them running. */
export interface TenantReadQueue {
  /** Runs a read when its tenant's turn comes. */
  run<T>(read: () => T | Promise<T>): Promise<T>;
  /** Reads of this call's tenant waiting for their turn in this process. */
  waiting(): Promise<number>;
}

/** Whose queue a read waits in. */
const tenantOf = (actor: Actor) =>
  actor.kind === "merchant" ? `merchant:${actor.merchantId}` : actor.kind === "payer" ? `key:${actor.keyPrefix}` : "operator";

/** The read queues of one API process's tenants; a tenant with nothing running has no entry. */
export function createTenantReadLimits() {
  const queues = new Map<string, { running: number; waiting: (() => void)[] }>();

  async function run<T>(tenant: string, read: () => T | Promise<T>): Promise<T> {
    let queue = queues.get(tenant);
    if (!queue) queues.set(tenant, (queue = { running: 0, waiting: [] }));
    if (queue.running < READS_AT_ONCE) queue.running++;
    else await new Promise<void>((resolve) => queue.waiting.push(resolve));
    try {
      return await read();
    } finally {
      // The first waiting read takes this one's place; with none, the place is free.
      const next = queue.waiting.shift();
      if (next) next();
      else if (--queue.running === 0) queues.delete(tenant);
    }
  }

  return {
    /** The queue of a call whose key `domain` resolves; a call without a valid key reads unqueued (and fails). */
    forCall(domain: () => Promise<DomainContext>): TenantReadQueue {
      let tenant: Promise<string | null> | undefined;
      const tenantOfCall = () =>
        (tenant ??= domain().then(
          ({ actor }) => tenantOf(actor),
          () => null,
        ));
      return {
        run: (read) => tenantOfCall().then((of) => (of === null ? read() : run(of, read))),
        waiting: () => tenantOfCall().then((of) => (of === null ? 0 : (queues.get(of)?.waiting.length ?? 0))),
      };
    },
  };
}

export type TenantReadLimits = ReturnType<typeof createTenantReadLimits>;

/**
 * The schema with every field that reads the database on its own (root query fields, and those of
 * operation-cost.ts's readsOnItsOwn: a request's refunds, an event's attempts …) wait in its
 * tenant's queue (`context.tenantReads`), so that at most READS_AT_ONCE of them run at once. A read holds its place only while its own resolver runs: the
 * fields under it take places of their own, so no read ever waits for one that waits for it.
 * Mutations already run one after another.
 */
export function limitingTenantReads(schema: GraphQLSchema): GraphQLSchema {
  const query = schema.getQueryType()?.name;
  const unlimited = new Set([schema.getMutationType()?.name, schema.getSubscriptionType()?.name]);
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      if (unlimited.has(typeName)) return field;
      const parent = schema.getType(typeName);
      const own = isObjectType(parent) ? parent.getFields()[fieldName] : undefined;
      if (!own || !(typeName === query || readsOnItsOwn(parent!, own))) return field;
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve: (source, args, context: { tenantReads: TenantReadQueue }, info) =>
          context.tenantReads.run(() => resolve(source, args, context, info)),
      };
    },
  });
}
