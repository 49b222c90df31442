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

/** The key to roll, and how long it keeps working beside its successor. */
export type ApiKeyRollInput = {
  /** Seconds the old key keeps working, 0 (revoked at once) to 604800 (7 days). */
  overlapSeconds: number;
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

/** What happened to a payment request. Tokens and REST name them dotted: `payment.completed`. */
export type EventType =
  /** A payment completed (`payment.completed`). */
  | 'PAYMENT_COMPLETED'
  /** A test event, sent to one endpoint on request; never listed (`ping`). */
  | 'PING'
  /** A refund completed (`refund.completed`). */
  | 'REFUND_COMPLETED'
  /** A request was cancelled (`request.cancelled`). */
  | 'REQUEST_CANCELLED'
  /** A request expired unpaid (`request.expired`). */
  | 'REQUEST_EXPIRED';

/** What to change; a field not given stays as it is, and null removes it. */
export type MerchantBrandingInput = {
  /** `#rrggbb`, refused below 4.5:1 contrast against white (INVALID_COLOR). */
  accentColor?: string | null | undefined;
  /** Up to 60 characters. */
  displayName?: string | null | undefined;
  /** A `data:` URL of a PNG, JPEG or WebP image of at most 64 KB (SVG is refused: INVALID_LOGO). */
  logo?: string | null | undefined;
};

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

/** What to refund. */
export type TransactionRefundInput = {
  /** Minimum units to return to the payer. */
  amount: number | string;
  /** Unique per purchase. Without one a purchase is refunded once; with one, once per reference. */
  externalReference?: string | null | undefined;
  /** The PURCHASE to refund. */
  transactionId: string;
};

/** What one delivery attempt came to. */
export type WebhookAttemptOutcome =
  /** Answered 2xx in time. */
  | 'DELIVERED'
  /** Another status, a timeout or a network error. */
  | 'FAILED'
  /** Under way, or cut off when its worker stopped mid-delivery (a later attempt follows). */
  | 'IN_FLIGHT'
  /** The destination is not allowed. */
  | 'REFUSED';

/** A webhook endpoint to register. */
export type WebhookEndpointCreateInput = {
  /** A note (at most 256 characters). */
  description?: string | null | undefined;
  /** False registers it disabled. Default true. */
  enabled?: boolean | null | undefined;
  /** The types it receives (not PING). */
  eventTypes: Array<EventType>;
  /** An http or https URL, on a public address. */
  url: string;
};

/** Which endpoint's deliveries to send again, since when. */
export type WebhookEndpointRecoverInput = {
  /** The endpoint. */
  id: string;
  /** Deliveries of events made at or after this time, or first attempted at or after it. */
  since: string;
};

/** What changes of an endpoint; fields not given stay. */
export type WebhookEndpointUpdateInput = {
  /** A new note. */
  description?: string | null | undefined;
  /** False disables it (its waiting deliveries are held); true enables it again. */
  enabled?: boolean | null | undefined;
  /** The types it receives from now on. */
  eventTypes?: Array<EventType> | null | undefined;
  /** The endpoint. */
  id: string;
  /** A new URL: later attempts, pending ones too, go there. */
  url?: string | null | undefined;
};

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

export type ConsoleEndpointsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleEndpointsQuery = { webhookEndpoints: Array<{ id: string, url: string, description: string | null, enabled: boolean, eventTypes: Array<EventType>, disabledReason: string | null, health: { lastOutcome: WebhookAttemptOutcome | null, failingSince: string | null, successShareLastDay: number | null } }> };

export type ConsoleEndpointQueryVariables = Exact<{
  id: string;
}>;


export type ConsoleEndpointQuery = { webhookEndpoint: { id: string, url: string, description: string | null, enabled: boolean, eventTypes: Array<EventType>, disabledReason: string | null, createdAt: string, health: { lastOutcome: WebhookAttemptOutcome | null, lastAttemptAt: string | null, failingSince: string | null, attemptsLastDay: number, successShareLastDay: number | null }, deliveries: Array<{ id: string, type: EventType, state: WebhookEventState, createdAt: string, attemptCount: number, nextAttemptAt: string, deliveredAt: string | null, attempts: Array<{ number: number, startedAt: string, outcome: WebhookAttemptOutcome, statusCode: number | null, durationMs: number | null, error: string | null }> }> } };

export type ConsoleRecoverableQueryVariables = Exact<{
  id: string;
  since: string;
}>;


export type ConsoleRecoverableQuery = { webhookEndpoint: { id: string, recoverable: number } };

export type ConsoleEndpointCreateMutationVariables = Exact<{
  input: WebhookEndpointCreateInput;
}>;


export type ConsoleEndpointCreateMutation = { webhookEndpointCreate:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
    | { __typename: 'WebhookEndpoint', id: string }
   };

export type ConsoleEndpointUpdateMutationVariables = Exact<{
  input: WebhookEndpointUpdateInput;
}>;


export type ConsoleEndpointUpdateMutation = { webhookEndpointUpdate:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
    | { __typename: 'WebhookEndpoint', id: string, enabled: boolean, eventTypes: Array<EventType> }
   };

export type ConsoleEndpointPingMutationVariables = Exact<{
  id: string;
}>;


export type ConsoleEndpointPingMutation = { webhookEndpointPing:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
    | { __typename: 'WebhookTestResult', delivered: boolean, outcome: WebhookAttemptOutcome | null, statusCode: number | null, durationMs: number | null, error: string | null }
   };

export type ConsoleEndpointRecoverMutationVariables = Exact<{
  input: WebhookEndpointRecoverInput;
}>;


export type ConsoleEndpointRecoverMutation = { webhookEndpointRecover:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
    | { __typename: 'WebhookRecovery', queued: number }
   };

export type ConsoleDeliveryRedeliverMutationVariables = Exact<{
  id: string;
}>;


export type ConsoleDeliveryRedeliverMutation = { webhookDeliveryRedeliver:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
    | { __typename: 'WebhookDelivery', id: string, state: WebhookEventState }
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

export type ConsoleApiKeyRollMutationVariables = Exact<{
  input: ApiKeyRollInput;
}>;


export type ConsoleApiKeyRollMutation = { apiKeyRoll:
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

export type ConsoleMerchantQueryVariables = Exact<{
  merchantId: string;
}>;


export type ConsoleMerchantQuery = { merchantConfiguration: { name: string, items: Array<{ currency: string, fractionalDigits: number, units: { label: string } }> } };

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

export type ConsoleStatsQueryVariables = Exact<{
  from: string;
  to: string;
  bucket: StatsBucket;
  timeZone?: string | null | undefined;
}>;


export type ConsoleStatsQuery = { merchantStats: { medianSecondsToPay: number | null, buckets: Array<{ start: string | null, asset: string, created: number, paid: number, paidAmount: number, refundedAmount: number }>, totals: Array<{ asset: string, created: number, paid: number, paidAmount: number, refundedAmount: number }> } };

export type ConsoleRequestsQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  filter?: RequestFilter | null | undefined;
}>;


export type ConsoleRequestsQuery = { paymentRequests: { edges: Array<{ node: { id: string, shortCode: string, status: RequestStatus, description: string | null, externalReference: string | null, createdAt: string, denomination: { amount: number, asset: string } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleRequestQueryVariables = Exact<{
  id: string;
}>;


export type ConsoleRequestQuery = { paymentRequest: { id: string, shortCode: string, requestCode: string, status: RequestStatus, description: string | null, externalReference: string | null, createdAt: string, expiresAt: string, payUrl: string, denomination: { amount: number, asset: string }, payments: Array<{ ledger: string, amount: number, methods: Array<PaymentMethod> }>, paidBy: { id: string, ledger: string, account: string, amount: number, createdAt: string, refundableAmount: number | null } | null, refunds: Array<{ id: string, amount: number, createdAt: string, externalReference: string | null }>, activities: Array<{ at: string, action: string, actor: string, outcome: string }>, webhookEvents: Array<{ id: string, url: string, state: WebhookEventState, attemptCount: number, nextAttemptAt: string, deliveredAt: string | null, lastError: string | null }> } };

export type ConsoleRequestChangedSubscriptionVariables = Exact<{
  requestId?: string | null | undefined;
}>;


export type ConsoleRequestChangedSubscription = { paymentRequestChanged: { id: string, status: RequestStatus } };

export type ConsoleRequestCreateMutationVariables = Exact<{
  input: RequestCreateInput;
}>;


export type ConsoleRequestCreateMutation = { requestCreate:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'PaymentRequest', id: string, shortCode: string, status: RequestStatus, payUrl: string, expiresAt: string, denomination: { amount: number, asset: string } }
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

export type ConsoleRefundMutationVariables = Exact<{
  input: TransactionRefundInput;
}>;


export type ConsoleRefundMutation = { transactionRefund:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'Transaction', id: string, amount: number }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export type ConsoleSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleSettingsQuery = { merchantBranding: { displayName: string | null, accentColor: string | null, logoUrl: string | null }, consoleSessions: Array<{ id: string, label: string | null, readOnly: boolean, createdAt: string, lastSeenAt: string, expiresAt: string, current: boolean }> };

export type ConsoleBrandingUpdateMutationVariables = Exact<{
  input: MerchantBrandingInput;
}>;


export type ConsoleBrandingUpdateMutation = { merchantBrandingUpdate:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'MerchantBranding', displayName: string | null, accentColor: string | null, logoUrl: string | null }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };

export type ConsoleSessionEndMutationVariables = Exact<{
  id: string;
}>;


export type ConsoleSessionEndMutation = { consoleSessionEnd:
    | { __typename: 'AuthenticationError', code: ErrorCode, message: string }
    | { __typename: 'ConsoleSession', id: string }
    | { __typename: 'ExternalServiceError', code: ErrorCode, message: string }
    | { __typename: 'ForbiddenError', code: ErrorCode, message: string }
    | { __typename: 'LedgerRefusedError', code: ErrorCode, message: string }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string }
    | { __typename: 'StateConflictError', code: ErrorCode, message: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string }
   };


export const ConsoleEndpointsDocument = {"__meta__":{"hash":"sha256:01ba6485dd283f857cbda82cc936c1912983db9fad6c79b60e1ddd5a9f3b1671"}} as unknown as DocumentNode<ConsoleEndpointsQuery, ConsoleEndpointsQueryVariables>;
export const ConsoleEndpointDocument = {"__meta__":{"hash":"sha256:3d205183cb0f99b44610baa6b6f7b0ba51658ec66563d70d60cb63db901b6347"}} as unknown as DocumentNode<ConsoleEndpointQuery, ConsoleEndpointQueryVariables>;
export const ConsoleRecoverableDocument = {"__meta__":{"hash":"sha256:899753bb62cc93ad5a4d6cec5da159ec9e8319cf862451fb7397551c332b52e9"}} as unknown as DocumentNode<ConsoleRecoverableQuery, ConsoleRecoverableQueryVariables>;
export const ConsoleEndpointCreateDocument = {"__meta__":{"hash":"sha256:316dfc1e2b27293b1e40b15a55fbc1a8f94bb2068375633f176c1f9cc373e1c7"}} as unknown as DocumentNode<ConsoleEndpointCreateMutation, ConsoleEndpointCreateMutationVariables>;
export const ConsoleEndpointUpdateDocument = {"__meta__":{"hash":"sha256:f222b5283e60978a948315b39c0c7c135707315fcee294d499d41a83bee4ec93"}} as unknown as DocumentNode<ConsoleEndpointUpdateMutation, ConsoleEndpointUpdateMutationVariables>;
export const ConsoleEndpointPingDocument = {"__meta__":{"hash":"sha256:edb07862410e25644d75c7c10b3579b8bb5001af050c5b0fc8cd0ece9467ce99"}} as unknown as DocumentNode<ConsoleEndpointPingMutation, ConsoleEndpointPingMutationVariables>;
export const ConsoleEndpointRecoverDocument = {"__meta__":{"hash":"sha256:4396e90d2533c0f8934ae1f0b7990d8267256f609a79110410ef34b068e10177"}} as unknown as DocumentNode<ConsoleEndpointRecoverMutation, ConsoleEndpointRecoverMutationVariables>;
export const ConsoleDeliveryRedeliverDocument = {"__meta__":{"hash":"sha256:8c7a2508ee70a68d8d313cee2ac9137cabffc92b9697efc43797b40af8bbfdf5"}} as unknown as DocumentNode<ConsoleDeliveryRedeliverMutation, ConsoleDeliveryRedeliverMutationVariables>;
export const ConsoleApiKeysDocument = {"__meta__":{"hash":"sha256:b04677de8e3d856cd916674cbb5d49eaeced297e196c18f98e1a47a0b07b8383"}} as unknown as DocumentNode<ConsoleApiKeysQuery, ConsoleApiKeysQueryVariables>;
export const ConsoleApiKeyCreateDocument = {"__meta__":{"hash":"sha256:ec080ffc28357aab4567a39da26cf142d4a8e09ae703eaf2582d1933b7ff2bd3"}} as unknown as DocumentNode<ConsoleApiKeyCreateMutation, ConsoleApiKeyCreateMutationVariables>;
export const ConsoleApiKeyRevokeDocument = {"__meta__":{"hash":"sha256:df0b8cefa35fcb7a45f08761cd3f20ead069cf97cdd54946c2c0f428bf87f4ce"}} as unknown as DocumentNode<ConsoleApiKeyRevokeMutation, ConsoleApiKeyRevokeMutationVariables>;
export const ConsoleApiKeyRollDocument = {"__meta__":{"hash":"sha256:43278d4166993f27265eda62a139aadd1f16239b732267fe1ba3e7ea916d285b"}} as unknown as DocumentNode<ConsoleApiKeyRollMutation, ConsoleApiKeyRollMutationVariables>;
export const ConsoleMerchantDocument = {"__meta__":{"hash":"sha256:864675e2f8717f5979d3c2b2e05b6389655c3b14562487f9f86e7c59715cb3e9"}} as unknown as DocumentNode<ConsoleMerchantQuery, ConsoleMerchantQueryVariables>;
export const ConsoleLinkCreateDocument = {"__meta__":{"hash":"sha256:56f5af51c697edce2e54be6c2aa4bb9ef7dae7e16b8acd8c43431e49e82bdf64"}} as unknown as DocumentNode<ConsoleLinkCreateMutation, ConsoleLinkCreateMutationVariables>;
export const ConsoleStatsDocument = {"__meta__":{"hash":"sha256:0699e66f1b66fcbd220a9099355c9fc35557271429cdcd225fc9ceb0456e3c2b"}} as unknown as DocumentNode<ConsoleStatsQuery, ConsoleStatsQueryVariables>;
export const ConsoleRequestsDocument = {"__meta__":{"hash":"sha256:31b945272fcd6094c6c8baf03fe3b9266a833f1d7a974256bbb1bb2faeac91bc"}} as unknown as DocumentNode<ConsoleRequestsQuery, ConsoleRequestsQueryVariables>;
export const ConsoleRequestDocument = {"__meta__":{"hash":"sha256:0742208b772a8f52eae5064762caa00d353e66767b05e43c7c3e7fe02196488e"}} as unknown as DocumentNode<ConsoleRequestQuery, ConsoleRequestQueryVariables>;
export const ConsoleRequestChangedDocument = {"__meta__":{"hash":"sha256:36d79ce9bc6ea33edd44187bc19c1be41772ab885ab5dbbfd5062333f67b6a30"}} as unknown as DocumentNode<ConsoleRequestChangedSubscription, ConsoleRequestChangedSubscriptionVariables>;
export const ConsoleRequestCreateDocument = {"__meta__":{"hash":"sha256:d5e02c9be0ec5e26fee8b32f853d94310394c9baa0a88af9bfd4545046248320"}} as unknown as DocumentNode<ConsoleRequestCreateMutation, ConsoleRequestCreateMutationVariables>;
export const ConsoleRequestCancelDocument = {"__meta__":{"hash":"sha256:6d78251f103d9c2b03457393784f1256efb2b514b5a1196c5af30e625bfc1c24"}} as unknown as DocumentNode<ConsoleRequestCancelMutation, ConsoleRequestCancelMutationVariables>;
export const ConsoleRefundDocument = {"__meta__":{"hash":"sha256:dd1ef905497dade8d86a021aba8c797fccae3addbc44fcaf1a547f661b9c0536"}} as unknown as DocumentNode<ConsoleRefundMutation, ConsoleRefundMutationVariables>;
export const ConsoleSettingsDocument = {"__meta__":{"hash":"sha256:7b50702e4620627c7d9a672b3442df7d501325349d2d7ba9e3ab4e7060b309f1"}} as unknown as DocumentNode<ConsoleSettingsQuery, ConsoleSettingsQueryVariables>;
export const ConsoleBrandingUpdateDocument = {"__meta__":{"hash":"sha256:941cbde8802788a06a2bda14a10a6164be9cbb903b0f56ef4268bb87e5315a46"}} as unknown as DocumentNode<ConsoleBrandingUpdateMutation, ConsoleBrandingUpdateMutationVariables>;
export const ConsoleSessionEndDocument = {"__meta__":{"hash":"sha256:9553048a3a6e465ceeb9d99161bc00faa0406d701f7336bcbfd63c5a6aa0e6a3"}} as unknown as DocumentNode<ConsoleSessionEndMutation, ConsoleSessionEndMutationVariables>;