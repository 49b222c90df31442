/**
 * Every GraphQL operation the merchant console sends. GraphQL Code Generator (codegen.ts) compiles
 * them into typed documents and persisted-documents.json (their SHA-256 hashes), and a call
 * authenticated by a console cookie may run only these, by hash (graphql/console-calls.ts).
 */
import { graphql } from "./gql/index.js";

export const ConsoleHome = graphql(`
  query ConsoleHome {
    paymentRequests(first: 5) {
      edges {
        node {
          id
          shortCode
          denomination {
            amount
            asset
          }
          status
          createdAt
        }
      }
    }
  }
`);

export const ConsoleLinkCreate = graphql(`
  mutation ConsoleLinkCreate($input: ConsoleLinkCreateInput) {
    consoleLinkCreate(input: $input) {
      __typename
      ... on ConsoleLink {
        url
        expiresAt
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const ConsoleRequestCancel = graphql(`
  mutation ConsoleRequestCancel($input: RequestCancelInput!) {
    requestCancel(input: $input) {
      __typename
      ... on PaymentRequest {
        id
        status
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const ConsoleApiKeys = graphql(`
  query ConsoleApiKeys {
    apiKeys {
      prefix
      label
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);

export const ConsoleApiKeyCreate = graphql(`
  mutation ConsoleApiKeyCreate($input: ApiKeyCreateInput) {
    apiKeyCreate(input: $input) {
      __typename
      ... on ApiKeyCreated {
        key
        apiKey {
          prefix
          label
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const ConsoleApiKeyRevoke = graphql(`
  mutation ConsoleApiKeyRevoke($input: ApiKeyRevokeInput!) {
    apiKeyRevoke(input: $input) {
      __typename
      ... on ApiKey {
        prefix
        revokedAt
      }
      ... on Error {
        code
        message
      }
    }
  }
`);
