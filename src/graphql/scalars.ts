import { GraphQLError, Kind } from "graphql";
import { isoInstant } from "../domain/instants.js";
import { builder } from "./builder.js";

/** A JSON number or string, as given; any other JSON type is not a value of the scalar. */
function wholeNumberOrText(value: unknown): number | string {
  if (typeof value === "number" || typeof value === "string") return value;
  throw new GraphQLError("must be a JSON integer or a string of digits");
}

builder.scalarType("Amount", {
  description:
    "An amount in minimum divisible units of an asset (cents for NZD): a whole number from 1 to 2^53-1. " +
    "Input may also be a string of decimal digits.",
  serialize: (value) => Number(value),
  // A number or a string is passed through as given: the domain decides what is a valid amount
  // (INVALID_AMOUNT). Any other JSON type is refused here, with the parameter's code (strict-variables.ts).
  parseValue: wholeNumberOrText,
  // An integer literal is passed on as its digits (exactly, however large); a float literal such as
  // 300.0 or 1e3 is refused, never rounded.
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return ast.value;
    throw new GraphQLError("Amount must be a whole number or a string of digits", { extensions: { code: "INVALID_AMOUNT" } });
  },
});

builder.scalarType("ExpirySeconds", {
  description: "Seconds a request stays payable: a whole number from 1 to 86399. Input may also be a string of decimal digits.",
  serialize: (value) => Number(value),
  // As Amount: the domain decides what is valid (INVALID_PAYMENT_EXPIRY_SECONDS).
  parseValue: wholeNumberOrText,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return ast.value;
    throw new GraphQLError("paymentExpirySeconds must be a whole number or a string of digits", {
      extensions: { code: "INVALID_PAYMENT_EXPIRY_SECONDS" },
    });
  },
});

builder.scalarType("DateTime", {
  description: "An instant, as an ISO 8601 UTC string with milliseconds.",
  serialize: (value) => (value instanceof Date ? value : new Date(value as string)).toISOString(),
  parseValue: (value) => {
    const date = typeof value === "string" ? isoInstant(value) : null;
    if (!date)
      throw new GraphQLError("DateTime must be an ISO 8601 date or date and time, in the years 1 to 9999", {
        extensions: { code: "BAD_REQUEST", http: { status: 400 } },
      });
    return date;
  },
});

builder.scalarType("JSON", {
  description: "A JSON value, answered as it is: an object whose shape its field's description gives.",
  serialize: (value) => value,
  // Answers only: no argument or input field takes a JSON value.
  parseValue: () => {
    throw new GraphQLError("JSON is not taken as input", { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
  },
});
