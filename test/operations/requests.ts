/**
 * The mutations of a payment request's life, one document each, which every test sends: create,
 * pay, cancel and refund, each with an optional idempotency key. GraphQL Code Generator turns them
 * into typed documents (test/gql/).
 */
import { graphql } from "../gql/index.js";

export const CreateRequest = graphql(`
  mutation CreateRequest($input: RequestCreateInput!, $key: String) {
    requestCreate(input: $input, idempotencyKey: $key) {
      __typename
      ... on PaymentRequest {
        id
        status
        requestCode
        shortCode
        payUrl
        redirectUrl
        expiresAt
        denomination {
          amount
          asset
        }
        payments {
          ledger
          amount
          methods
        }
        paidBy {
          id
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const PayRequest = graphql(`
  mutation PayRequest($input: RequestPayInput!, $key: String) {
    requestPay(input: $input, idempotencyKey: $key) {
      __typename
      ... on PaymentRequest {
        id
        status
        paidBy {
          id
          amount
          ledger
          createdAt
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const CancelRequest = graphql(`
  mutation CancelRequest($input: RequestCancelInput!, $key: String) {
    requestCancel(input: $input, idempotencyKey: $key) {
      __typename
      ... on PaymentRequest {
        id
        status
        paidBy {
          id
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const RefundTransaction = graphql(`
  mutation RefundTransaction($input: TransactionRefundInput!, $key: String) {
    transactionRefund(input: $input, idempotencyKey: $key) {
      __typename
      ... on Transaction {
        id
        transactionType
        amount
        externalReference
        purchase {
          id
          refundableAmount
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`);
