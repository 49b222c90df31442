/**
 * The cost an operation has whatever its variables (graphql/operation-cost.ts `fixedCost`), which
 * the rate limit works out once per document: it is the cost every call of the operation is priced
 * at, and there is none where a list's size comes from a variable.
 */
import { getOperationAST, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { fixedCost, operationCost } from "../../src/graphql/operation-cost.js";
import { schema } from "../../src/graphql/schema.js";

const costs = (text: string, variables: Record<string, unknown>) => {
  const document = parse(text);
  const operation = getOperationAST(document)!;
  return { fixed: fixedCost(schema, document, operation), priced: operationCost(schema, document, operation, variables) };
};

describe("an operation's fixed cost", () => {
  it("is the cost of each of its calls when no list's size comes from a variable", () => {
    for (const [text, variables] of [
      [`query($id: ID) { paymentRequest(id: $id) { id refunds { id } activities { action } } }`, { id: "x" }],
      [`{ paymentRequests(first: 20) { edges { node { id refunds { id } } } } }`, {}],
      [
        `query($id: ID) { paymentRequests(last: 5) { edges { node { id } } } other: paymentRequest(id: $id) { status } }`,
        { id: "a" },
      ],
      [
        `query { ...Page } fragment Page on Query { paymentRequests(first: 3) { edges { node { webhookEvents { attempts { number } } } } } }`,
        {},
      ],
    ] as const) {
      const { fixed, priced } = costs(text, variables);
      expect(fixed, text).not.toBeNull();
      expect(fixed, text).toBe(priced);
    }
  });

  it("is none when a list's size, or another argument of a sized list, comes from a variable", () => {
    for (const text of [
      `query($n: Int) { paymentRequests(first: $n) { edges { node { id } } } }`,
      `query($n: Int) { webhookEvents(last: $n) { id } }`,
      `query($f: RequestFilter) { paymentRequests(first: 20, filter: $f) { edges { node { id } } } }`,
      `query($n: Int) { ...Page } fragment Page on Query { paymentRequests(first: $n) { edges { node { id } } } }`,
    ])
      expect(costs(text, {}).fixed, text).toBeNull();
  });
});
