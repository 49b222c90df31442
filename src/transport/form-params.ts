/**
 * Form-encoded parameters (a query string or a body). Percent-encoded bytes that are not UTF-8 (an
 * encoded lone surrogate, say) are not read as U+FFFD, as URLSearchParams would: they leave an
 * unpaired surrogate in the value, which its parameter refuses with its own INVALID_* code.
 */
export function formParams(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split("&")
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf("=");
        return at < 0 ? [decodeStrictly(pair), ""] : [decodeStrictly(pair.slice(0, at)), decodeStrictly(pair.slice(at + 1))];
      }),
  );
}

/** Decodes form encoding; a run of percent-encoded bytes that is not UTF-8 becomes a lone surrogate. A stray `%` stays as it is. */
function decodeStrictly(text: string): string {
  return text.replace(/\+/g, " ").replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return "\ud800";
    }
  });
}
