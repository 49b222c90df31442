/*
 * The pay page's behaviour: a countdown to expiresAt; the status kept live over server-sent events,
 * falling back to polling whenever the stream drops (phones suspend background connections) and
 * returning to the stream once it answers again; the wallet form paid without leaving the page; a
 * paid request turned into its receipt in place. A module (strict, deferred) of plain ES2017, no library; served by
 * src/http/pay/assets.ts.
 */
// The page includes this module only beside #pay and its messages.
var root = document.getElementById("pay");
var words = JSON.parse(document.getElementById("pay-messages").textContent);
var base = "/pay/" + encodeURIComponent(root.getAttribute("data-code"));
var expiresAt = Date.parse(root.getAttribute("data-expires-at"));
var unitsLabel = root.getAttribute("data-units-label");
var digits = Number(root.getAttribute("data-fractional-digits"));
// Dates in the reader's own variant of the page's language (en-NZ: day first), else the page's.
var lang = document.documentElement.lang;
var locale =
  (navigator.languages || [navigator.language]).filter(function (tag) {
    return String(tag).toLowerCase().split("-")[0] === lang;
  })[0] || lang;
var STATUS = { new: "NEW", paid: "PAID", cancelled: "CANCELLED", expired: "EXPIRED" };

function say(key, values) {
  return String(words[key]).replace(/\{(\w+)\}/g, function (place, name) {
    return values && values[name] !== undefined ? values[name] : place;
  });
}
function formatAmount(amount) {
  var text = String(amount);
  while (text.length < digits + 1) text = "0" + text;
  var whole = text.slice(0, text.length - digits).replace(/\B(?=(\d{3})+$)/g, ",");
  return unitsLabel + " " + whole + (digits > 0 ? "." + text.slice(-digits) : "");
}
function byId(id) {
  return document.getElementById(id);
}

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
var ticking = setInterval(tick, 1000);
function tick() {
  if (root.getAttribute("data-status") !== "NEW") return clearInterval(ticking);
  var left = Math.max(0, Math.ceil((expiresAt - Date.now()) / 1000));
  var h = Math.floor(left / 3600),
    m = Math.floor((left % 3600) / 60),
    s = left % 60;
  byId("countdown").textContent =
    h > 0
      ? say("hours", { h: String(h), m: String(m) })
      : m > 0
        ? say("minutes", { m: String(m), s: String(s) })
        : say("seconds", { s: String(s) });
  if (left === 0) {
    clearInterval(ticking);
    show("EXPIRED");
    poll();
  }
}

var stream = null,
  polling = null,
  stopped = false;
function poll() {
  fetch(base + "/status", { headers: { accept: "application/json" }, cache: "no-store" })
    .then(function (answer) {
      return answer.ok ? answer.json() : null;
    })
    .then(function (view) {
      if (view) render(view);
    })
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
  stream.onerror = function () {
    root.setAttribute("data-live", "polling");
    startPolling();
  };
}
function stopLive() {
  stopped = true;
  stopPolling();
  if (stream) stream.close();
  clearInterval(ticking);
}
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState === "visible" && !stopped) {
    poll();
    listen();
  }
});
if (root.getAttribute("data-status") === "NEW") listen();
if (byId("paid-at")) showTime(byId("paid-at"));

// The wallet form pays without leaving the page; a second click while one is under way does nothing.
var form = byId("wallet-form");
var button = form && form.querySelector("button");
var buttonText = button && button.textContent;
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
    .then(function (answer) {
      return answer.json().then(function (json) {
        return { ok: answer.ok, json: json };
      });
    })
    .then(function (result) {
      if (result.ok) {
        busy = false;
        return render(result.json);
      }
      var code = result.json && result.json.error ? result.json.error.code : "OTHER";
      // The same payment still under way (a double submit): ask again shortly for its outcome.
      if (code === "IDEMPOTENCY_KEY_IN_USE")
        return setTimeout(function () {
          submit(body);
        }, 500);
      renewKey();
      fail(code);
    })
    .catch(function () {
      fail("OTHER");
    });
}
if (form) form.addEventListener("submit", paySubmitted);
function paySubmitted(event) {
  event.preventDefault();
  if (busy) return;
  var wallet = form.elements.namedItem("wallet");
  if (!wallet.value.trim()) {
    wallet.focus();
    return fail("INVALID_AUTHORIZATION");
  }
  busy = true;
  error.hidden = true;
  button.disabled = true;
  button.textContent = words.paying;
  submit(new URLSearchParams(new FormData(form)).toString());
}
