/**
 * The operations a merchant dashboard sends, in one place. GraphQL Code Generator turns them into
 * typed documents (test/gql/); the tests use those, and a dashboard can copy this file as a start.
 */
import { graphql } from "../gql/index.js";

export const Requests = graphql(`
  query DashboardRequests($first: Int, $after: String, $last: Int, $before: String, $filter: RequestFilter) {
    paymentRequests(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
      edges {
        cursor
        node {
          id
          status
          externalReference
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`);

export const Transactions = graphql(`
  query DashboardTransactions($filter: TransactionFilter) {
    transactions(first: 10, filter: $filter) {
      edges {
        node {
          id
          transactionType
          amount
          refundableAmount
          refunds {
            amount
          }
        }
      }
    }
  }
`);

export const RequestChanges = graphql(`
  subscription DashboardRequestChanges($requestId: ID) {
    paymentRequestChanged(requestId: $requestId) {
      id
      status
      updatedAt
    }
  }
`);

export const Stats = graphql(`
  query DashboardStats($from: DateTime!, $to: DateTime!, $bucket: StatsBucket!, $timeZone: String) {
    merchantStats(from: $from, to: $to, bucket: $bucket, timeZone: $timeZone) {
      buckets {
        start
        asset
        created
        paid
        paidAmount
        refundedAmount
      }
      totals {
        start
        asset
        created
        paid
        paidAmount
        refundedAmount
      }
      medianSecondsToPay
    }
  }
`);
