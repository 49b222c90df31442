import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { defaultFieldResolver, type GraphQLSchema } from "graphql";
import pLimit, { type LimitFunction } from "p-limit";

/**
 * Root query fields of one call that may run at once. Each reads the database, so one call holds
 * at most this many of the pool's connections (20) however many aliases it selects; other
 * tenants' calls keep the rest. Mutations already run one after another.
 */
export const ROOT_FIELDS_AT_ONCE = 3;

/** A per-call limiter, made with the call's GraphQL context. */
export const databaseShare = (): LimitFunction => pLimit(ROOT_FIELDS_AT_ONCE);

/** The schema with every root query field run under its call's limiter (`context.share`). */
export function sharingTheDatabase(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.QUERY_ROOT_FIELD]: (field) => {
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve: (source, args, context: { share: LimitFunction }, info) =>
          context.share(() => resolve(source, args, context, info)),
      };
    },
  });
}
