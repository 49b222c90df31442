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
    "\n  mutation CreateRequest($input: RequestCreateInput!) {\n    requestCreate(input: $input) {\n      __typename\n      ... on PaymentRequest { id status requestCode expiresAt denomination { amount asset } payments { ledger amount methods } paidBy { id } }\n      ... on Error { code message }\n    }\n  }\n": typeof types.CreateRequestDocument,
    "\n  mutation PayRequest($input: RequestPayInput!) {\n    requestPay(input: $input) {\n      __typename\n      ... on PaymentRequest { id status paidBy { id transactionType amount ledger authCode responseCode } }\n      ... on Error { code message }\n    }\n  }\n": typeof types.PayRequestDocument,
    "\n  mutation CancelRequest($input: RequestCancelInput!) {\n    requestCancel(input: $input) {\n      __typename\n      ... on PaymentRequest { id status paidBy { id } }\n      ... on Error { code message }\n    }\n  }\n": typeof types.CancelRequestDocument,
    "\n  mutation RefundTransaction($input: TransactionRefundInput!) {\n    transactionRefund(input: $input) {\n      __typename\n      ... on Transaction { id transactionType amount externalReference purchase { id refundableAmount } }\n      ... on Error { code message }\n    }\n  }\n": typeof types.RefundTransactionDocument,
    "\n  query RequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) { id status requestCode paidBy { id } refunds { id amount } }\n  }\n": typeof types.RequestInfoDocument,
    "\n  query TransactionInfo($id: ID!) {\n    transaction(id: $id) { id transactionType amount refundableAmount refunds { id amount } request { id status } }\n  }\n": typeof types.TransactionInfoDocument,
    "\n  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {\n    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {\n      merchantId name clientId\n      items { label asset account index methods icon { image mimeType } units { label factor } fractionalDigits precision }\n    }\n  }\n": typeof types.MerchantConfigurationDocument,
};
const documents: Documents = {
    "\n  mutation CreateRequest($input: RequestCreateInput!) {\n    requestCreate(input: $input) {\n      __typename\n      ... on PaymentRequest { id status requestCode expiresAt denomination { amount asset } payments { ledger amount methods } paidBy { id } }\n      ... on Error { code message }\n    }\n  }\n": types.CreateRequestDocument,
    "\n  mutation PayRequest($input: RequestPayInput!) {\n    requestPay(input: $input) {\n      __typename\n      ... on PaymentRequest { id status paidBy { id transactionType amount ledger authCode responseCode } }\n      ... on Error { code message }\n    }\n  }\n": types.PayRequestDocument,
    "\n  mutation CancelRequest($input: RequestCancelInput!) {\n    requestCancel(input: $input) {\n      __typename\n      ... on PaymentRequest { id status paidBy { id } }\n      ... on Error { code message }\n    }\n  }\n": types.CancelRequestDocument,
    "\n  mutation RefundTransaction($input: TransactionRefundInput!) {\n    transactionRefund(input: $input) {\n      __typename\n      ... on Transaction { id transactionType amount externalReference purchase { id refundableAmount } }\n      ... on Error { code message }\n    }\n  }\n": types.RefundTransactionDocument,
    "\n  query RequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) { id status requestCode paidBy { id } refunds { id amount } }\n  }\n": types.RequestInfoDocument,
    "\n  query TransactionInfo($id: ID!) {\n    transaction(id: $id) { id transactionType amount refundableAmount refunds { id amount } request { id status } }\n  }\n": types.TransactionInfoDocument,
    "\n  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {\n    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {\n      merchantId name clientId\n      items { label asset account index methods icon { image mimeType } units { label factor } fractionalDigits precision }\n    }\n  }\n": types.MerchantConfigurationDocument,
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
export function graphql(source: "\n  mutation CreateRequest($input: RequestCreateInput!) {\n    requestCreate(input: $input) {\n      __typename\n      ... on PaymentRequest { id status requestCode expiresAt denomination { amount asset } payments { ledger amount methods } paidBy { id } }\n      ... on Error { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateRequest($input: RequestCreateInput!) {\n    requestCreate(input: $input) {\n      __typename\n      ... on PaymentRequest { id status requestCode expiresAt denomination { amount asset } payments { ledger amount methods } paidBy { id } }\n      ... on Error { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PayRequest($input: RequestPayInput!) {\n    requestPay(input: $input) {\n      __typename\n      ... on PaymentRequest { id status paidBy { id transactionType amount ledger authCode responseCode } }\n      ... on Error { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation PayRequest($input: RequestPayInput!) {\n    requestPay(input: $input) {\n      __typename\n      ... on PaymentRequest { id status paidBy { id transactionType amount ledger authCode responseCode } }\n      ... on Error { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelRequest($input: RequestCancelInput!) {\n    requestCancel(input: $input) {\n      __typename\n      ... on PaymentRequest { id status paidBy { id } }\n      ... on Error { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation CancelRequest($input: RequestCancelInput!) {\n    requestCancel(input: $input) {\n      __typename\n      ... on PaymentRequest { id status paidBy { id } }\n      ... on Error { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RefundTransaction($input: TransactionRefundInput!) {\n    transactionRefund(input: $input) {\n      __typename\n      ... on Transaction { id transactionType amount externalReference purchase { id refundableAmount } }\n      ... on Error { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RefundTransaction($input: TransactionRefundInput!) {\n    transactionRefund(input: $input) {\n      __typename\n      ... on Transaction { id transactionType amount externalReference purchase { id refundableAmount } }\n      ... on Error { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) { id status requestCode paidBy { id } refunds { id amount } }\n  }\n"): (typeof documents)["\n  query RequestInfo($id: ID, $requestCode: String) {\n    paymentRequest(id: $id, requestCode: $requestCode) { id status requestCode paidBy { id } refunds { id amount } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TransactionInfo($id: ID!) {\n    transaction(id: $id) { id transactionType amount refundableAmount refunds { id amount } request { id status } }\n  }\n"): (typeof documents)["\n  query TransactionInfo($id: ID!) {\n    transaction(id: $id) { id transactionType amount refundableAmount refunds { id amount } request { id status } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {\n    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {\n      merchantId name clientId\n      items { label asset account index methods icon { image mimeType } units { label factor } fractionalDigits precision }\n    }\n  }\n"): (typeof documents)["\n  query MerchantConfiguration($merchantId: ID!, $clientId: ID) {\n    merchantConfiguration(merchantId: $merchantId, clientId: $clientId) {\n      merchantId name clientId\n      items { label asset account index methods icon { image mimeType } units { label factor } fractionalDigits precision }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;