import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
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
import { CONNECTION_PAGE } from "../domain/page-size.js";
import { readsMerchantFields } from "../domain/requests/visibility.js";
import type PrismaTypes from "../generated/pothos-types.js";
import { getDatamodel } from "../generated/pothos-types.js";
import type { GraphQLContext } from "./context.js";
import { prismaOn } from "./prisma.js";

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  Scalars: {
    ID: { Input: string; Output: string };
    /** Minimum units; validated by the domain so both transports report INVALID_AMOUNT alike. */
    Amount: { Input: number | string; Output: bigint | number };
    /** paymentExpirySeconds on input; validated by the domain (INVALID_PAYMENT_EXPIRY_SECONDS). */
    ExpirySeconds: { Input: number | string; Output: number };
    DateTime: { Input: Date; Output: Date };
    /** A JSON value an answer carries as it is (an event's object). */
    JSON: { Input: never; Output: unknown };
  };
  DefaultFieldNullability: false;
  /** Which key kind is calling; types whose fields only merchants may read say so (graphql/visibility.ts). */
  AuthScopes: { merchant: boolean; payer: boolean };
}>({
  // Scope checks run before any other plugin's resolver wrapping.
  plugins: [ScopeAuthPlugin, ErrorsPlugin, RelayPlugin, PrismaPlugin],
  scopeAuth: {
    authScopes: async (context) => {
      const { actor } = await context.domain();
      return { merchant: readsMerchantFields(actor), payer: actor.kind === "payer" };
    },
    unauthorizedError: (_parent, _context, info) =>
      new ForbiddenError("FORBIDDEN", `This key may not read ${info.parentType.name}.${info.fieldName}.`),
  },
  relay: {
    // Descriptions for the types and arguments the Relay plugin generates, for GraphiQL's docs.
    pageInfoTypeOptions: { description: "Where a page sits in its list." },
    hasNextPageFieldOptions: { description: "More items follow this page." },
    hasPreviousPageFieldOptions: { description: "Items come before this page." },
    startCursorFieldOptions: { description: "Cursor of the first item of the page." },
    endCursorFieldOptions: { description: "Cursor of the last item of the page." },
    edgesFieldOptions: { description: "The items of the page with their cursors." },
    pageInfoFieldOptions: { description: "Where the page sits in the list." },
    cursorFieldOptions: { description: "Opaque position of the item, for `after` or `before`." },
    nodeFieldOptions: { description: "The item." },
    firstArgOptions: {
      description: `How many items after \`after\`: 1 to ${CONNECTION_PAGE.max} (${CONNECTION_PAGE.default} when not given).`,
    },
    lastArgOptions: { description: `How many items before \`before\`: 1 to ${CONNECTION_PAGE.max}.` },
    afterArgOptions: { description: "Start after this cursor." },
    beforeArgOptions: { description: "End before this cursor." },
  },
  defaultFieldNullability: false,
  prisma: {
    // The database the call's reads that may lag settled on (the primary, unless they chose a
    // replica), read per call: the process opens its databases after the schema is built (src/db.ts).
    client: (context) => prismaOn(context.reads.settled()),
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
