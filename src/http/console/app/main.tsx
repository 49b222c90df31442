/**
 * The merchant console in the browser (src/http/console/routes.ts serves it). It signs in with the
 * token of a sign-in link's fragment, reads its session, and draws the screen of its address.
 */
import { render } from "preact";
import { currentSession } from "./api.js";
import { App } from "./app.js";
import "./console.css";
import { language, t } from "./messages.js";
import { SignedOutScreen, signIn } from "./screens/sign-in.js";

async function start(root: HTMLElement) {
  document.documentElement.lang = language;
  if (location.pathname === "/console/sign-in") return render(await signIn(), root);
  const session = await currentSession();
  render(session ? <App session={session} /> : <SignedOutScreen />, root);
}

const root = document.getElementById("console")!;
start(root).catch((error: unknown) => {
  render(
    <p class="error" role="alert">
      {error instanceof Error ? error.message : t("sessionEnded")}
    </p>,
    root,
  );
});
