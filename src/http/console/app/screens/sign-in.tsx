/** Signing in with a link's token, and the page of a browser with no session. */
import type { ComponentChildren, JSX } from "preact";
import { t } from "../messages.js";
import { Screen } from "../ui.js";

/** A page outside a session: the console's name, and one screen. */
const Outside = ({ title, children }: { title: string; children: ComponentChildren }) => (
  <>
    <header>
      <h1>{t("console")}</h1>
    </header>
    <main id="main">
      <Screen title={title}>{children}</Screen>
    </main>
  </>
);

export const SignedOutScreen = () => (
  <Outside title={t("notSignedIn")}>
    <p>{t("signInHelp")}</p>
    <pre>npm run admin -- console link --merchant MERCHANT_ID</pre>
    <p>{t("signInHelpApi")}</p>
  </Outside>
);

const Refused = ({ message }: { message: string }) => (
  <Outside title={t("notSignedInTitle")}>
    <p class="error" role="alert">
      {message}
    </p>
  </Outside>
);

/**
 * Posts the link's token (which leaves the address bar and the history at once) and goes to the
 * console; what to show instead when the link is refused.
 */
export async function signIn(): Promise<JSX.Element> {
  const token = location.hash.slice(1);
  history.replaceState(null, "", "/console/sign-in");
  if (!token) return <Refused message={t("linkIncomplete")} />;
  const answer = await fetch("/console/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  if (answer.ok) {
    location.replace("/console");
    return <p role="status">{t("loading")}</p>;
  }
  const { message } = (await answer.json().catch(() => ({}))) as { message?: string };
  return <Refused message={message ?? t("signInFailed", { status: answer.status })} />;
}
