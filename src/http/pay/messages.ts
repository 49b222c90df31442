/**
 * The pay page's words, in English and Spanish. A page is in the first language of the browser's
 * Accept-Language that has messages here (English otherwise); the script reads the same messages
 * from the page, so everything a payer reads comes from this file.
 */
export const messages = {
  en: {
    title: "Pay {merchant}",
    payTitle: "Pay a payment request",
    amountDue: "Amount due",
    amount: "Amount",
    reference: "Description",
    expiresIn: "Expires in",
    expired: "This payment request has expired.",
    expiredTitle: "Payment request expired",
    cancelled: "The merchant cancelled this payment request.",
    cancelledTitle: "Payment request cancelled",
    notFound: "There is no payment request with this code. Check the code and try again.",
    notFoundTitle: "Payment request not found",
    status: "Status",
    statusNEW: "Waiting for payment",
    statusPAID: "Paid",
    statusCANCELLED: "Cancelled",
    statusEXPIRED: "Expired",
    payWithWallet: "Pay with a sandbox wallet",
    walletId: "Wallet id",
    walletHelp: "The id of a sandbox wallet that holds {asset}.",
    payButton: "Pay {amount}",
    paying: "Paying…",
    payWithApp: "Pay with a wallet app",
    scanOrType: "Scan the QR code with your wallet app, or type one of these codes into it.",
    requestCode: "Request code",
    shortCode: "Short code",
    qrLabel: "QR code of this page's address",
    receipt: "Receipt",
    paidAmount: "Amount paid",
    paidAt: "Paid at",
    transactionId: "Transaction id",
    backToMerchant: "Return to {merchant}",
    enterCode: "Enter the code you were given",
    codeLabel: "Payment code",
    codeHelp: "For example PR-7KX-2QD.",
    findButton: "Find the payment request",
    errorINSUFFICIENT_ASSET_BALANCE: "The wallet does not hold enough to pay this.",
    errorINACTIVE_ASSET: "There is no such wallet for this currency.",
    errorINVALID_AUTHORIZATION: "Enter a wallet id.",
    errorREQUEST_PAID: "This payment request has already been paid.",
    errorREQUEST_EXPIRED: "This payment request has expired.",
    errorREQUEST_CANCELLED: "The merchant cancelled this payment request.",
    errorRATE_LIMIT_EXCEEDED: "Too many attempts. Wait a minute and try again.",
    errorFORBIDDEN: "This form has expired. Reload the page and try again.",
    errorOTHER: "The payment did not go through. Try again.",
    live: "This page updates by itself.",
    hours: "{h} h {m} min",
    minutes: "{m} min {s} s",
    seconds: "{s} s",
  },
  es: {
    title: "Pagar a {merchant}",
    payTitle: "Pagar una solicitud de pago",
    amountDue: "Importe a pagar",
    amount: "Importe",
    reference: "Descripción",
    expiresIn: "Vence en",
    expired: "Esta solicitud de pago ha vencido.",
    expiredTitle: "Solicitud de pago vencida",
    cancelled: "El comercio canceló esta solicitud de pago.",
    cancelledTitle: "Solicitud de pago cancelada",
    notFound: "No hay ninguna solicitud de pago con este código. Revise el código e inténtelo de nuevo.",
    notFoundTitle: "Solicitud de pago no encontrada",
    status: "Estado",
    statusNEW: "Esperando el pago",
    statusPAID: "Pagada",
    statusCANCELLED: "Cancelada",
    statusEXPIRED: "Vencida",
    payWithWallet: "Pagar con un monedero de pruebas",
    walletId: "Id del monedero",
    walletHelp: "El id de un monedero de pruebas con saldo en {asset}.",
    payButton: "Pagar {amount}",
    paying: "Pagando…",
    payWithApp: "Pagar con una app de monedero",
    scanOrType: "Escanee el código QR con su app de monedero, o escriba en ella uno de estos códigos.",
    requestCode: "Código de la solicitud",
    shortCode: "Código corto",
    qrLabel: "Código QR de la dirección de esta página",
    receipt: "Recibo",
    paidAmount: "Importe pagado",
    paidAt: "Pagada el",
    transactionId: "Id de la transacción",
    backToMerchant: "Volver a {merchant}",
    enterCode: "Escriba el código que le dieron",
    codeLabel: "Código de pago",
    codeHelp: "Por ejemplo PR-7KX-2QD.",
    findButton: "Buscar la solicitud de pago",
    errorINSUFFICIENT_ASSET_BALANCE: "El monedero no tiene saldo suficiente.",
    errorINACTIVE_ASSET: "No existe ese monedero para esta moneda.",
    errorINVALID_AUTHORIZATION: "Escriba el id de un monedero.",
    errorREQUEST_PAID: "Esta solicitud de pago ya está pagada.",
    errorREQUEST_EXPIRED: "Esta solicitud de pago ha vencido.",
    errorREQUEST_CANCELLED: "El comercio canceló esta solicitud de pago.",
    errorRATE_LIMIT_EXCEEDED: "Demasiados intentos. Espere un minuto e inténtelo de nuevo.",
    errorFORBIDDEN: "Este formulario ha caducado. Recargue la página e inténtelo de nuevo.",
    errorOTHER: "El pago no se realizó. Inténtelo de nuevo.",
    live: "Esta página se actualiza sola.",
    hours: "{h} h {m} min",
    minutes: "{m} min {s} s",
    seconds: "{s} s",
  },
} as const satisfies Record<string, Record<string, string>>;

export type Language = keyof typeof messages;
export type Messages = Record<keyof (typeof messages)["en"], string>;

/** Every language has every message: checked by the compiler. */
const _complete: Record<Language, Messages> = messages;
void _complete;

/** The first language of an Accept-Language header (by its q-values) that has messages; English otherwise. */
export function chooseLanguage(acceptLanguage: string | undefined): Language {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, order) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { primary: tag.trim().toLowerCase().split("-")[0]!, q: q ? Number(q.slice(2)) : 1, order };
    })
    .filter((entry) => entry.primary && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { primary } of ranked) if (Object.hasOwn(messages, primary)) return primary as Language;
  return "en";
}

/** A message with its `{name}` places filled. */
export function say(words: Messages, key: keyof Messages, values: Record<string, string> = {}): string {
  return words[key].replace(/\{(\w+)\}/g, (place, name: string) => values[name] ?? place);
}
