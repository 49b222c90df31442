/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** The new key. */
export type ApiKeyCreateInput = {
  /** What the key is for (up to 200 characters). */
  label?: string | null | undefined;
};

/** The key to revoke. */
export type ApiKeyRevokeInput = {
  /** The key's prefix (mk_…), or the whole key. */
  prefix: string;
};

/** Who the link is for. */
export type ConsoleLinkCreateInput = {
  /** Names the session in its list and in the activity trail (`console:<label>`), up to 60 characters. */
  label?: string | null | undefined;
  /** A read-only session reads everything and changes nothing (default false). */
  readOnly?: boolean | null | undefined;
};

/** Stable error codes, the same as the REST API's `message`. */
export type ErrorCode =
  /** the purchase was already refunded without an externalReference */
  | 'ALREADY_REFUNDED'
  /** other malformed input */
  | 'BAD_REQUEST'
  /** no such live console session is visible to this key */
  | 'CONSOLE_SESSION_NOT_FOUND'
  /** a ledger or dependency is unavailable; nothing changed, retry later */
  | 'EXTERNAL_SERVICE_ERROR'
  /** the key may not do this */
  | 'FORBIDDEN'
  /** a call with this Idempotency-Key is still running; retry shortly */
  | 'IDEMPOTENCY_KEY_IN_USE'
  /** the Idempotency-Key was already used with different parameters */
  | 'IDEMPOTENCY_KEY_REUSED'
  /** the ledger refused: the payer's account is unknown or inactive */
  | 'INACTIVE_ASSET'
  /** the ledger refused: the payer's balance is too low */
  | 'INSUFFICIENT_ASSET_BALANCE'
  /** amount is missing or not a whole number from 1 to 2^53-1, or exceeds what remains refundable */
  | 'INVALID_AMOUNT'
  /** asset is missing or malformed */
  | 'INVALID_ASSET'
  /** authorization is missing or malformed, or differs from paymentAuthorization */
  | 'INVALID_AUTHORIZATION'
  /** clientId is malformed */
  | 'INVALID_CLIENT_ID'
  /** description is too long */
  | 'INVALID_DESCRIPTION'
  /** url is not an http or https URL, or names a loopback, private, link-local or multicast address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS) */
  | 'INVALID_ENDPOINT_URL'
  /** an event type is not one of payment.completed, refund.completed, request.cancelled, request.expired */
  | 'INVALID_EVENT_TYPE'
  /** ledger is missing or malformed, or no such ledger exists */
  | 'INVALID_LEDGER'
  /** merchantId is missing or malformed */
  | 'INVALID_MERCHANT_ID'
  /** notifyUrl is not an http or https URL */
  | 'INVALID_NOTIFY_URL'
  /** paymentExpirySeconds is not a whole number from 1 to 86399 */
  | 'INVALID_PAYMENT_EXPIRY_SECONDS'
  /** redirectUrl is not an http or https URL that starts with one of the merchant's allowed redirect URLs */
  | 'INVALID_REDIRECT_URL'
  /** externalReference is too long */
  | 'INVALID_REFERENCE'
  /** requestId (or requestCode, or shortCode) is missing or malformed */
  | 'INVALID_REQUEST_ID'
  /** transactionId is missing or malformed */
  | 'INVALID_TRANSACTION_ID'
  /** only a PURCHASE can be refunded */
  | 'INVALID_TRANSACTION_TYPE'
  /** the X-Api-Key header is missing, unknown or revoked */
  | 'KEY_NOT_AUTHORIZED'
  /** the ledger is not one of the request's payment options */
  | 'LEDGER_NOT_ENABLED'
  /** the clientId is not this merchant's */
  | 'MERCHANT_CONFIGURATION_NOT_FOUND'
  /** no such merchant is visible to this key */
  | 'MERCHANT_NOT_FOUND'
  /** no configuration item can be paid in this asset */
  | 'NO_AVAILABLE_PAYMENT_OPTIONS'
  /** the ledger declined the payment */
  | 'PAYMENT_DECLINED'
  /** the key made too many requests this minute; retry after Retry-After seconds */
  | 'RATE_LIMIT_EXCEEDED'
  /** the externalReference was already used with different parameters */
  | 'REPEAT_REFERENCE'
  /** the request has been cancelled */
  | 'REQUEST_CANCELLED'
  /** the request has expired */
  | 'REQUEST_EXPIRED'
  /** no such request is visible to this key */
  | 'REQUEST_NOT_FOUND'
  /** the request has already been paid */
  | 'REQUEST_PAID'
  /** no such transaction is visible to this key */
  | 'TRANSACTION_NOT_FOUND'
  /** the endpoint is disabled: enable it before recovering its deliveries */
  | 'WEBHOOK_ENDPOINT_DISABLED'
  /** the merchant has as many webhook endpoints as it may (16) */
  | 'WEBHOOK_ENDPOINT_LIMIT_REACHED'
  /** no such webhook endpoint is visible to this key */
  | 'WEBHOOK_ENDPOINT_NOT_FOUND'
  /** no such webhook event is visible to this key */
  | 'WEBHOOK_EVENT_NOT_FOUND'
  /** a test event is never sent again: send another with webhookEndpointPing */
  | 'WEBHOOK_TEST_EVENT_NOT_REDELIVERABLE';

