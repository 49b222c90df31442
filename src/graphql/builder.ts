import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import { db } from "../db.js";
import {
  ExternalServiceError,
  ForbiddenError,
  RateLimitedError,
  LedgerRefusedError,
  NotFoundError,
  StateConflictError,
  UnauthenticatedError,
  ValidationError,
} from "../domain/errors.js";
import type PrismaTypes from "../generated/pothos-types.js";
import { getDatamodel } from "../generated/pothos-types.js";
import type { GraphQLContext } from "./context.js";

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  Scalars: {
    ID: { Input: string; Output: string };
    /** Minimum units; validated by the domain so both transports report INVALID_AMOUNT alike. */
    Amount: { Input: number | string; Output: bigint | number };
    DateTime: { Input: Date; Output: Date };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ErrorsPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  errors: {
    // Every mutation result is a union of its data and these; anything else is a masked bug.
    defaultTypes: [
      ValidationError,
      NotFoundError,
      ForbiddenError,
      StateConflictError,
      LedgerRefusedError,
      UnauthenticatedError,
      ExternalServiceError,
      RateLimitedError,
    ],
    directResult: true,
    defaultUnionOptions: {
      name: ({ fieldName }) => `${fieldName[0]!.toUpperCase()}${fieldName.slice(1)}Result`,
      description: "The result, or an Error saying why nothing changed.",
    },
  },
});
