import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { ValidationError } from "../../domain/errors.js";
import { formParams } from "../../transport/form-params.js";
import { JsonNumberText, parseJson } from "../../transport/json.js";
import { declaredBodyLength, MAX_BODY_BYTES } from "../limits.js";

export type Params = Record<string, unknown>;

/**
 * The legacy parameters of a call: the query string, overlaid by the body (JSON or form-encoded),
 * on GET as on POST. Legacy clients send bodies with GET too; the Fetch API drops those, so on a
 * real socket they are read from the Node request.
 */
export async function readParams(c: Context): Promise<Params> {
  return mergeParams(new URL(c.req.url).search.slice(1), await readBodyText(c), c.req.header("content-type"));
}

/**
 * The query string's parameters overlaid by those of the body, read as its content type says
 * (form-encoded when none is given). A blank body adds nothing, whatever its type.
 */
export function mergeParams(search: string, text: string, contentType: string | undefined): Params {
  const query = formParams(search);
  if (!text.trim()) return query;

  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") return { ...query, ...parseJsonObject(text) };
  if (type === "application/x-www-form-urlencoded" || type === "") return { ...query, ...formParams(text) };
  throw new ValidationError(
    "BAD_REQUEST",
    `Unsupported content type ${type}; send application/x-www-form-urlencoded or application/json.`,
  );
}

function parseJsonObject(text: string): Params {
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    throw new ValidationError("BAD_REQUEST", "The body is not valid JSON.");
  }
  // A bare number outside the integer grammar (1.5, 1e3) is parsed as a JsonNumberText object.
  if (typeof body !== "object" || body === null || Array.isArray(body) || body instanceof JsonNumberText) {
    throw new ValidationError("BAD_REQUEST", "The JSON body must be an object of parameters.");
  }
  if (nestedDeeperThan(body, MAX_DEPTH)) {
    throw new ValidationError("BAD_REQUEST", `The JSON body is nested deeper than ${MAX_DEPTH} levels.`);
  }
  return body as Params;
}

/** How deep a JSON body may nest: parameters are flat; anything deeper is refused before it is read further. */
const MAX_DEPTH = 16;

/** Whether a parsed JSON value nests deeper than `max` (walked without recursion, so any depth is safe). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

async function readBodyText(c: Context): Promise<string> {
  const length = declaredBodyLength(c.req.raw.headers);
  if (length !== null && length > MAX_BODY_BYTES) throw tooLarge();
  const bodied = c.req.method !== "GET" && c.req.method !== "HEAD";
  // Read in one go, without making the Fetch API's body stream (a large share of a call's cost).
  if (bodied && length !== null) return c.req.raw.text();
  const declared = length ?? 0;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  // A GET's body (legacy clients send some) is read from Node's request: asking the Fetch API's
  // Request for it would build that whole Request for every GET, a large share of a read's cost.
  const stream: AsyncIterable<Uint8Array> | null =
    (bodied ? (c.req.raw.body as AsyncIterable<Uint8Array> | null) : null) ??
    (incoming && (declared > 0 || c.req.header("transfer-encoding")) ? incoming : null);
  if (!stream) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge() {
  return new ValidationError("BAD_REQUEST", `The body is larger than ${MAX_BODY_BYTES} bytes.`);
}
