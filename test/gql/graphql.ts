/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
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
  /** an accent colour is not #rrggbb, or its contrast against white is below 4.5:1 (WCAG AA) */
  | 'INVALID_COLOR'
  /** description is too long */
  | 'INVALID_DESCRIPTION'
  /** url is not an http or https URL, or names a loopback, private, link-local or multicast address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS) */
  | 'INVALID_ENDPOINT_URL'
  /** an event type is not one of payment.completed, refund.completed, request.cancelled, request.expired */
  | 'INVALID_EVENT_TYPE'
  /** ledger is missing or malformed, or no such ledger exists */
  | 'INVALID_LEDGER'
  /** a logo is not a data: URL of a PNG, JPEG or WebP image of at most 64 KB whose bytes are of its type (SVG is refused) */
  | 'INVALID_LOGO'
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

/** How a payer initiates payment. */
export type PaymentMethod =
  /** The payer presents an alphanumeric authorization. */
  | 'AUTH_ALPHANUMERIC'
  /** The payer presents a numeric authorization. */
  | 'AUTH_NUMERIC'
  /** The requestCode is transmitted to the wallet over NFC. */
  | 'NFC'
  /** The payer scans a QR code of the requestCode. */
  | 'QR_CODE';

/** What to cancel. */
export type RequestCancelInput = {
  /** The request to cancel. */
  requestId: string;
};

/** What to request. */
export type RequestCreateInput = {
  /** Amount in minimum divisible units. */
  amount: number | string;
  /** Currency or asset class, e.g. NZD. */
  asset: string;
  /** Client configuration whose items become the payment options. */
  clientId?: string | null | undefined;
  /** Shown to the payer. */
  description?: string | null | undefined;
  /** Unique per merchant; repeating it with the same parameters returns the same request. */
  externalReference?: string | null | undefined;
  /** The merchant creating the request (the key's own). */
  merchantId: string;
  /** Webhook for signed notifications of the payment and refunds. */
  notifyUrl?: string | null | undefined;
  /** Seconds the request stays payable, 1 to 86399; default 120. */
  paymentExpirySeconds?: number | string | null | undefined;
  /** Where the pay page links once the request is paid; must start with one of the merchant's allowed redirect URLs. */
  redirectUrl?: string | null | undefined;
};

/** Narrows a list of payment requests; every field is optional. */
export type RequestFilter = {
  /** Made under this client configuration. */
  clientId?: string | null | undefined;
  /** Created at or after this. */
  createdFrom?: string | null | undefined;
  /** Created before this. */
  createdTo?: string | null | undefined;
  /** The merchant's reference. */
  externalReference?: string | null | undefined;
  /** Offering a payment option at this ledger. */
  ledger?: string | null | undefined;
  /** Any of these statuses (as they read now). */
  status?: Array<RequestStatus> | null | undefined;
  /** Containing this text in the description or the external reference, in any case. */
  text?: string | null | undefined;
};

