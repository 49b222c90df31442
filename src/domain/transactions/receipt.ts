/** A plain-text receipt for the payer, Base64-encoded as the spec's `receipt` fields are. */
export function receiptFor(lines: {
  kind: "PURCHASE" | "REFUND";
  amount: bigint;
  asset: string;
  ledgerId: string;
  authCode: string;
  at: Date;
}): string {
  const text = [
    lines.kind === "PURCHASE" ? "PAYMENT RECEIPT" : "REFUND RECEIPT",
    `Amount: ${lines.amount} minimum units of ${lines.asset}`,
    `Ledger: ${lines.ledgerId}`,
    `Auth code: ${lines.authCode}`,
    `Time: ${lines.at.toISOString()}`,
  ].join("\n");
  return Buffer.from(text, "utf8").toString("base64");
}
