import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { defaultFieldResolver, isObjectType, type GraphQLSchema } from "graphql";
import type { Actor, DomainContext } from "../domain/context.js";
import { MAX_COST, readsOnItsOwn } from "./operation-cost.js";

/**
 * Database reads of one tenant (a merchant, across all of its keys; a payer key) that run at once
 * in this process, across all of its calls. The pool has 20 connections: a tenant's flood holds
 * at most this many of them and waits behind itself, and other tenants' reads go straight to the
 * rest. A call of one root field and no nested lists never waits for its own.
 */
export const READS_AT_ONCE = 3;

/**
 * Reads a tenant may have waiting in this process (a most costly operation's worth): past that,
 * its next call is refused with 429 RATE_LIMIT_EXCEEDED before it runs, rather than queued.
 */
export const MAX_WAITING_READS = MAX_COST;

/** What one call's reads run under: its tenant's share (see READS_AT_ONCE). */
export interface CallShare {
  /** Runs a read when its tenant's turn comes. */
  run<T>(read: () => T | Promise<T>): Promise<T>;
  /** Reads of this call's tenant waiting for their turn in this process. */
  waiting(): Promise<number>;
}

/** Whose share a read runs under. */
const tenantOf = (actor: Actor) =>
  actor.kind === "merchant" ? `merchant:${actor.merchantId}` : actor.kind === "payer" ? `key:${actor.keyPrefix}` : "operator";

/** The shares of one API process's tenants; a tenant with nothing running has no entry. */
export function createDatabaseShares() {
  const shares = new Map<string, { running: number; waiting: (() => void)[] }>();

  async function run<T>(tenant: string, read: () => T | Promise<T>): Promise<T> {
    let share = shares.get(tenant);
    if (!share) shares.set(tenant, (share = { running: 0, waiting: [] }));
    if (share.running < READS_AT_ONCE) share.running++;
    else await new Promise<void>((resolve) => share.waiting.push(resolve));
    try {
      return await read();
    } finally {
      // The first waiting read takes this one's place; with none, the place is free.
      const next = share.waiting.shift();
      if (next) next();
      else if (--share.running === 0) shares.delete(tenant);
    }
  }

  return {
    /** The share of a call whose key `domain` resolves; a call without a valid key reads unshared (and fails). */
    forCall(domain: () => Promise<DomainContext>): CallShare {
      let tenant: Promise<string | null> | undefined;
      const tenantOfCall = () =>
        (tenant ??= domain().then(
          ({ actor }) => tenantOf(actor),
          () => null,
        ));
      return {
        run: (read) => tenantOfCall().then((of) => (of === null ? read() : run(of, read))),
        waiting: () => tenantOfCall().then((of) => (of === null ? 0 : (shares.get(of)?.waiting.length ?? 0))),
      };
    },
  };
}

export type DatabaseShares = ReturnType<typeof createDatabaseShares>;

/**
 * The schema with every field that reads the database on its own (root query fields, and those of
 * operation-cost.ts's readsOnItsOwn: a request's refunds, an event's attempts …) run under its
 * call's share (`context.share`). A read holds its place only while its own resolver runs: the
 * fields under it take places of their own, so no read ever waits for one that waits for it.
 * Mutations already run one after another.
 */
export function sharingTheDatabase(schema: GraphQLSchema): GraphQLSchema {
  const query = schema.getQueryType()?.name;
  const unshared = new Set([schema.getMutationType()?.name, schema.getSubscriptionType()?.name]);
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      if (unshared.has(typeName)) return field;
      const parent = schema.getType(typeName);
      const own = isObjectType(parent) ? parent.getFields()[fieldName] : undefined;
      if (!own || !(typeName === query || readsOnItsOwn(parent!, own))) return field;
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve: (source, args, context: { share: CallShare }, info) =>
          context.share.run(() => resolve(source, args, context, info)),
      };
    },
  });
}
