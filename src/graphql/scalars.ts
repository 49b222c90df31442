import { GraphQLError, Kind } from "graphql";
import { builder } from "./builder.js";

builder.scalarType("Amount", {
  description:
    "An amount in minimum divisible units of an asset (cents for NZD): a whole number from 1 to 2^53-1. " +
    "Input may also be a string of decimal digits.",
  serialize: (value) => Number(value),
  // Passed through as given: the domain decides what is a valid amount (INVALID_AMOUNT).
  parseValue: (value) => value as number | string,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return Number(ast.value);
    if (ast.kind === Kind.STRING) return ast.value;
    throw new GraphQLError("Amount must be a number or a string of digits");
  },
});

builder.scalarType("DateTime", {
  description: "An instant, as an ISO 8601 UTC string with milliseconds.",
  serialize: (value) => (value instanceof Date ? value : new Date(value as string)).toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError("DateTime must be an ISO 8601 string");
    return date;
  },
});
