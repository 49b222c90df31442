import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { defaultFieldResolver, type GraphQLSchema } from "graphql";
import type { GraphQLContext } from "./context.js";

/**
 * The schema with each mutation noting its call's write once it has resolved (`reads.wrote`),
 * whatever it came to, before the fields under it read: reads that may lag, of this call and of
 * every later call of the merchant, then see what it changed (transport/read-your-writes.ts). Used
 * only when there is a read replica.
 */
export function notingWrites(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.MUTATION_ROOT_FIELD]: (field) => {
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve: async (source, args, context: GraphQLContext, info) => {
          try {
            return await resolve(source, args, context, info);
          } finally {
            await context.reads.wrote();
          }
        },
      };
    },
  });
}
