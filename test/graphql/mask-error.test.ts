import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/domain/errors.js";
import { maskUnexpectedError } from "../../src/graphql/mask-error.js";

/** A failure as graphql-js hands it over from a resolver. */
const fromResolver = (original: Error) =>
  new GraphQLError(original.message, { originalError: original, path: ["paymentRequest"] });

describe("what a GraphQL client is told of a failure", () => {
  it("masks anything unexpected with the contract's INTERNAL_ERROR, as REST does, and no details", () => {
    const masked = maskUnexpectedError(fromResolver(new Error("secret table payment_request broke")), "Unexpected error.", false);
    const json = JSON.stringify(masked);
    expect((masked as GraphQLError).extensions).toMatchObject({ code: "INTERNAL_ERROR" });
    expect(masked.message).toBe("Unexpected error.");
    expect((masked as GraphQLError).path).toEqual(["paymentRequest"]);
    expect(json).not.toContain("secret");
  });

  it("keeps a domain error's own code and message", () => {
    const error = fromResolver(new NotFoundError("REQUEST_NOT_FOUND", "No such request."));
    const answered = maskUnexpectedError(error, "Unexpected error.", false) as GraphQLError;
    expect([answered.message, answered.extensions["code"]]).toEqual(["No such request.", "REQUEST_NOT_FOUND"]);
  });

  it("says EXTERNAL_SERVICE_ERROR when the database cannot be reached", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const answered = maskUnexpectedError(fromResolver(refused), "Unexpected error.", false) as GraphQLError;
    expect(answered.extensions["code"]).toBe("EXTERNAL_SERVICE_ERROR");
  });

  it("leaves GraphQL's own refusals as they are", () => {
    const invalid = new GraphQLError('Cannot query field "nope" on type "Query".', {
      extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
    });
    expect(maskUnexpectedError(invalid, "Unexpected error.", false)).toBe(invalid);
  });
});
