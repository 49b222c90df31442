/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ConsoleHome {\n    paymentRequests(first: 5) {\n      edges {\n        node {\n          id\n          shortCode\n          denomination {\n            amount\n            asset\n          }\n          status\n          createdAt\n        }\n      }\n    }\n  }\n": typeof types.ConsoleHomeDocument,
    "\n  mutation ConsoleLinkCreate($input: ConsoleLinkCreateInput) {\n    consoleLinkCreate(input: $input) {\n      __typename\n      ... on ConsoleLink {\n        url\n        expiresAt\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.ConsoleLinkCreateDocument,
    "\n  mutation ConsoleRequestCancel($input: RequestCancelInput!) {\n    requestCancel(input: $input) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.ConsoleRequestCancelDocument,
    "\n  query ConsoleApiKeys {\n    apiKeys {\n      prefix\n      label\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n": typeof types.ConsoleApiKeysDocument,
    "\n  mutation ConsoleApiKeyCreate($input: ApiKeyCreateInput) {\n    apiKeyCreate(input: $input) {\n      __typename\n      ... on ApiKeyCreated {\n        key\n        apiKey {\n          prefix\n          label\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.ConsoleApiKeyCreateDocument,
    "\n  mutation ConsoleApiKeyRevoke($input: ApiKeyRevokeInput!) {\n    apiKeyRevoke(input: $input) {\n      __typename\n      ... on ApiKey {\n        prefix\n        revokedAt\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.ConsoleApiKeyRevokeDocument,
};
const documents: Documents = {
    "\n  query ConsoleHome {\n    paymentRequests(first: 5) {\n      edges {\n        node {\n          id\n          shortCode\n          denomination {\n            amount\n            asset\n          }\n          status\n          createdAt\n        }\n      }\n    }\n  }\n": types.ConsoleHomeDocument,
    "\n  mutation ConsoleLinkCreate($input: ConsoleLinkCreateInput) {\n    consoleLinkCreate(input: $input) {\n      __typename\n      ... on ConsoleLink {\n        url\n        expiresAt\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": types.ConsoleLinkCreateDocument,
    "\n  mutation ConsoleRequestCancel($input: RequestCancelInput!) {\n    requestCancel(input: $input) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": types.ConsoleRequestCancelDocument,
    "\n  query ConsoleApiKeys {\n    apiKeys {\n      prefix\n      label\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n": types.ConsoleApiKeysDocument,
    "\n  mutation ConsoleApiKeyCreate($input: ApiKeyCreateInput) {\n    apiKeyCreate(input: $input) {\n      __typename\n      ... on ApiKeyCreated {\n        key\n        apiKey {\n          prefix\n          label\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": types.ConsoleApiKeyCreateDocument,
    "\n  mutation ConsoleApiKeyRevoke($input: ApiKeyRevokeInput!) {\n    apiKeyRevoke(input: $input) {\n      __typename\n      ... on ApiKey {\n        prefix\n        revokedAt\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": types.ConsoleApiKeyRevokeDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleHome {\n    paymentRequests(first: 5) {\n      edges {\n        node {\n          id\n          shortCode\n          denomination {\n            amount\n            asset\n          }\n          status\n          createdAt\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleHome {\n    paymentRequests(first: 5) {\n      edges {\n        node {\n          id\n          shortCode\n          denomination {\n            amount\n            asset\n          }\n          status\n          createdAt\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLinkCreate($input: ConsoleLinkCreateInput) {\n    consoleLinkCreate(input: $input) {\n      __typename\n      ... on ConsoleLink {\n        url\n        expiresAt\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLinkCreate($input: ConsoleLinkCreateInput) {\n    consoleLinkCreate(input: $input) {\n      __typename\n      ... on ConsoleLink {\n        url\n        expiresAt\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRequestCancel($input: RequestCancelInput!) {\n    requestCancel(input: $input) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleRequestCancel($input: RequestCancelInput!) {\n    requestCancel(input: $input) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleApiKeys {\n    apiKeys {\n      prefix\n      label\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  query ConsoleApiKeys {\n    apiKeys {\n      prefix\n      label\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleApiKeyCreate($input: ApiKeyCreateInput) {\n    apiKeyCreate(input: $input) {\n      __typename\n      ... on ApiKeyCreated {\n        key\n        apiKey {\n          prefix\n          label\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleApiKeyCreate($input: ApiKeyCreateInput) {\n    apiKeyCreate(input: $input) {\n      __typename\n      ... on ApiKeyCreated {\n        key\n        apiKey {\n          prefix\n          label\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleApiKeyRevoke($input: ApiKeyRevokeInput!) {\n    apiKeyRevoke(input: $input) {\n      __typename\n      ... on ApiKey {\n        prefix\n        revokedAt\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleApiKeyRevoke($input: ApiKeyRevokeInput!) {\n    apiKeyRevoke(input: $input) {\n      __typename\n      ... on ApiKey {\n        prefix\n        revokedAt\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;