/**
 * A database that cannot serve calls is answered the same way everywhere: domainErrorOf makes it
 * EXTERNAL_SERVICE_ERROR, which REST (503) and GraphQL answer with the same code and words, and
 * which the operator CLI prints (test/cli/admin.test.ts).
 */
import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { DATABASE_UNAVAILABLE, domainErrorOf, NotFoundError } from "../../src/domain/errors.js";
import { maskUnexpectedError } from "../../src/graphql/mask-error.js";
import { restError } from "../../src/http/rest/errors.js";

const missing = Object.assign(new Error('database "x" does not exist'), { code: "3D000" });
const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("a database that cannot serve calls", () => {
  it.each([
    ["missing", missing],
    ["refusing connections", refused],
  ])("(%s) is one answer, EXTERNAL_SERVICE_ERROR, on REST and in GraphQL, without the driver's words", (_, error) => {
    const failure = domainErrorOf(error)!;
    expect([failure.code, failure.message, failure.cause]).toEqual(["EXTERNAL_SERVICE_ERROR", DATABASE_UNAVAILABLE, error]);
    expect(restError(error)).toEqual({
      statusCode: 503,
      error: "Service Unavailable",
      message: "EXTERNAL_SERVICE_ERROR",
      reason: DATABASE_UNAVAILABLE,
    });
    const masked = maskUnexpectedError(new GraphQLError(error.message, { originalError: error }), "Unexpected error.", false);
    expect([masked.message, (masked as GraphQLError).extensions]).toEqual([
      DATABASE_UNAVAILABLE,
      { code: "EXTERNAL_SERVICE_ERROR" },
    ]);
  });

  it("leaves a domain error as it is and a bug unanswered", () => {
    const notFound = new NotFoundError("REQUEST_NOT_FOUND", "No such request.");
    expect(domainErrorOf(notFound)).toBe(notFound);
    expect(domainErrorOf(new TypeError("x is undefined"))).toBeUndefined();
    expect(restError(new TypeError("x is undefined")).message).toBe("INTERNAL_ERROR");
  });
});
