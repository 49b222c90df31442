type Schema = Record<string, unknown>;

const code = {
  name: "code",
  in: "path",
  required: true,
  description: "The request's requestCode, or its shortCode (PR-XXX-XXX; any case, dashes optional).",
  schema: { type: "string" },
};
const html = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const refusal = {
  description: "Refused: `error.code` is the CODE (REQUEST_NOT_FOUND 404, FORBIDDEN 403, RATE_LIMIT_EXCEEDED 429, …).",
  content: {
    "application/json": {
      schema: {
        type: "object",
        properties: { error: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } } },
      },
    },
  },
};
const page = { tags: ["pay page"], security: [] };

/** The pay page's addresses in the OpenAPI document (src/http/rest/openapi.ts): public, no API key. */
export function payPagePaths(payerView: Schema) {
  return { ...pages(payerView), ...views(payerView) };
}

/** The pages, and the payment their form posts. */
function pages(payerView: Schema) {
  return {
    "/pay": {
      get: {
        ...page,
        operationId: "payPage.enterCode",
        summary: "A form to type a payment code; with ?code= it redirects to that request's page (404 when unknown).",
        parameters: [{ name: "code", in: "query", required: false, schema: { type: "string" } }],
        responses: { "200": html("The form."), "303": { description: "To the request's page." }, "404": html("Unknown code.") },
      },
    },
    "/pay/{code}": {
      get: {
        ...page,
        operationId: "payPage.show",
        summary: "The request's hosted pay page (payUrl, legacy qrCode), in the browser's language (English or Spanish).",
        parameters: [code],
        responses: { "200": html("The page: open, paid (a receipt), expired or cancelled."), "404": html("Unknown code.") },
      },
      post: {
        ...page,
        operationId: "payPage.pay",
        summary: "Pay with a sandbox wallet, from the page's form (CSRF token and idempotency key included).",
        parameters: [code],
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                required: ["wallet", "csrf", "idempotencyKey"],
                properties: {
                  wallet: { type: "string", description: "The sandbox wallet's id (the authorization)." },
                  csrf: { type: "string", description: "The page's token; must match its SameSite=Strict cookie." },
                  idempotencyKey: { type: "string", description: "The page's key: a double submit pays once." },
                },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "Paid (Accept: application/json): the payer's view.",
            content: { "application/json": { schema: payerView } },
          },
          "303": { description: "A plain form post: back to the page, with ?error=CODE when refused." },
          default: refusal,
        },
      },
    },
  };
}

/** What the page reads: the payer's view, its stream, the QR code. */
function views(payerView: Schema) {
  return {
    "/pay/{code}/status": {
      get: {
        ...page,
        operationId: "payPage.status",
        summary: "The payer's view of the request, as a payer key reads it.",
        parameters: [code],
        responses: {
          "200": { description: "The payer's view.", content: { "application/json": { schema: payerView } } },
          default: refusal,
        },
      },
    },
    "/pay/{code}/events": {
      get: {
        ...page,
        operationId: "payPage.events",
        summary: "Server-sent events: a `status` event (the payer's view) now and at every change, until the request is final.",
        parameters: [code],
        responses: {
          "200": { description: "The stream.", content: { "text/event-stream": { schema: { type: "string" } } } },
          default: refusal,
        },
      },
    },
    "/pay/{code}/qr.svg": {
      get: {
        ...page,
        operationId: "payPage.qrCode",
        summary: "The QR code of the page's address.",
        parameters: [code],
        responses: {
          "200": { description: "SVG", content: { "image/svg+xml": { schema: { type: "string" } } } },
          default: refusal,
        },
      },
    },
  };
}