/** What to cancel. */
export type RequestCancelInput = {
  /** The request to cancel. */
  requestId: string;
};

/** Where a payment request stands. A request past expiresAt reads EXPIRED. */
export type RequestStatus =
  /** Cancelled by the merchant. */
  | 'CANCELLED'
  /** Past expiresAt without being paid. */
  | 'EXPIRED'
  /** Open: can be paid or cancelled until it expires. */
  | 'NEW'
  /** Paid; paidBy holds the purchase. */
  | 'PAID';

export type ConsoleHomeQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleHomeQuery = { paymentRequests: { edges: Array<{ node: { id: string, shortCode: string, status: RequestStatus, createdAt: string, denomination: { amount: number, asset: string } } }> } };

export type ConsoleLinkCreateMutationVariables = Exact<{
  input?: ConsoleLinkCreateInput | null | undefined;
}>;


export type ConsoleLinkCreateMutation = { consoleLinkCreate:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ConsoleLink', url: string, expiresAt: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export type ConsoleRequestCancelMutationVariables = Exact<{
  input: RequestCancelInput;
}>;


export type ConsoleRequestCancelMutation = { requestCancel:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'PaymentRequest', id: string, status: RequestStatus }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export type ConsoleApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleApiKeysQuery = { apiKeys: Array<{ prefix: string, label: string | null, createdAt: string, lastUsedAt: string | null, revokedAt: string | null }> };

export type ConsoleApiKeyCreateMutationVariables = Exact<{
  input?: ApiKeyCreateInput | null | undefined;
}>;


export type ConsoleApiKeyCreateMutation = { apiKeyCreate:
    | { __typename: 'ApiKeyCreated', key: string, apiKey: { prefix: string, label: string | null } }
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export type ConsoleApiKeyRevokeMutationVariables = Exact<{
  input: ApiKeyRevokeInput;
}>;


export type ConsoleApiKeyRevokeMutation = { apiKeyRevoke:
    | { __typename: 'ApiKey', prefix: string, revokedAt: string | null }
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };


export const ConsoleHomeDocument = {"__meta__":{"hash":"sha256:599911667faf9ccf8bad3a426e498575892bbecb0e211c1849843f31c23cfafc"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleHome"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"shortCode"}},{"kind":"Field","name":{"kind":"Name","value":"denomination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"asset"}}]}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleHomeQuery, ConsoleHomeQueryVariables>;
export const ConsoleLinkCreateDocument = {"__meta__":{"hash":"sha256:56f5af51c697edce2e54be6c2aa4bb9ef7dae7e16b8acd8c43431e49e82bdf64"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLinkCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ConsoleLinkCreateInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"consoleLinkCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConsoleLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleLinkCreateMutation, ConsoleLinkCreateMutationVariables>;
export const ConsoleRequestCancelDocument = {"__meta__":{"hash":"sha256:6d78251f103d9c2b03457393784f1256efb2b514b5a1196c5af30e625bfc1c24"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRequestCancel"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RequestCancelInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestCancel"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleRequestCancelMutation, ConsoleRequestCancelMutationVariables>;
export const ConsoleApiKeysDocument = {"__meta__":{"hash":"sha256:b04677de8e3d856cd916674cbb5d49eaeced297e196c18f98e1a47a0b07b8383"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleApiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleApiKeysQuery, ConsoleApiKeysQueryVariables>;
export const ConsoleApiKeyCreateDocument = {"__meta__":{"hash":"sha256:ec080ffc28357aab4567a39da26cf142d4a8e09ae703eaf2582d1933b7ff2bd3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleApiKeyCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKeyCreateInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeyCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKeyCreated"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleApiKeyCreateMutation, ConsoleApiKeyCreateMutationVariables>;
export const ConsoleApiKeyRevokeDocument = {"__meta__":{"hash":"sha256:df0b8cefa35fcb7a45f08761cd3f20ead069cf97cdd54946c2c0f428bf87f4ce"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleApiKeyRevoke"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKeyRevokeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeyRevoke"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleApiKeyRevokeMutation, ConsoleApiKeyRevokeMutationVariables>;