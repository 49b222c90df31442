import { PAYER_FIELDS } from "../domain/requests/visibility.js";

type PayerFields = typeof PAYER_FIELDS;

/**
 * Field options that open one field of a merchants-only type to payer keys. The field must be in
 * the domain's payer view (domain/requests/visibility.ts), or this does not type-check.
 */
export function readableByPayers<T extends keyof PayerFields>(_type: T, _field: PayerFields[T][number]) {
  return { skipTypeScopes: true } as const;
}

/** Type options: only merchant keys may read the type's fields, unless a field is readableByPayers. */
export const merchantsOnly = { authScopes: { merchant: true } } as const;
