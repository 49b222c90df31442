import { describe, expect, it } from "vitest";
import { buildMerchant } from "../factories.js";
import { createTestApp } from "../test-app.js";
import { adminWith } from "./run-admin.js";

const PUBLIC_URL = "http://127.0.0.1:4998";
const app = createTestApp({}, { publicUrl: PUBLIC_URL });
const admin = (...args: string[]) => adminWith({ PUBLIC_URL }, ...args);

describe("admin CLI console commands", () => {
  it("console link prints a one-time sign-in link; console sessions lists the session it opens; console end ends it", async () => {
    const merchant = await buildMerchant();
    const made = await admin(
      "console",
      "link",
      "--merchant",
      merchant.merchantId,
      "--label",
      "back office",
      "--read-only",
      "--json",
    );
    expect(made.code).toBe(0);
    const link = JSON.parse(made.stdout) as { url: string; expiresAt: string };
    expect(link.url).toMatch(new RegExp(`^${PUBLIC_URL}/console/sign-in#[\\w-]{43}$`));
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);

    const signIn = await app.fetch(
      new Request(`${PUBLIC_URL}/console/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: PUBLIC_URL },
        body: JSON.stringify({ token: link.url.split("#")[1] }),
      }),
    );
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;

    const listed = await admin("console", "sessions", "--merchant", merchant.merchantId, "--json");
    const { sessions } = JSON.parse(listed.stdout) as { sessions: { id: string; label: string; readOnly: boolean }[] };
    expect(sessions).toEqual([expect.objectContaining({ label: "back office", readOnly: true, lastSeenAt: expect.any(String) })]);
    const text = await admin("console", "sessions", "--merchant", merchant.merchantId);
    expect(text.stdout).toContain(`id: ${sessions[0]!.id}\nlabel: back office\nreadOnly: true`);

    expect((await admin("console", "end", sessions[0]!.id)).code).toBe(0);
    const session = await app.fetch(new Request(`${PUBLIC_URL}/console/session`, { headers: { cookie } }));
    expect(session.status).toBe(401);
    expect((await admin("console", "sessions", "--merchant", merchant.merchantId)).stdout.trim()).toBe("no sessions");
    // Ended once: a second end finds nothing to end.
    const again = await admin("console", "end", sessions[0]!.id);
    expect(again).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^CONSOLE_SESSION_NOT_FOUND: No such console session\./),
    });
  });

  it("refuses a link without a merchant, or for a merchant that does not exist, making nothing", async () => {
    expect(await admin("console", "link")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/console link needs --merchant/),
    });
    expect(await admin("console", "link", "--merchant", crypto.randomUUID())).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^MERCHANT_NOT_FOUND/),
    });
    expect(await admin("console", "end")).toMatchObject({ code: 2 });
  });
});
