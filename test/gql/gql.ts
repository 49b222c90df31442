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
    "\n  query RequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) {\n      id\n      status\n      requestCode\n      paidBy {\n        id\n      }\n      refunds {\n        id\n        amount\n      }\n    }\n  }\n": typeof types.RequestInfoDocument,
    "\n  query WalletRequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) {\n      id\n      status\n      requestCode\n      paidBy {\n        id\n      }\n    }\n  }\n": typeof types.WalletRequestInfoDocument,
    "\n  query TransactionInfo($id: ID!) {\n    transaction(id: $id) {\n      id\n      transactionType\n      amount\n      refundableAmount\n      refunds {\n        id\n        amount\n      }\n      request {\n        id\n        status\n      }\n    }\n  }\n": typeof types.TransactionInfoDocument,
    "\n  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {\n    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {\n      merchantId\n      name\n      clientId\n      items {\n        label\n        asset\n        account\n        index\n        methods\n        icon {\n          image\n          mimeType\n        }\n        units {\n          label\n          factor\n        }\n        fractionalDigits\n        precision\n      }\n    }\n  }\n": typeof types.MerchantConfigurationDocument,
    "\n  query ByShortCode($shortCode: String) {\n    paymentRequest(shortCode: $shortCode) {\n      id\n      shortCode\n      payUrl\n    }\n  }\n": typeof types.ByShortCodeDocument,
    "\n  query PayerAsksForRedirect($shortCode: String) {\n    paymentRequest(shortCode: $shortCode) {\n      id\n      redirectUrl\n    }\n  }\n": typeof types.PayerAsksForRedirectDocument,
    "\n  fragment ReachedRequest on PaymentRequest {\n    id\n    status\n    payments {\n      ledger\n      amount\n    }\n    paidBy {\n      id\n    }\n  }\n": typeof types.ReachedRequestFragmentDoc,
    "\n  query ReachedRequests($transactionId: ID!, $requestId: ID!) {\n    transaction(id: $transactionId) {\n      request {\n        ...ReachedRequest\n      }\n    }\n    paymentRequest(id: $requestId) {\n      webhookEvents {\n        request {\n          ...ReachedRequest\n        }\n      }\n    }\n    transactions(first: 10) {\n      edges {\n        node {\n          id\n          request {\n            ...ReachedRequest\n          }\n        }\n      }\n    }\n  }\n": typeof types.ReachedRequestsDocument,
    "\n  query OwnRequest($id: ID!) {\n    paymentRequest(id: $id) {\n      ...ReachedRequest\n    }\n  }\n": typeof types.OwnRequestDocument,
    "\n  query RequestEvents($id: ID!) {\n    paymentRequest(id: $id) {\n      webhookEvents {\n        id\n        url\n        state\n        attemptCount\n        transaction {\n          transactionType\n        }\n        attempts {\n          number\n        }\n      }\n    }\n  }\n": typeof types.RequestEventsDocument,
    "\n  query FailedEvents($states: [WebhookEventState!]) {\n    webhookEvents(states: $states) {\n      id\n      state\n    }\n  }\n": typeof types.FailedEventsDocument,
    "\n  mutation Redeliver($eventId: ID!) {\n    webhookEventRedeliver(eventId: $eventId) {\n      __typename\n      ... on WebhookEvent {\n        id\n        state\n        nextAttemptAt\n      }\n      ... on Error {\n        code\n      }\n    }\n  }\n": typeof types.RedeliverDocument,
    "\n  query DashboardRequests($first: Int, $after: String, $last: Int, $before: String, $filter: RequestFilter) {\n    paymentRequests(first: $first, after: $after, last: $last, before: $before, filter: $filter) {\n      edges {\n        cursor\n        node {\n          id\n          status\n          externalReference\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n": typeof types.DashboardRequestsDocument,
    "\n  query DashboardTransactions($filter: TransactionFilter) {\n    transactions(first: 10, filter: $filter) {\n      edges {\n        node {\n          id\n          transactionType\n          amount\n          refundableAmount\n          refunds {\n            amount\n          }\n        }\n      }\n    }\n  }\n": typeof types.DashboardTransactionsDocument,
    "\n  subscription DashboardRequestChanges($requestId: ID) {\n    paymentRequestChanged(requestId: $requestId) {\n      id\n      status\n      updatedAt\n    }\n  }\n": typeof types.DashboardRequestChangesDocument,
    "\n  query DashboardStats($from: DateTime!, $to: DateTime!, $bucket: StatsBucket!, $timeZone: String) {\n    merchantStats(from: $from, to: $to, bucket: $bucket, timeZone: $timeZone) {\n      buckets {\n        start\n        asset\n        created\n        paid\n        paidAmount\n        refundedAmount\n      }\n      totals {\n        start\n        asset\n        created\n        paid\n        paidAmount\n        refundedAmount\n      }\n      medianSecondsToPay\n    }\n  }\n": typeof types.DashboardStatsDocument,
    "\n  mutation CreateRequest($input: RequestCreateInput!, $key: String) {\n    requestCreate(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        requestCode\n        shortCode\n        payUrl\n        redirectUrl\n        expiresAt\n        denomination {\n          amount\n          asset\n        }\n        payments {\n          ledger\n          amount\n          methods\n        }\n        paidBy {\n          id\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.CreateRequestDocument,
    "\n  mutation PayRequest($input: RequestPayInput!, $key: String) {\n    requestPay(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        paidBy {\n          id\n          amount\n          ledger\n          createdAt\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.PayRequestDocument,
    "\n  mutation CancelRequest($input: RequestCancelInput!, $key: String) {\n    requestCancel(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        paidBy {\n          id\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.CancelRequestDocument,
    "\n  mutation RefundTransaction($input: TransactionRefundInput!, $key: String) {\n    transactionRefund(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on Transaction {\n        id\n        transactionType\n        amount\n        externalReference\n        purchase {\n          id\n          refundableAmount\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.RefundTransactionDocument,
};
const documents: Documents = {
    "\n  query RequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) {\n      id\n      status\n      requestCode\n      paidBy {\n        id\n      }\n      refunds {\n        id\n        amount\n      }\n    }\n  }\n": types.RequestInfoDocument,
    "\n  query WalletRequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) {\n      id\n      status\n      requestCode\n      paidBy {\n        id\n      }\n    }\n  }\n": types.WalletRequestInfoDocument,
    "\n  query TransactionInfo($id: ID!) {\n    transaction(id: $id) {\n      id\n      transactionType\n      amount\n      refundableAmount\n      refunds {\n        id\n        amount\n      }\n      request {\n        id\n        status\n      }\n    }\n  }\n": types.TransactionInfoDocument,
    "\n  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {\n    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {\n      merchantId\n      name\n      clientId\n      items {\n        label\n        asset\n        account\n        index\n        methods\n        icon {\n          image\n          mimeType\n        }\n        units {\n          label\n          factor\n        }\n        fractionalDigits\n        precision\n      }\n    }\n  }\n": types.MerchantConfigurationDocument,
    "\n  query ByShortCode($shortCode: String) {\n    paymentRequest(shortCode: $shortCode) {\n      id\n      shortCode\n      payUrl\n    }\n  }\n": types.ByShortCodeDocument,
    "\n  query PayerAsksForRedirect($shortCode: String) {\n    paymentRequest(shortCode: $shortCode) {\n      id\n      redirectUrl\n    }\n  }\n": types.PayerAsksForRedirectDocument,
    "\n  fragment ReachedRequest on PaymentRequest {\n    id\n    status\n    payments {\n      ledger\n      amount\n    }\n    paidBy {\n      id\n    }\n  }\n": types.ReachedRequestFragmentDoc,
    "\n  query ReachedRequests($transactionId: ID!, $requestId: ID!) {\n    transaction(id: $transactionId) {\n      request {\n        ...ReachedRequest\n      }\n    }\n    paymentRequest(id: $requestId) {\n      webhookEvents {\n        request {\n          ...ReachedRequest\n        }\n      }\n    }\n    transactions(first: 10) {\n      edges {\n        node {\n          id\n          request {\n            ...ReachedRequest\n          }\n        }\n      }\n    }\n  }\n": types.ReachedRequestsDocument,
    "\n  query OwnRequest($id: ID!) {\n    paymentRequest(id: $id) {\n      ...ReachedRequest\n    }\n  }\n": types.OwnRequestDocument,
    "\n  query RequestEvents($id: ID!) {\n    paymentRequest(id: $id) {\n      webhookEvents {\n        id\n        url\n        state\n        attemptCount\n        transaction {\n          transactionType\n        }\n        attempts {\n          number\n        }\n      }\n    }\n  }\n": types.RequestEventsDocument,
    "\n  query FailedEvents($states: [WebhookEventState!]) {\n    webhookEvents(states: $states) {\n      id\n      state\n    }\n  }\n": types.FailedEventsDocument,
    "\n  mutation Redeliver($eventId: ID!) {\n    webhookEventRedeliver(eventId: $eventId) {\n      __typename\n      ... on WebhookEvent {\n        id\n        state\n        nextAttemptAt\n      }\n      ... on Error {\n        code\n      }\n    }\n  }\n": types.RedeliverDocument,
    "\n  query DashboardRequests($first: Int, $after: String, $last: Int, $before: String, $filter: RequestFilter) {\n    paymentRequests(first: $first, after: $after, last: $last, before: $before, filter: $filter) {\n      edges {\n        cursor\n        node {\n          id\n          status\n          externalReference\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n": types.DashboardRequestsDocument,
    "\n  query DashboardTransactions($filter: TransactionFilter) {\n    transactions(first: 10, filter: $filter) {\n      edges {\n        node {\n          id\n          transactionType\n          amount\n          refundableAmount\n          refunds {\n            amount\n          }\n        }\n      }\n    }\n  }\n": types.DashboardTransactionsDocument,
    "\n  subscription DashboardRequestChanges($requestId: ID) {\n    paymentRequestChanged(requestId: $requestId) {\n      id\n      status\n      updatedAt\n    }\n  }\n": types.DashboardRequestChangesDocument,
    "\n  query DashboardStats($from: DateTime!, $to: DateTime!, $bucket: StatsBucket!, $timeZone: String) {\n    merchantStats(from: $from, to: $to, bucket: $bucket, timeZone: $timeZone) {\n      buckets {\n        start\n        asset\n        created\n        paid\n        paidAmount\n        refundedAmount\n      }\n      totals {\n        start\n        asset\n        created\n        paid\n        paidAmount\n        refundedAmount\n      }\n      medianSecondsToPay\n    }\n  }\n": types.DashboardStatsDocument,
    "\n  mutation CreateRequest($input: RequestCreateInput!, $key: String) {\n    requestCreate(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        requestCode\n        shortCode\n        payUrl\n        redirectUrl\n        expiresAt\n        denomination {\n          amount\n          asset\n        }\n        payments {\n          ledger\n          amount\n          methods\n        }\n        paidBy {\n          id\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": types.CreateRequestDocument,
    "\n  mutation PayRequest($input: RequestPayInput!, $key: String) {\n    requestPay(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        paidBy {\n          id\n          amount\n          ledger\n          createdAt\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": types.PayRequestDocument,
    "\n  mutation CancelRequest($input: RequestCancelInput!, $key: String) {\n    requestCancel(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        paidBy {\n          id\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": types.CancelRequestDocument,
    "\n  mutation RefundTransaction($input: TransactionRefundInput!, $key: String) {\n    transactionRefund(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on Transaction {\n        id\n        transactionType\n        amount\n        externalReference\n        purchase {\n          id\n          refundableAmount\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n": types.RefundTransactionDocument,
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
export function graphql(source: "\n  query RequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) {\n      id\n      status\n      requestCode\n      paidBy {\n        id\n      }\n      refunds {\n        id\n        amount\n      }\n    }\n  }\n"): (typeof documents)["\n  query RequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) {\n      id\n      status\n      requestCode\n      paidBy {\n        id\n      }\n      refunds {\n        id\n        amount\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WalletRequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) {\n      id\n      status\n      requestCode\n      paidBy {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  query WalletRequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) {\n      id\n      status\n      requestCode\n      paidBy {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TransactionInfo($id: ID!) {\n    transaction(id: $id) {\n      id\n      transactionType\n      amount\n      refundableAmount\n      refunds {\n        id\n        amount\n      }\n      request {\n        id\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  query TransactionInfo($id: ID!) {\n    transaction(id: $id) {\n      id\n      transactionType\n      amount\n      refundableAmount\n      refunds {\n        id\n        amount\n      }\n      request {\n        id\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {\n    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {\n      merchantId\n      name\n      clientId\n      items {\n        label\n        asset\n        account\n        index\n        methods\n        icon {\n          image\n          mimeType\n        }\n        units {\n          label\n          factor\n        }\n        fractionalDigits\n        precision\n      }\n    }\n  }\n"): (typeof documents)["\n  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {\n    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {\n      merchantId\n      name\n      clientId\n      items {\n        label\n        asset\n        account\n        index\n        methods\n        icon {\n          image\n          mimeType\n        }\n        units {\n          label\n          factor\n        }\n        fractionalDigits\n        precision\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ByShortCode($shortCode: String) {\n    paymentRequest(shortCode: $shortCode) {\n      id\n      shortCode\n      payUrl\n    }\n  }\n"): (typeof documents)["\n  query ByShortCode($shortCode: String) {\n    paymentRequest(shortCode: $shortCode) {\n      id\n      shortCode\n      payUrl\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PayerAsksForRedirect($shortCode: String) {\n    paymentRequest(shortCode: $shortCode) {\n      id\n      redirectUrl\n    }\n  }\n"): (typeof documents)["\n  query PayerAsksForRedirect($shortCode: String) {\n    paymentRequest(shortCode: $shortCode) {\n      id\n      redirectUrl\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ReachedRequest on PaymentRequest {\n    id\n    status\n    payments {\n      ledger\n      amount\n    }\n    paidBy {\n      id\n    }\n  }\n"): (typeof documents)["\n  fragment ReachedRequest on PaymentRequest {\n    id\n    status\n    payments {\n      ledger\n      amount\n    }\n    paidBy {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ReachedRequests($transactionId: ID!, $requestId: ID!) {\n    transaction(id: $transactionId) {\n      request {\n        ...ReachedRequest\n      }\n    }\n    paymentRequest(id: $requestId) {\n      webhookEvents {\n        request {\n          ...ReachedRequest\n        }\n      }\n    }\n    transactions(first: 10) {\n      edges {\n        node {\n          id\n          request {\n            ...ReachedRequest\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ReachedRequests($transactionId: ID!, $requestId: ID!) {\n    transaction(id: $transactionId) {\n      request {\n        ...ReachedRequest\n      }\n    }\n    paymentRequest(id: $requestId) {\n      webhookEvents {\n        request {\n          ...ReachedRequest\n        }\n      }\n    }\n    transactions(first: 10) {\n      edges {\n        node {\n          id\n          request {\n            ...ReachedRequest\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OwnRequest($id: ID!) {\n    paymentRequest(id: $id) {\n      ...ReachedRequest\n    }\n  }\n"): (typeof documents)["\n  query OwnRequest($id: ID!) {\n    paymentRequest(id: $id) {\n      ...ReachedRequest\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RequestEvents($id: ID!) {\n    paymentRequest(id: $id) {\n      webhookEvents {\n        id\n        url\n        state\n        attemptCount\n        transaction {\n          transactionType\n        }\n        attempts {\n          number\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query RequestEvents($id: ID!) {\n    paymentRequest(id: $id) {\n      webhookEvents {\n        id\n        url\n        state\n        attemptCount\n        transaction {\n          transactionType\n        }\n        attempts {\n          number\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FailedEvents($states: [WebhookEventState!]) {\n    webhookEvents(states: $states) {\n      id\n      state\n    }\n  }\n"): (typeof documents)["\n  query FailedEvents($states: [WebhookEventState!]) {\n    webhookEvents(states: $states) {\n      id\n      state\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Redeliver($eventId: ID!) {\n    webhookEventRedeliver(eventId: $eventId) {\n      __typename\n      ... on WebhookEvent {\n        id\n        state\n        nextAttemptAt\n      }\n      ... on Error {\n        code\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Redeliver($eventId: ID!) {\n    webhookEventRedeliver(eventId: $eventId) {\n      __typename\n      ... on WebhookEvent {\n        id\n        state\n        nextAttemptAt\n      }\n      ... on Error {\n        code\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardRequests($first: Int, $after: String, $last: Int, $before: String, $filter: RequestFilter) {\n    paymentRequests(first: $first, after: $after, last: $last, before: $before, filter: $filter) {\n      edges {\n        cursor\n        node {\n          id\n          status\n          externalReference\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardRequests($first: Int, $after: String, $last: Int, $before: String, $filter: RequestFilter) {\n    paymentRequests(first: $first, after: $after, last: $last, before: $before, filter: $filter) {\n      edges {\n        cursor\n        node {\n          id\n          status\n          externalReference\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardTransactions($filter: TransactionFilter) {\n    transactions(first: 10, filter: $filter) {\n      edges {\n        node {\n          id\n          transactionType\n          amount\n          refundableAmount\n          refunds {\n            amount\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardTransactions($filter: TransactionFilter) {\n    transactions(first: 10, filter: $filter) {\n      edges {\n        node {\n          id\n          transactionType\n          amount\n          refundableAmount\n          refunds {\n            amount\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardRequestChanges($requestId: ID) {\n    paymentRequestChanged(requestId: $requestId) {\n      id\n      status\n      updatedAt\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardRequestChanges($requestId: ID) {\n    paymentRequestChanged(requestId: $requestId) {\n      id\n      status\n      updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardStats($from: DateTime!, $to: DateTime!, $bucket: StatsBucket!, $timeZone: String) {\n    merchantStats(from: $from, to: $to, bucket: $bucket, timeZone: $timeZone) {\n      buckets {\n        start\n        asset\n        created\n        paid\n        paidAmount\n        refundedAmount\n      }\n      totals {\n        start\n        asset\n        created\n        paid\n        paidAmount\n        refundedAmount\n      }\n      medianSecondsToPay\n    }\n  }\n"): (typeof documents)["\n  query DashboardStats($from: DateTime!, $to: DateTime!, $bucket: StatsBucket!, $timeZone: String) {\n    merchantStats(from: $from, to: $to, bucket: $bucket, timeZone: $timeZone) {\n      buckets {\n        start\n        asset\n        created\n        paid\n        paidAmount\n        refundedAmount\n      }\n      totals {\n        start\n        asset\n        created\n        paid\n        paidAmount\n        refundedAmount\n      }\n      medianSecondsToPay\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateRequest($input: RequestCreateInput!, $key: String) {\n    requestCreate(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        requestCode\n        shortCode\n        payUrl\n        redirectUrl\n        expiresAt\n        denomination {\n          amount\n          asset\n        }\n        payments {\n          ledger\n          amount\n          methods\n        }\n        paidBy {\n          id\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateRequest($input: RequestCreateInput!, $key: String) {\n    requestCreate(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        requestCode\n        shortCode\n        payUrl\n        redirectUrl\n        expiresAt\n        denomination {\n          amount\n          asset\n        }\n        payments {\n          ledger\n          amount\n          methods\n        }\n        paidBy {\n          id\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PayRequest($input: RequestPayInput!, $key: String) {\n    requestPay(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        paidBy {\n          id\n          amount\n          ledger\n          createdAt\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation PayRequest($input: RequestPayInput!, $key: String) {\n    requestPay(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        paidBy {\n          id\n          amount\n          ledger\n          createdAt\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelRequest($input: RequestCancelInput!, $key: String) {\n    requestCancel(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        paidBy {\n          id\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CancelRequest($input: RequestCancelInput!, $key: String) {\n    requestCancel(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on PaymentRequest {\n        id\n        status\n        paidBy {\n          id\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RefundTransaction($input: TransactionRefundInput!, $key: String) {\n    transactionRefund(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on Transaction {\n        id\n        transactionType\n        amount\n        externalReference\n        purchase {\n          id\n          refundableAmount\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RefundTransaction($input: TransactionRefundInput!, $key: String) {\n    transactionRefund(input: $input, idempotencyKey: $key) {\n      __typename\n      ... on Transaction {\n        id\n        transactionType\n        amount\n        externalReference\n        purchase {\n          id\n          refundableAmount\n        }\n      }\n      ... on Error {\n        code\n        message\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;