/** How to pay. */
export type RequestPayInput = {
  /** Authorizes the payment at the ledger (a sandbox wallet id on sandbox wallet ledgers). */
  authorization: string;
  /** Ledger of one of the request's payment options. */
  ledger: string;
  /** The request to pay. */
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

/** How merchantStats divides its range: the merchant's local hours or days. */
export type StatsBucket =
  /** A day of the time zone's calendar, midnight to midnight (23 or 25 hours across a daylight-saving change). */
  | 'DAY'
  /** An hour of the time zone's clock. */
  | 'HOUR';

/** Narrows a list of transactions; every field is optional. */
export type TransactionFilter = {
  /** Completed at or after this. */
  createdFrom?: string | null | undefined;
  /** Completed before this. */
  createdTo?: string | null | undefined;
  /** At this ledger. */
  ledger?: string | null | undefined;
  /** PURCHASE or REFUND. */
  type?: TransactionType | null | undefined;
};

/** What to refund. */
export type TransactionRefundInput = {
  /** Minimum units to return to the payer. */
  amount: number | string;
  /** Unique per purchase. Without one a purchase is refunded once; with one, once per reference. */
  externalReference?: string | null | undefined;
  /** The PURCHASE to refund. */
  transactionId: string;
};

/** The kind of a transaction. */
export type TransactionType =
  /** A payment of a request. */
  | 'PURCHASE'
  /** Money returned to the payer from a purchase. */
  | 'REFUND';

/** Delivery state of a notification. */
export type WebhookEventState =
  /** The webhook answered 2xx. */
  | 'DELIVERED'
  /** Every allowed attempt failed. */
  | 'EXHAUSTED'
  /** Not sent: its endpoint was disabled. A recovery sends it. */
  | 'HELD'
  /** Waiting for its next attempt. */
  | 'PENDING'
  /** Not sent: the destination is not allowed (a private address). */
  | 'REFUSED';

export type RequestInfoQueryVariables = Exact<{
  id?: string | null | undefined;
  requestCode?: string | null | undefined;
}>;


export type RequestInfoQuery = { paymentRequest: { id: string, status: RequestStatus, requestCode: string, paidBy: { id: string } | null, refunds: Array<{ id: string, amount: number }> } };

export type WalletRequestInfoQueryVariables = Exact<{
  id?: string | null | undefined;
  requestCode?: string | null | undefined;
}>;


export type WalletRequestInfoQuery = { paymentRequest: { id: string, status: RequestStatus, requestCode: string, paidBy: { id: string } | null } };

export type TransactionInfoQueryVariables = Exact<{
  id: string;
}>;


export type TransactionInfoQuery = { transaction: { id: string, transactionType: TransactionType, amount: number, refundableAmount: number | null, refunds: Array<{ id: string, amount: number }>, request: { id: string, status: RequestStatus } } };

export type MerchantConfigurationQueryVariables = Exact<{
  merchantId: string;
  clientId?: string | null | undefined;
}>;


export type MerchantConfigurationQuery = { merchantConfiguration: { merchantId: string, name: string, clientId: string | null, items: Array<{ label: string, asset: string, account: string | null, index: number, methods: Array<PaymentMethod>, fractionalDigits: number, precision: number, icon: { image: string, mimeType: string } | null, units: { label: string, factor: number } }> } };

export type ByShortCodeQueryVariables = Exact<{
  shortCode?: string | null | undefined;
}>;


export type ByShortCodeQuery = { paymentRequest: { id: string, shortCode: string, payUrl: string } };

export type PayerAsksForRedirectQueryVariables = Exact<{
  shortCode?: string | null | undefined;
}>;


export type PayerAsksForRedirectQuery = { paymentRequest: { id: string, redirectUrl: string | null } };

export type ReachedRequestFragment = { id: string, status: RequestStatus, payments: Array<{ ledger: string, amount: number }>, paidBy: { id: string } | null };

export type ReachedRequestsQueryVariables = Exact<{
  transactionId: string;
  requestId: string;
}>;


export type ReachedRequestsQuery = { transaction: { request: { id: string, status: RequestStatus, payments: Array<{ ledger: string, amount: number }>, paidBy: { id: string } | null } }, paymentRequest: { webhookEvents: Array<{ request: { id: string, status: RequestStatus, payments: Array<{ ledger: string, amount: number }>, paidBy: { id: string } | null } }> }, transactions: { edges: Array<{ node: { id: string, request: { id: string, status: RequestStatus, payments: Array<{ ledger: string, amount: number }>, paidBy: { id: string } | null } } }> } };

export type OwnRequestQueryVariables = Exact<{
  id: string;
}>;


export type OwnRequestQuery = { paymentRequest: { id: string, status: RequestStatus, payments: Array<{ ledger: string, amount: number }>, paidBy: { id: string } | null } };

export type RequestEventsQueryVariables = Exact<{
  id: string;
}>;


export type RequestEventsQuery = { paymentRequest: { webhookEvents: Array<{ id: string, url: string, state: WebhookEventState, attemptCount: number, transaction: { transactionType: TransactionType }, attempts: Array<{ number: number }> }> } };

export type FailedEventsQueryVariables = Exact<{
  states?: Array<WebhookEventState> | WebhookEventState | null | undefined;
}>;


export type FailedEventsQuery = { webhookEvents: Array<{ id: string, state: WebhookEventState }> };

export type RedeliverMutationVariables = Exact<{
  eventId: string;
}>;


export type RedeliverMutation = { webhookEventRedeliver:
    | { __typename: 'AuthenticationError', code: ErrorCode }
    | { __typename: 'ExternalServiceError', code: ErrorCode }
    | { __typename: 'ForbiddenError', code: ErrorCode }
    | { __typename: 'LedgerRefusedError', code: ErrorCode }
    | { __typename: 'NotFoundError', code: ErrorCode }
    | { __typename: 'RateLimitedError', code: ErrorCode }
    | { __typename: 'StateConflictError', code: ErrorCode }
    | { __typename: 'ValidationError', code: ErrorCode }
    | { __typename: 'WebhookEvent', id: string, state: WebhookEventState, nextAttemptAt: string }
   };

export type DashboardRequestsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  filter?: RequestFilter | null | undefined;
}>;


