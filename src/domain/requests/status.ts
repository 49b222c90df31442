import type { PaymentRequest, RequestStatus } from "../../generated/prisma/client.js";
import { StateConflictError } from "../errors.js";

/** A request past `expiresAt` reads as EXPIRED even before the sweep has stored it. */
export function effectiveStatus(request: Pick<PaymentRequest, "status" | "expiresAt">, now: Date): RequestStatus {
  return request.status === "NEW" && request.expiresAt <= now ? "EXPIRED" : request.status;
}

/** Throws the contract's state-conflict error unless the request can still be paid or cancelled. */
export function assertOpen(request: Pick<PaymentRequest, "status" | "expiresAt">, now: Date): void {
  switch (effectiveStatus(request, now)) {
    case "NEW":
      return;
    case "PAID":
      throw new StateConflictError("REQUEST_PAID", "The request has already been paid.");
    case "CANCELLED":
      throw new StateConflictError("REQUEST_CANCELLED", "The request has been cancelled.");
    case "EXPIRED":
      throw new StateConflictError("REQUEST_EXPIRED", "The request has expired.");
  }
}
