import { sql, type QueryCreator, type RawBuilder } from "kysely";
import type { DB } from "../generated/kysely/database.js";
import type { DomainContext } from "./context.js";

/**
 * A statement built with the query builder, with the call's idempotency record as one of its CTEs
 * (DomainContext.writeIdempotencyRecord): the record commits with the change, as in the statements
 * written in SQL text. `qb` unchanged when the call carries no key.
 *
 * The record's part is still SQL text (`name AS (...)`) whose values it adds to a list of
 * parameters, placeholders `$1`, `$2`…; here each placeholder becomes the builder's parameter of
 * that value, so the part's text and values are the transport's alone. This goes once the part is
 * written with the builder.
 */
export function withIdempotencyRecord(qb: QueryCreator<DB>, ctx: DomainContext, entityId: string): QueryCreator<DB> {
  const values: unknown[] = [];
  const params = {
    values,
    add(value: unknown) {
      values.push(value);
      return `$${values.length}`;
    },
  };
  const part = ctx.writeIdempotencyRecord?.(params, entityId);
  if (part === undefined) return qb;
  const [, name, text] = /^\s*(\w+)\s+AS\s+(\([\s\S]*\))\s*$/i.exec(part) ?? [];
  if (name === undefined || text === undefined) throw new Error(`An idempotency record part that is not one CTE: ${part}`);
  // Only the record's CTE is added: nothing else in the statement reads it.
  return qb.with(name, () => withValues(text, values));
}

/** SQL text with placeholders `$n`, as raw SQL whose placeholders are parameters of `values[n - 1]`. */
function withValues(text: string, values: unknown[]): RawBuilder<Record<string, unknown>> {
  const pieces = text.split(/\$(\d+)/);
  const strings = pieces.filter((_, at) => at % 2 === 0);
  const taken = pieces.filter((_, at) => at % 2 === 1).map((n) => values[Number(n) - 1]);
  return sql(Object.assign([...strings], { raw: strings }), ...taken);
}