export type DashboardRequestsQuery = { paymentRequests: { edges: Array<{ cursor: string, node: { id: string, status: RequestStatus, externalReference: string | null } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type DashboardTransactionsQueryVariables = Exact<{
  filter?: TransactionFilter | null | undefined;
}>;


export type DashboardTransactionsQuery = { transactions: { edges: Array<{ node: { id: string, transactionType: TransactionType, amount: number, refundableAmount: number | null, refunds: Array<{ amount: number }> } }> } };

export type DashboardRequestChangesSubscriptionVariables = Exact<{
  requestId?: string | null | undefined;
}>;


export type DashboardRequestChangesSubscription = { paymentRequestChanged: { id: string, status: RequestStatus, updatedAt: string } };

export type DashboardStatsQueryVariables = Exact<{
  from: string;
  to: string;
  bucket: StatsBucket;
  timeZone?: string | null | undefined;
}>;


export type DashboardStatsQuery = { merchantStats: { medianSecondsToPay: number | null, buckets: Array<{ start: string | null, asset: string, created: number, paid: number, paidAmount: number, refundedAmount: number }>, totals: Array<{ start: string | null, asset: string, created: number, paid: number, paidAmount: number, refundedAmount: number }> } };

export type CreateRequestMutationVariables = Exact<{
  input: RequestCreateInput;
  key?: string | null | undefined;
}>;


export type CreateRequestMutation = { requestCreate:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'PaymentRequest', id: string, status: RequestStatus, requestCode: string, shortCode: string, payUrl: string, redirectUrl: string | null, expiresAt: string, denomination: { amount: number, asset: string }, payments: Array<{ ledger: string, amount: number, methods: Array<PaymentMethod> }>, paidBy: { id: string } | null }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export type PayRequestMutationVariables = Exact<{
  input: RequestPayInput;
  key?: string | null | undefined;
}>;


export type PayRequestMutation = { requestPay:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'PaymentRequest', id: string, status: RequestStatus, paidBy: { id: string, amount: number, ledger: string, createdAt: string } | null }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export type CancelRequestMutationVariables = Exact<{
  input: RequestCancelInput;
  key?: string | null | undefined;
}>;


export type CancelRequestMutation = { requestCancel:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'PaymentRequest', id: string, status: RequestStatus, paidBy: { id: string } | null }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export type RefundTransactionMutationVariables = Exact<{
  input: TransactionRefundInput;
  key?: string | null | undefined;
}>;


export type RefundTransactionMutation = { transactionRefund:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'Transaction', id: string, transactionType: TransactionType, amount: number, externalReference: string | null, purchase: { id: string, refundableAmount: number | null } | null }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export const ReachedRequestFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ReachedRequest"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"payments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ledger"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"paidBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<ReachedRequestFragment, unknown>;
export const RequestInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RequestInfo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"requestCode"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"requestCode"},"value":{"kind":"Variable","name":{"kind":"Name","value":"requestCode"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestCode"}},{"kind":"Field","name":{"kind":"Name","value":"paidBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"refunds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]}}]}}]} as unknown as DocumentNode<RequestInfoQuery, RequestInfoQueryVariables>;
export const WalletRequestInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WalletRequestInfo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"requestCode"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"requestCode"},"value":{"kind":"Variable","name":{"kind":"Name","value":"requestCode"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestCode"}},{"kind":"Field","name":{"kind":"Name","value":"paidBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<WalletRequestInfoQuery, WalletRequestInfoQueryVariables>;
export const TransactionInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TransactionInfo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transaction"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"transactionType"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"refundableAmount"}},{"kind":"Field","name":{"kind":"Name","value":"refunds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"request"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<TransactionInfoQuery, TransactionInfoQueryVariables>;
export const MerchantConfigurationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MerchantConfiguration"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"merchantId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"merchantConfiguration"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"merchantId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"merchantId"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"merchantId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"asset"}},{"kind":"Field","name":{"kind":"Name","value":"account"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"methods"}},{"kind":"Field","name":{"kind":"Name","value":"icon"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"image"}},{"kind":"Field","name":{"kind":"Name","value":"mimeType"}}]}},{"kind":"Field","name":{"kind":"Name","value":"units"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"factor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fractionalDigits"}},{"kind":"Field","name":{"kind":"Name","value":"precision"}}]}}]}}]}}]} as unknown as DocumentNode<MerchantConfigurationQuery, MerchantConfigurationQueryVariables>;
export const ByShortCodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ByShortCode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"shortCode"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"shortCode"},"value":{"kind":"Variable","name":{"kind":"Name","value":"shortCode"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"shortCode"}},{"kind":"Field","name":{"kind":"Name","value":"payUrl"}}]}}]}}]} as unknown as DocumentNode<ByShortCodeQuery, ByShortCodeQueryVariables>;
export const PayerAsksForRedirectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PayerAsksForRedirect"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"shortCode"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"shortCode"},"value":{"kind":"Variable","name":{"kind":"Name","value":"shortCode"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"redirectUrl"}}]}}]}}]} as unknown as DocumentNode<PayerAsksForRedirectQuery, PayerAsksForRedirectQueryVariables>;
export const ReachedRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReachedRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"transactionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"requestId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transaction"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"transactionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"request"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ReachedRequest"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"paymentRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"requestId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"request"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ReachedRequest"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"transactions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"request"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ReachedRequest"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ReachedRequest"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"payments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ledger"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"paidBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<ReachedRequestsQuery, ReachedRequestsQueryVariables>;
export const OwnRequestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OwnRequest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ReachedRequest"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ReachedRequest"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"payments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ledger"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"paidBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<OwnRequestQuery, OwnRequestQueryVariables>;
export const RequestEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RequestEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"transaction"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactionType"}}]}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RequestEventsQuery, RequestEventsQueryVariables>;
export const FailedEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FailedEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"states"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEventState"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"states"},"value":{"kind":"Variable","name":{"kind":"Name","value":"states"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<FailedEventsQuery, FailedEventsQueryVariables>;
export const RedeliverDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Redeliver"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"eventId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEventRedeliver"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"eventId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"eventId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}}]}}]}}]}}]} as unknown as DocumentNode<RedeliverMutation, RedeliverMutationVariables>;
export const DashboardRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"RequestFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"externalReference"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<DashboardRequestsQuery, DashboardRequestsQueryVariables>;
export const DashboardTransactionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardTransactions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TransactionFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"transactionType"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"refundableAmount"}},{"kind":"Field","name":{"kind":"Name","value":"refunds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<DashboardTransactionsQuery, DashboardTransactionsQueryVariables>;
export const DashboardRequestChangesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardRequestChanges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"requestId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentRequestChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"requestId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"requestId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<DashboardRequestChangesSubscription, DashboardRequestChangesSubscriptionVariables>;
export const DashboardStatsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardStats"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"bucket"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"StatsBucket"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"merchantStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"bucket"},"value":{"kind":"Variable","name":{"kind":"Name","value":"bucket"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeZone"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeZone"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buckets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"asset"}},{"kind":"Field","name":{"kind":"Name","value":"created"}},{"kind":"Field","name":{"kind":"Name","value":"paid"}},{"kind":"Field","name":{"kind":"Name","value":"paidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"refundedAmount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"asset"}},{"kind":"Field","name":{"kind":"Name","value":"created"}},{"kind":"Field","name":{"kind":"Name","value":"paid"}},{"kind":"Field","name":{"kind":"Name","value":"paidAmount"}},{"kind":"Field","name":{"kind":"Name","value":"refundedAmount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"medianSecondsToPay"}}]}}]}}]} as unknown as DocumentNode<DashboardStatsQuery, DashboardStatsQueryVariables>;
export const CreateRequestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateRequest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RequestCreateInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestCode"}},{"kind":"Field","name":{"kind":"Name","value":"shortCode"}},{"kind":"Field","name":{"kind":"Name","value":"payUrl"}},{"kind":"Field","name":{"kind":"Name","value":"redirectUrl"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"denomination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"asset"}}]}},{"kind":"Field","name":{"kind":"Name","value":"payments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ledger"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"methods"}}]}},{"kind":"Field","name":{"kind":"Name","value":"paidBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CreateRequestMutation, CreateRequestMutationVariables>;
export const PayRequestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PayRequest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RequestPayInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestPay"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"paidBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"ledger"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PayRequestMutation, PayRequestMutationVariables>;
export const CancelRequestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelRequest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RequestCancelInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestCancel"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"paidBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CancelRequestMutation, CancelRequestMutationVariables>;
export const RefundTransactionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefundTransaction"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TransactionRefundInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactionRefund"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Transaction"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"transactionType"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"externalReference"}},{"kind":"Field","name":{"kind":"Name","value":"purchase"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"refundableAmount"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RefundTransactionMutation, RefundTransactionMutationVariables>;