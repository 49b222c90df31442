import {
  ApiKeyKind,
  ConnectorKind,
  EventType,
  PaymentMethod,
  RequestStatus,
  TransactionState,
  TransactionType,
  WebhookAttemptOutcome,
  WebhookEventState,
} from "../generated/prisma/enums.js";
import type {
  Activity,
  ApiKey,
  ConfigurationItem,
  Event,
  IdempotencyKey,
  Ledger,
  Merchant,
  PaymentOption,
  PaymentRequest,
  SandboxWallet,
  Transaction,
  WebhookAttempt,
  WebhookDestination,
  WebhookEndpoint,
  WebhookEvent,
} from "../generated/prisma/client.js";
import { arrayOf, bigint, boolean, enumOf, int, json, nullable, text, timestamp, uuid } from "./columns.js";
import { Table } from "./table.js";

/**
 * The tables plain SQL reads and writes, one Table per Prisma model: the model's generated type
 * demands a column for each of its fields, and test/sql checks each against the migrated database.
 */

export const paymentRequests = new Table<PaymentRequest>("payment_request", {
  id: uuid(),
  merchantId: uuid(),
  clientId: nullable(uuid()),
  externalReference: nullable(text()),
  asset: text(),
  amount: bigint(),
  requestCode: text(),
  shortCode: text(),
  description: nullable(text()),
  status: enumOf(RequestStatus, "RequestStatus"),
  paymentExpirySeconds: int(),
  expiresAt: timestamp(),
  notifyUrl: nullable(text()),
  redirectUrl: nullable(text()),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const paymentOptions = new Table<PaymentOption>("payment_option", {
  id: uuid(),
  requestId: uuid(),
  index: int(),
  ledgerId: text(),
  amount: bigint(),
  account: nullable(text()),
  methods: arrayOf(enumOf(PaymentMethod, "PaymentMethod")),
});

export const transactions = new Table<Transaction>("transaction", {
  id: uuid(),
  type: enumOf(TransactionType, "TransactionType"),
  state: enumOf(TransactionState, "TransactionState"),
  requestId: uuid(),
  merchantId: uuid(),
  ledgerId: text(),
  amount: bigint(),
  account: text(),
  authCode: text(),
  responseCode: text(),
  paymentType: text(),
  receipt: nullable(text()),
  settlementDate: timestamp(),
  payerReference: nullable(text()),
  purchaseId: nullable(uuid()),
  externalReference: nullable(text()),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const ledgers = new Table<Ledger>("ledger", {
  id: text(),
  currency: nullable(text()),
  connector: enumOf(ConnectorKind, "ConnectorKind"),
  enabled: boolean(),
  createdAt: timestamp(),
});

export const merchants = new Table<Merchant>("merchant", {
  id: uuid(),
  name: text(),
  allowedRedirectUrls: arrayOf(text()),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const configurationItems = new Table<ConfigurationItem>("configuration_item", {
  id: uuid(),
  merchantId: uuid(),
  clientId: nullable(uuid()),
  index: int(),
  label: text(),
  ledgerId: text(),
  currency: text(),
  account: nullable(text()),
  methods: arrayOf(enumOf(PaymentMethod, "PaymentMethod")),
  iconImage: nullable(text()),
  iconMimeType: nullable(text()),
  unitsLabel: text(),
  unitsFactor: int(),
  fractionalDigits: int(),
  precision: int(),
});

export const apiKeys = new Table<ApiKey>("api_key", {
  id: uuid(),
  prefix: text(),
  hash: text(),
  kind: enumOf(ApiKeyKind, "ApiKeyKind"),
  merchantId: nullable(uuid()),
  label: nullable(text()),
  rateLimitPerMinute: nullable(int()),
  createdAt: timestamp(),
  revokedAt: nullable(timestamp()),
  lastUsedAt: nullable(timestamp()),
});

export const sandboxWallets = new Table<SandboxWallet>("sandbox_wallet", {
  id: uuid(),
  currency: text(),
  balance: bigint(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const activities = new Table<Activity>("activity", {
  id: uuid(),
  merchantId: nullable(uuid()),
  requestId: nullable(uuid()),
  transactionId: nullable(uuid()),
  action: text(),
  actor: text(),
  correlationId: nullable(text()),
  outcome: text(),
  createdAt: timestamp(),
  seq: bigint(),
});

export const idempotencyKeys = new Table<IdempotencyKey>("idempotency_key", {
  apiKeyPrefix: text(),
  key: text(),
  fingerprint: text(),
  outcome: nullable(json()),
  entityId: nullable(uuid()),
  createdAt: timestamp(),
  expiresAt: timestamp(),
});

export const webhookEvents = new Table<WebhookEvent>("webhook_event", {
  id: uuid(),
  merchantId: uuid(),
  requestId: nullable(uuid()),
  transactionId: nullable(uuid()),
  endpointId: nullable(uuid()),
  eventId: nullable(uuid()),
  type: nullable(enumOf(EventType, "EventType")),
  url: text(),
  destination: uuid(),
  payload: json(),
  state: enumOf(WebhookEventState, "WebhookEventState"),
  attempts: int(),
  attemptLimit: nullable(int()),
  nextAttemptAt: timestamp(),
  enqueuedAt: nullable(timestamp()),
  leaseUntil: nullable(timestamp()),
  lastError: nullable(text()),
  correlationId: nullable(text()),
  traceparent: nullable(text()),
  deliveredAt: nullable(timestamp()),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const webhookDestinations = new Table<WebhookDestination>("webhook_destination", {
  id: uuid(),
  merchantId: uuid(),
  failures: int(),
  quick: boolean(),
  updatedAt: timestamp(),
});

export const webhookAttempts = new Table<WebhookAttempt>("webhook_attempt", {
  id: uuid(),
  eventId: uuid(),
  number: int(),
  startedAt: timestamp(),
  durationMs: nullable(int()),
  outcome: enumOf(WebhookAttemptOutcome, "WebhookAttemptOutcome"),
  statusCode: nullable(int()),
  error: nullable(text()),
  responseExcerpt: nullable(text()),
  endpointId: nullable(uuid()),
});

export const events = new Table<Event>("event", {
  id: uuid(),
  merchantId: uuid(),
  type: enumOf(EventType, "EventType"),
  requestId: uuid(),
  transactionId: nullable(uuid()),
  payload: json(),
  createdAt: timestamp(),
});

export const webhookEndpoints = new Table<WebhookEndpoint>("webhook_endpoint", {
  id: uuid(),
  merchantId: uuid(),
  url: text(),
  eventTypes: arrayOf(enumOf(EventType, "EventType")),
  description: nullable(text()),
  enabled: boolean(),
  disabledReason: nullable(text()),
  disabledAt: nullable(timestamp()),
  failingSince: nullable(timestamp()),
  recoveredAt: nullable(timestamp()),
  recoveredCount: nullable(int()),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
