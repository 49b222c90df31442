// The merchant console's script, served by src/http/console/routes.ts. It signs in with the token of
// a sign-in link's fragment, reads its session (GET /console/session), and calls /graphql with the
// session's cookie, its CSRF token and only the console's persisted documents (by hash).

const main = document.getElementById("main");
const documents = JSON.parse(document.body.dataset.documents || "{}");

/** Replaces the main region's content with `nodes`, and says `title` in the tab. */
function show(title, ...nodes) {
  document.title = `${title} · Merchant console`;
  main.replaceChildren(...nodes);
}

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

async function signIn() {
  const token = location.hash.slice(1);
  // The token leaves the address bar (and the history) at once.
  history.replaceState(null, "", "/console/sign-in");
  if (!token) return show("Sign in", element("p", "This sign-in link is incomplete: ask for a new one.", { class: "error" }));
  const answer = await fetch("/console/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  if (answer.ok) return location.replace("/console");
  const { message } = await answer.json().catch(() => ({ message: `The sign-in failed (${answer.status}).` }));
  show("Sign in", element("h2", "Not signed in"), element("p", message, { class: "error", role: "alert" }));
}

function signedOut() {
  show(
    "Signed out",
    element("h2", "You are not signed in"),
    element("p", "Open a sign-in link to use the console. Whoever runs the service makes one with:"),
    element("pre", "npm run admin -- console link --merchant <merchant id>"),
    element("p", "and a merchant's own back office with the GraphQL mutation consoleLinkCreate."),
  );
}

/** Runs one of the console's persisted documents as the session. */
async function graphql(session, operationName, variables = {}) {
  const answer = await fetch("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", "x-console-csrf": session.csrfToken },
    body: JSON.stringify({
      operationName,
      variables,
      extensions: { persistedQuery: { version: 1, sha256Hash: documents[operationName] } },
    }),
  });
  const body = await answer.json();
  if (!answer.ok || body.errors) throw new Error(body.errors?.[0]?.message ?? `GraphQL answered ${answer.status}`);
  return body.data;
}

async function home(session) {
  const who = document.getElementById("who");
  who.replaceChildren(
    element("strong", session.merchantName),
    document.createTextNode(` · ${session.label ?? "console"} `),
    ...(session.readOnly ? [element("span", "read-only", { class: "badge" })] : []),
  );
  who.hidden = false;
  const signOut = document.getElementById("sign-out");
  signOut.hidden = false;
  signOut.addEventListener("click", async () => {
    await fetch("/console/sign-out", { method: "POST", headers: { "x-console-csrf": session.csrfToken } });
    location.replace("/console");
  });
  show("Overview", element("h2", "Latest requests"), element("p", "Loading…", { role: "status" }));
  try {
    const { paymentRequests } = await graphql(session, "ConsoleHome");
    const table = element("table");
    const head = table.createTHead().insertRow();
    for (const name of ["Code", "Amount", "Status", "Created"]) head.append(element("th", name, { scope: "col" }));
    const body = table.createTBody();
    for (const { node } of paymentRequests.edges) {
      const row = body.insertRow();
      for (const text of [
        node.shortCode,
        `${node.denomination.amount} ${node.denomination.asset}`,
        node.status,
        new Date(node.createdAt).toLocaleString(),
      ])
        row.append(element("td", text));
    }
    show("Overview", element("h2", "Latest requests"), paymentRequests.edges.length ? table : element("p", "No requests yet."));
  } catch (error) {
    show("Overview", element("h2", "Latest requests"), element("p", error.message, { class: "error", role: "alert" }));
  }
}

async function start() {
  if (location.pathname === "/console/sign-in") return signIn();
  const answer = await fetch("/console/session");
  if (answer.status === 401) return signedOut();
  if (!answer.ok) return show("Error", element("p", `The console could not start (${answer.status}).`, { class: "error" }));
  return home(await answer.json());
}

start();
