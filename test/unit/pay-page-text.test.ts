import { describe, expect, it } from "vitest";
import { escapeHtml, formatAmount } from "../../src/http/pay/format.js";
import { chooseLanguage, messages, say } from "../../src/http/pay/messages.js";

describe("the pay page's amounts", () => {
  it("shows minimum units in the merchant's display units, never through a float", () => {
    const nzd = { label: "NZD", fractionalDigits: 2 };
    expect(formatAmount(300n, nzd)).toBe("NZD 3.00");
    expect(formatAmount(5n, nzd)).toBe("NZD 0.05");
    expect(formatAmount(0n, nzd)).toBe("NZD 0.00");
    expect(formatAmount(123456789n, nzd)).toBe("NZD 1,234,567.89");
    expect(formatAmount(9007199254740993n, nzd)).toBe("NZD 90,071,992,547,409.93");
    expect(formatAmount(1500n, { label: "JPY", fractionalDigits: 0 })).toBe("JPY 1,500");
    expect(formatAmount(1234n, { label: "KWD", fractionalDigits: 3 })).toBe("KWD 1.234");
  });

  it("escapes what it puts into HTML", () => {
    expect(escapeHtml(`<script>"x" & 'y'</script>`)).toBe("&#60;script&#62;&#34;x&#34; &#38; &#39;y&#39;&#60;/script&#62;");
  });
});

describe("the pay page's language", () => {
  it("is the first language of Accept-Language, by q-value, that it has; English otherwise", () => {
    expect(chooseLanguage(undefined)).toBe("en");
    expect(chooseLanguage("")).toBe("en");
    expect(chooseLanguage("es-ES,es;q=0.9,en;q=0.8")).toBe("es");
    expect(chooseLanguage("fr-FR,fr;q=0.9,es;q=0.8,en;q=0.7")).toBe("es");
    expect(chooseLanguage("en;q=0.5, es;q=0.9")).toBe("es");
    expect(chooseLanguage("es;q=0, en")).toBe("en");
    expect(chooseLanguage("de, fr")).toBe("en");
    expect(chooseLanguage("*")).toBe("en");
  });

  it("has every message in every language, with the same places to fill", () => {
    const places = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(messages.en))
      expect(places(messages.es[key as keyof typeof messages.es]), key).toEqual(places(text));
    expect(say(messages.es, "payButton", { amount: "NZD 3.00" })).toBe("Pagar NZD 3.00");
  });
});
