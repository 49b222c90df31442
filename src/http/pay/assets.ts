/**
 * The pay page's stylesheet and script, served by the API itself at /pay/assets/ (the page loads
 * nothing from anywhere else). Kept as text here so that every way the service runs (tsx, the
 * transpiled run folder, the image's build) serves the same files without copying assets around.
 */

export const PAY_CSS = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #d0d0d0; --accent: #0b5e5a; --accent-ink: #ffffff;
  --paper: #ffffff; --page: #f3f5f4; --error: #a4161a; }
* { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 100%; line-height: 1.5;
  color: var(--ink); background: var(--page); }
body { margin: 0; padding: 1rem; }
main { max-width: 40rem; margin: 0 auto; }
header { margin-bottom: 1rem; }
h1 { font-size: 1.5rem; margin: 0; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 0 0 0.75rem; }
.merchant { margin: 0; color: var(--muted); font-weight: 600; overflow-wrap: anywhere; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 0.75rem; padding: 1rem 1.25rem; margin: 0 0 1rem; }
.label { color: var(--muted); margin: 0; }
.amount { font-size: 2.25rem; font-weight: 700; margin: 0 0 0.5rem; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
.description { margin: 0 0 0.5rem; overflow-wrap: anywhere; }
.status, .countdown, .live { margin: 0.25rem 0; }
.live { color: var(--muted); font-size: 0.875rem; }
label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
input[type="text"] { width: 100%; font: inherit; padding: 0.6rem 0.75rem; border: 1px solid #767676; border-radius: 0.5rem;
  color: var(--ink); background: var(--paper); }
input[type="text"]:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.help { color: var(--muted); font-size: 0.875rem; margin: 0.25rem 0 0.75rem; }
.error { color: var(--error); font-weight: 600; margin: 0 0 0.75rem; }
button, .button { display: inline-block; font: inherit; font-weight: 700; color: var(--accent-ink); background: var(--accent);
  border: 0; border-radius: 0.5rem; padding: 0.7rem 1.25rem; cursor: pointer; text-decoration: none; width: 100%; text-align: center; }
button[disabled] { opacity: 0.7; cursor: progress; }
.qr { display: block; width: min(100%, 220px); height: auto; margin: 0.5rem auto 1rem; background: #fff; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-weight: 600; letter-spacing: 0.05em; }
.notice { font-weight: 600; }
[hidden] { display: none !important; }
@media (min-width: 48rem) {
  body { padding: 2rem; }
  main { max-width: 64rem; }
  .ways { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; align-items: start; }
  .amount { font-size: 3rem; }
  .qr { width: 260px; }
}
`;

/**
 * The page's behaviour: a countdown to expiresAt; the status kept live over server-sent events,
 * falling back to polling whenever the stream drops (phones suspend background connections) and
 * returning to the stream once it answers again; the wallet form paid without leaving the page; a
 * paid request turned into its receipt in place. Plain ES2017, no library.
 */
export const PAY_JS = `
(function () {
  "use strict";
  var root = document.getElementById("pay");
  var wordsNode = document.getElementById("pay-messages");
  if (!root || !wordsNode) return;
  var words = JSON.parse(wordsNode.textContent);
  var base = "/pay/" + encodeURIComponent(root.getAttribute("data-code"));
  var expiresAt = Date.parse(root.getAttribute("data-expires-at"));
  var unitsLabel = root.getAttribute("data-units-label");
  var digits = Number(root.getAttribute("data-fractional-digits"));
  // Dates in the reader's own variant of the page's language (en-NZ: day first), else the page's.
  var lang = document.documentElement.lang;
  var locale = (navigator.languages || [navigator.language]).filter(function (tag) {
    return String(tag).toLowerCase().split("-")[0] === lang;
  })[0] || lang;
  var STATUS = { "new": "NEW", paid: "PAID", cancelled: "CANCELLED", expired: "EXPIRED" };

  function say(key, values) {
    return String(words[key]).replace(/\\{(\\w+)\\}/g, function (place, name) {
      return values && values[name] !== undefined ? values[name] : place;
    });
  }
  function formatAmount(amount) {
    var text = String(amount);
    while (text.length < digits + 1) text = "0" + text;
    var whole = text.slice(0, text.length - digits).replace(/\\B(?=(\\d{3})+$)/g, ",");
    return unitsLabel + " " + whole + (digits > 0 ? "." + text.slice(-digits) : "");
  }
  function byId(id) { return document.getElementById(id); }

  function show(status) {
    if (root.getAttribute("data-status") === status) return;
    root.setAttribute("data-status", status);
    var parts = root.querySelectorAll("[data-when]");
    for (var i = 0; i < parts.length; i++) parts[i].hidden = parts[i].getAttribute("data-when") !== status;
    byId("status-text").textContent = say("status" + status);
    byId("amount-label").textContent = status === "NEW" ? words.amountDue : words.amount;
    var title = { PAID: words.receipt, EXPIRED: words.expiredTitle, CANCELLED: words.cancelledTitle }[status];
    if (title) {
      byId("page-title").textContent = title;
      document.title = title;
    }
  }

  function showTime(node) {
    var at = Date.parse(node.getAttribute("datetime"));
    if (!isNaN(at)) node.textContent = new Date(at).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
  }
  if (byId("paid-at")) showTime(byId("paid-at"));

  function render(view) {
    var status = STATUS[view.status];
    if (!status) return;
    if (status === "PAID" && view.paidBy) {
      byId("paid-amount").textContent = formatAmount(view.paidBy.amount);
      var at = byId("paid-at");
      at.setAttribute("datetime", view.paidBy.paidAt);
      showTime(at);
      byId("paid-transaction").textContent = view.paidBy.transactionId;
    }
    show(status);
    if (status !== "NEW") stopLive();
  }

  // The countdown; at zero the page asks once what the request became.
  var ticking = setInterval(function () {
    if (root.getAttribute("data-status") !== "NEW") return clearInterval(ticking);
    var left = Math.max(0, Math.ceil((expiresAt - Date.now()) / 1000));
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    byId("countdown").textContent = h > 0 ? say("hours", { h: String(h), m: String(m) })
      : m > 0 ? say("minutes", { m: String(m), s: String(s) }) : say("seconds", { s: String(s) });
    if (left === 0) { clearInterval(ticking); show("EXPIRED"); poll(); }
  }, 1000);

  var stream = null, polling = null, stopped = false;
  function poll() {
    fetch(base + "/status", { headers: { accept: "application/json" }, cache: "no-store" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (view) { if (view) render(view); })
      .catch(function () {});
  }
  function startPolling() {
    if (polling || stopped) return;
    poll();
    polling = setInterval(poll, 2000);
  }
  function stopPolling() {
    if (polling) clearInterval(polling);
    polling = null;
  }
  function listen() {
    if (stopped || !window.EventSource) return startPolling();
    if (stream) stream.close();
    stream = new EventSource(base + "/events");
    stream.addEventListener("status", function (event) {
      stopPolling();
      root.setAttribute("data-live", "stream");
      render(JSON.parse(event.data));
    });
    // The stream dropped: poll until it is back (EventSource reconnects by itself).
    stream.onerror = function () { root.setAttribute("data-live", "polling"); startPolling(); };
  }
  function stopLive() {
    stopped = true;
    stopPolling();
    if (stream) stream.close();
    clearInterval(ticking);
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !stopped) { poll(); listen(); }
  });
  if (root.getAttribute("data-status") === "NEW") listen();

  // The wallet form pays without leaving the page; a second click while one is under way does nothing.
  var form = byId("wallet-form");
  if (!form) return;
  var button = form.querySelector("button");
  var buttonText = button.textContent;
  var error = byId("form-error");
  var busy = false;
  function fail(code) {
    error.textContent = words["error" + code] || words.errorOTHER;
    error.hidden = false;
    busy = false;
    button.disabled = false;
    button.textContent = buttonText;
  }
  // A refused payment moved no money, and the form's next try (another wallet, say) is another
  // payment: it goes under a new idempotency key, or the service would answer it with the refusal's key.
  function renewKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    var key = "";
    for (var i = 0; i < bytes.length; i++) key += (bytes[i] + 256).toString(16).slice(1);
    form.elements.namedItem("idempotencyKey").value = key;
  }
  function submit(body) {
    fetch(form.getAttribute("action"), {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: body,
      credentials: "same-origin",
    })
      .then(function (answer) { return answer.json().then(function (json) { return { ok: answer.ok, json: json }; }); })
      .then(function (result) {
        if (result.ok) { busy = false; return render(result.json); }
        var code = result.json && result.json.error ? result.json.error.code : "OTHER";
        // The same payment still under way (a double submit): ask again shortly for its outcome.
        if (code === "IDEMPOTENCY_KEY_IN_USE") return setTimeout(function () { submit(body); }, 500);
        renewKey();
        fail(code);
      })
      .catch(function () { fail("OTHER"); });
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (busy) return;
    var wallet = form.elements.namedItem("wallet");
    if (!wallet.value.trim()) { wallet.focus(); return fail("INVALID_AUTHORIZATION"); }
    busy = true;
    error.hidden = true;
    button.disabled = true;
    button.textContent = words.paying;
    submit(new URLSearchParams(new FormData(form)).toString());
  });
})();
`;
