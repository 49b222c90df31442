import { GraphQLError, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isDomainError, RateLimitedError, stackless } from "../domain/errors.js";
import type { Meter, RateLimiter } from "../transport/rate-limit.js";
import type { RequestContexts } from "../transport/request-context.js";
import type { GraphQLContext } from "./context.js";
import { MAX_WAITING_READS } from "./tenant-read-limit.js";
import { fixedCost, MAX_COST, operationCost, pointsOf } from "./operation-cost.js";
import { callRefusal } from "./call-refusal.js";
import { operationOf, rootFieldCount } from "./root-fields.js";

/** Charges points to a meter; answers the call's refusal if over the limit (or Redis is unreachable). */
async function charge(limiter: RateLimiter, meter: Meter, calls: number): Promise<GraphQLError | null> {
  try {
    await limiter.charge(meter, calls);
    return null;
  } catch (error) {
    if (isDomainError(error)) return callRefusal(error);
    throw error;
  }
}

/**
 * Charges each GraphQL call to its API key's rate limit, or to its client address when it has no
 * valid key (its fields then fail with KEY_NOT_AUTHORIZED). Over the limit the answer is HTTP 429
 * with Retry-After and `extensions.code` RATE_LIMIT_EXCEEDED, and nothing of the call runs.
 *
 * One point is charged as the request arrives, before its body is read: a document refused before
 * it runs (unreadable, invalid, too deep, too costly) costs that one, and a caller past its limit
 * is refused before its document costs any parsing or validation. An operation that runs is then
 * priced with its real variable values (operation-cost.ts) and charged the rest of its points: a
 * tenth of its cost, at least one per root field (each alias counts). Points, not calls, so that 20
 * aliases of a 100-item list with lists under each item cost what they make the service do.
 */
export function useRateLimit(limiter: RateLimiter, contexts: RequestContexts): Plugin<GraphQLContext> {
  // If the key cannot even be looked up (database down), the fields report that themselves.
  const meterOf = (context: { meter: () => Promise<Meter> }) => context.meter().catch(() => null);

  // What execute and subscribe share of their hooks' payloads.
  type Payload = {
    args: {
      schema: GraphQLSchema;
      contextValue: GraphQLContext;
      document: DocumentNode;
      operationName?: string | null;
      variableValues?: Record<string, unknown> | null;
    };
    setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
  };
  // What an operation's price needs of its document alone, worked out on its first call.
  const plans = new WeakMap<OperationDefinitionNode, { rootFields: number; fixedPoints: number | null }>();
  const planOf = (schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode) => {
    let plan = plans.get(operation);
    if (!plan) {
      const rootFields = rootFieldCount(operation, document);
      const cost = fixedCost(schema, document, operation);
      // Its variables cannot change what it is charged: the points of its cost are those of a call whose variables do not fit.
      const fixedPoints = cost !== null && cost <= MAX_COST && pointsOf(cost, rootFields) === pointsOf(0, rootFields);
      plan = { rootFields, fixedPoints: fixedPoints ? pointsOf(0, rootFields) : null };
      plans.set(operation, plan);
    }
    return plan;
  };
  const pointsFor = (args: Payload["args"], operation: OperationDefinitionNode): number | GraphQLError => {
    const { rootFields, fixedPoints } = planOf(args.schema, args.document, operation);
    if (fixedPoints !== null) return fixedPoints;
    // Null when the variables do not fit the operation: execution refuses it before anything runs.
    const cost = operationCost(args.schema, args.document, operation, args.variableValues) ?? 0;
    if (cost > MAX_COST) return badRequest(`Query Cost limit of ${MAX_COST} exceeded, found ${cost}.`);
    return pointsOf(cost, rootFields);
  };
  const chargeOperation = async ({ args, setResultAndStopExecution }: Payload) => {
    const operation = operationOf(args.document, args.operationName);
    if (!operation) return;
    const refuse = (error: GraphQLError) => setResultAndStopExecution({ errors: [error] });
    const points = pointsFor(args, operation);
    if (points instanceof GraphQLError) return refuse(points);
    const meter = await meterOf(args.contextValue);
    if (!meter) return;
    // An operation dearer than its key's whole minute would be refused every minute: say so once.
    const perMinute = limiter.limitOf(meter);
    if (points > perMinute)
      return refuse(
        badRequest(
          `This operation costs ${points} points, more than the ${perMinute} a minute this key may spend; ask for fewer items.`,
        ),
      );
    // A tenant with a most costly operation's worth of reads already waiting queues no more.
    if ((await args.contextValue.tenantReads.waiting()) >= MAX_WAITING_READS)
      return refuse(callRefusal(new RateLimitedError(1, "Too much of this tenant's work is waiting; retry in 1 s.")));
    if (points > 1) {
      const refused = await charge(limiter, meter, points - 1);
      if (refused) refuse(refused);
    }
  };

  return {
    async onRequestParse({ request }) {
      const meter = await meterOf(contexts(request));
      const refused = meter && (await charge(limiter, meter, 1));
      if (refused) throw refused;
    },
    onExecute: chargeOperation,
    onSubscribe: chargeOperation,
  };
}

/** A document refused before it runs, as the other bounds refuse one (operation-bounds.ts). */
const badRequest = (message: string) =>
  stackless(() => new GraphQLError(message, { extensions: { code: "BAD_REQUEST", http: { status: 400 } } }));
