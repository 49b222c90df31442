import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { CONNECTION_PAGE, EVENT_PAGE, OUTBOX_LOG_PAGE, type PageBounds } from "../domain/page-size.js";

/**
 * What an operation costs: the database reads it may make, GitHub's and Shopify's way. Each root
 * field is one read; so is each field below it that its parent's read does not already hold (a
 * request's refunds, activities and webhook events, an event's attempts, a transaction's request …),
 * once for every object it is read for. A list multiplies what is under it by as many items as it
 * may hold: its `first` or `last` with the operation's real variable values (capped at the list's
 * most, its default page when absent), and UNSIZED_LIST for a list that takes no size.
 */
export const MAX_COST = 5000;

/**
 * Points a call is charged against its key's limit: a tenth of its cost, rounded up, and at least
 * one per root field. Measured in-process on 150 requests: a nested read per node costs 0.08-0.12
 * of a plain `paymentRequest` read's CPU, so ten of them are about one such read, and a plain read,
 * a dashboard's page of 20 requests, stay one point.
 */
export const READS_PER_POINT = 10;

/** Items assumed of a list that takes no size (a request's refunds or webhook events, an event's attempts). */
export const UNSIZED_LIST = 10;

/** Default and most items of lists that take `first`/`last`: these, and Pothos connections. */
const PAGE_SIZES: Record<string, PageBounds> = {
  "Query.events": EVENT_PAGE,
  "Query.webhookEvents": OUTBOX_LOG_PAGE,
  "WebhookEndpoint.deliveries": OUTBOX_LOG_PAGE,
};

/** Object fields read with their parent (the request aggregate, the configuration), so free. */
const READ_WITH_PARENT = new Set([
  "PaymentRequest.denomination",
  "PaymentRequest.payments",
  "PaymentRequest.paidBy",
  "MerchantConfiguration.items",
  "ConfigurationItem.icon",
  "ConfigurationItem.units",
]);

/** Scalar fields that read on their own when their parent was not loaded with them. */
const SCALARS_READ_ON_THEIR_OWN = new Set(["Transaction.refundableAmount"]);

/**
 * A Relay connection (`edges`, `pageInfo`) or edge (`node`, `cursor`), or a keyset page (its items
 * beside `nextCursor`, as `events` answers): read with its page.
 */
const isPageWrapper = (type: GraphQLNamedType) =>
  isObjectType(type) &&
  (("edges" in type.getFields() && "pageInfo" in type.getFields()) ||
    ("node" in type.getFields() && "cursor" in type.getFields()) ||
    "nextCursor" in type.getFields());

/**
 * Whether a field below the root reads the database on its own, once per object it is read for
 * (graphql/tenant-read-limit.ts queues those reads per tenant).
 */
export function readsOnItsOwn(parentType: GraphQLNamedType, field: GraphQLField<unknown, unknown>): boolean {
  const name = `${parentType.name}.${field.name}`;
  if (isLeafType(getNamedType(field.type))) return SCALARS_READ_ON_THEIR_OWN.has(name);
  return !isPageWrapper(parentType) && !READ_WITH_PARENT.has(name) && !field.name.startsWith("__");
}

/** How many items a field's list may hold (1 for a field that is not a list). */
function itemsOf(
  parentType: GraphQLNamedType,
  field: GraphQLField<unknown, unknown>,
  args: Record<string, unknown>,
  paged: boolean,
): number {
  if (paged) {
    const page = PAGE_SIZES[`${parentType.name}.${field.name}`] ?? CONNECTION_PAGE;
    const asked = [args.first, args.last].filter((n): n is number => typeof n === "number");
    return asked.length ? Math.min(Math.max(0, ...asked), page.max) : page.default;
  }
  if (!isListType(getNullableType(field.type))) return 1;
  // A connection's `edges` were counted by the connection's page size.
  return isPageWrapper(parentType) ? 1 : UNSIZED_LIST;
}

/**
 * The cost of the operation a call runs, with its variables as given (defaults filled in). Null
 * when the variables do not fit the operation: execution refuses those before anything runs.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
): number | null {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return null;
  return costWith(schema, document, operation, coerced.coerced);
}

/**
 * The operation's cost whatever its variables, when no list's size comes from one (a variable
 * `first` or `last`); null when one does. Worked out once per document: most operations cost the
 * same on every call.
 */
export function fixedCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): number | null {
  let sizedByVariable = false;
  // A sized list's arguments are read together (getArgumentValues): any variable among them counts.
  const sized = (field: FieldNode) => {
    const names = field.arguments?.map((argument) => argument.name.value) ?? [];
    if (names.includes("first") || names.includes("last"))
      for (const argument of field.arguments ?? []) visit(argument.value, { Variable: () => void (sizedByVariable = true) });
  };
  for (const definition of [operation, ...document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)])
    visit(definition, { Field: sized });
  return sizedByVariable ? null : costWith(schema, document, operation, {});
}

/** The cost of the operation with these (coerced) variable values. */
function costWith(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variableValues: Record<string, unknown>,
): number | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const root = schema.getRootType(operation.operation);
  if (!root) return null;

  // Every fragment and type condition counts, as if all of them applied (an upper bound).
  const costOf = (set: SelectionSetNode, parentType: GraphQLNamedType, atRoot: boolean, spread: Set<string>): number => {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parentType;
        if (type) cost += costOf(selection.selectionSet, type, atRoot, spread);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        const type = fragment && schema.getType(fragment.typeCondition.name.value);
        if (type && !spread.has(selection.name.value))
          cost += costOf(fragment.selectionSet, type, atRoot, new Set(spread).add(selection.name.value));
        continue;
      }
      if (selection.name.value.startsWith("__") || !(isObjectType(parentType) || isInterfaceType(parentType))) continue;
      const field = parentType.getFields()[selection.name.value];
      if (!field) continue;
      const own = atRoot || readsOnItsOwn(parentType, field) ? 1 : 0;
      if (!selection.selectionSet) {
        cost += own;
        continue;
      }
      const paged = field.args.some((arg) => arg.name === "first" || arg.name === "last");
      let args: Record<string, unknown> = {};
      try {
        if (paged) args = getArgumentValues(field, selection, variableValues);
      } catch {
        // An argument of the wrong type: execution refuses the call; count its default page.
      }
      cost +=
        own + itemsOf(parentType, field, args, paged) * costOf(selection.selectionSet, getNamedType(field.type), false, spread);
    }
    return cost;
  };
  return costOf(operation.selectionSet, root, true, new Set());
}

/** The points a call of `cost` with `rootFields` root fields is charged (see READS_PER_POINT). */
export const pointsOf = (cost: number, rootFields: number) => Math.max(1, rootFields, Math.ceil(cost / READS_PER_POINT));
