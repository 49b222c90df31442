import type { CompiledQuery, Compilable, Kysely } from "kysely";
import type { DB } from "../generated/kysely/database.js";
import type { QueryBuilder } from "./query-builder.js";

const PARAMETER = Symbol("parameter");
interface Marker {
  [PARAMETER]: string;
}
const isMarker = (value: unknown): value is Marker => typeof value === "object" && value !== null && PARAMETER in value;

/** Every statement declared with `compiled`, as its text: test/sql has PostgreSQL parse and describe each. */
export const declaredStatements: ((qb: QueryBuilder) => string)[] = [];

/** Stands for the parameter `name` where a statement built by `compiled` takes a value. */
export type Param<P> = <K extends keyof P & string>(name: K) => P[K];

/**
 * A statement of the hot paths, built and compiled once: `build` writes it with the builder, taking
 * each value from `param`, and each call only puts its values in their places. The builder would
 * otherwise build and compile its text anew on every call. The statement's shape must not depend on
 * the values (no `if` on them in `build`); an array goes in as one value (`= any(...)`).
 */
export function compiled<P extends object, O>(
  build: (qb: Kysely<DB>, param: Param<P>) => Compilable<O>,
): (qb: QueryBuilder, params: P) => Promise<O[]> {
  declaredStatements.push((qb) => build(qb, ((name: string) => ({ [PARAMETER]: name })) as unknown as Param<P>).compile().sql);
  let text: CompiledQuery<O> | undefined;
  let slots: (string | { value: unknown })[] = [];
  return async (qb, params) => {
    if (!text) {
      const param = ((name: string) => ({ [PARAMETER]: name })) as unknown as Param<P>;
      text = build(qb, param).compile();
      slots = text.parameters.map((value) => (isMarker(value) ? value[PARAMETER] : { value }));
    }
    const parameters = slots.map((slot) => (typeof slot === "string" ? (params as Record<string, unknown>)[slot] : slot.value));
    const { rows } = await qb.executeQuery<O>({ ...text, parameters });
    return rows;
  };
}

/**
 * A statement of a few shapes, each built and compiled once as by `compiled`: a call runs the shape
 * `shapeOf` names for its values. A part that would do nothing for some calls (a record of an
 * idempotency key a call did not send) is left out of their shape instead of run on nulls: the
 * database still plans and executes such a part, and it cost a pay a sixth of its database time.
 */
export function compiledShapes<S extends string, P extends object, O>(
  shapes: readonly S[],
  shapeOf: (params: P) => S,
  build: (shape: S, qb: Kysely<DB>, param: Param<P>) => Compilable<O>,
): (qb: QueryBuilder, params: P) => Promise<O[]> {
  const byShape = new Map(shapes.map((shape) => [shape, compiled<P, O>((qb, param) => build(shape, qb, param))] as const));
  return (qb, params) => byShape.get(shapeOf(params))!(qb, params);
}
