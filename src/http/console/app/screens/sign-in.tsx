/** Signing in with a link's token, and the page of a browser with no session. */
import type { ComponentChildren, JSX } from "preact";
import { useState } from "preact/hooks";
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

interface LinkPreview {
  merchantName: string;
  label: string | null;
  readOnly: boolean;
}

const post = (path: string, token: string) =>
  fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });

const refusalOf = async (answer: Response) => {
  const { message } = (await answer.json().catch(() => ({}))) as { message?: string };
  return message ?? t("signInFailed", { status: answer.status });
};

/** Whom the link signs in as, confirmed before it is opened: a link someone else sent signs no one in unasked. */
function Confirm({ token, link }: { token: string; link: LinkPreview }) {
  const [refused, setRefused] = useState<string | null>(null);
  const open = async () => {
    const answer = await post("/console/sign-in", token);
    if (answer.ok) location.replace("/console");
    else setRefused(await refusalOf(answer));
  };
  if (refused) return <Refused message={refused} />;
  return (
    <Outside title={t("signInTitle")}>
      <p>{t(link.readOnly ? "signInAsReadOnly" : "signInAs", { merchant: link.merchantName, label: link.label ?? "console" })}</p>
      <button type="button" onClick={() => void open()}>
        {t("signInButton")}
      </button>
    </Outside>
  );
}

/**
 * Reads whom the link's token signs in as (the token leaves the address bar and the history at
 * once) and asks the reader to confirm; what to show instead when the link is refused.
 */
export async function signIn(): Promise<JSX.Element> {
  const token = location.hash.slice(1);
  history.replaceState(null, "", "/console/sign-in");
  if (!token) return <Refused message={t("linkIncomplete")} />;
  const answer = await post("/console/sign-in/preview", token);
  if (!answer.ok) return <Refused message={await refusalOf(answer)} />;
  return <Confirm token={token} link={(await answer.json()) as LinkPreview} />;
}
