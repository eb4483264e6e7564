// The live connection: a full snapshot on every (re)connect, then one per change.
// The banner says when the stream is down; EventSource retries by itself, and a stream
// the server closed for good (e.g. a restart refused it) is reopened after a pause.

import { say, t } from "./words.js";

let serverOffsetMs = 0; // server clock minus ours, from each snapshot's time

export const localTime = (serverMs) => serverMs - serverOffsetMs;

let latest = null; // the newest state drawn, for a page's part that starts after it came

// `fn(state)` for every state from now, starting with the newest one already drawn: the
// page's module scripts run one after another, and the stream's first state can come
// between them (on a slow tablet), so a part listening only for the next would wait for
// a change that, between games, does not come.
export function followState(fn) {
  if (latest) fn(latest);
  window.addEventListener("table-state", (e) => fn(e.detail));
}

// What the referee cannot hear (the broker, a sensor device), and a countdown it called off
// (and why, as the server worded it: `voided_text`).
function showLinks(state) {
  const banner = document.getElementById("links");
  const down = (state.links || []).map((l) => t("link.down", {
    what: l.link === "broker" ? t("link.broker") : t("link.device", { id: l.link.replace(/^device:/, "") }),
    reason: l.reason }));
  if (state.voided) down.push(state.voided_text ? say(state.voided_text) : t("link.voided"));
  if (state.journal_error) down.push(t("journal.failed"));
  banner.hidden = down.length === 0;
  banner.textContent = down.join(" ");
  banner.dataset.down = (state.links || []).map((l) => l.link).join(" ");
}

// Returns `stop()`: the page ends the stream itself (e.g. a phone handing its seat back),
// and no "connection lost" is shown for it.
export function connect(url, onState) {
  const banner = document.getElementById("connection");
  let source = null;
  let stopped = false;
  const show = (ok) => {
    banner.hidden = ok;
    banner.textContent = ok ? "" : t("ui.reconnecting");
    document.body.dataset.live = ok ? "yes" : "no";
  };
  const open = () => {
    source = new EventSource(url);
    source.addEventListener("state", (msg) => {
      const state = JSON.parse(msg.data);
      serverOffsetMs = state.now_ms - Date.now();
      show(true);
      showLinks(state);
      onState(state);
      latest = state;
      window.dispatchEvent(new CustomEvent("table-state", { detail: state })); // (the caller)
      document.body.dataset.revision = state.revision; // drawn: what tests wait on
    });
    source.onerror = () => {
      if (stopped) return;
      show(false);
      if (source.readyState === EventSource.CLOSED) setTimeout(retry, 2000);
    };
  };
  // The server refused the stream: a restart ended the session, or a new game ended this
  // phone's link. Reloading shows the login or the "scan again" page; else try again.
  const retry = async () => {
    try {
      const stop = new AbortController();
      const res = await fetch(url, { signal: stop.signal, headers: { Accept: "text/event-stream" } });
      stop.abort();
      if (res.status === 401 || res.status === 403) { location.reload(); return; }
    } catch { /* the server is not back yet */ }
    if (!stopped) open();
  };
  open();
  return () => { stopped = true; source.close(); };
}

// A JSON POST; resolves to {ok, status, body}. Cookie sessions carry the page's CSRF token.
export async function post(url, body, headers = {}) {
  const csrf = document.querySelector('meta[name="csrf-token"]');
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(csrf ? { "X-CSRF-Token": csrf.content } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = {};
  try { data = await res.json(); } catch { /* an empty body */ }
  return { ok: res.ok, status: res.status, body: data };
}

// A form the page's script sends: the server renders its submit buttons disabled and they
// are enabled here, once the handler listens, so a tap before the script has run (a slow
// tablet, a page just reloaded) cannot submit the form the browser's own way, a reload
// that did nothing. `handler(event)` runs with the browser's submission prevented.
export function onSubmit(form, handler) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    handler(event);
  });
  for (const button of form.querySelectorAll('button[type="submit"]')) button.disabled = false;
}

// A short message at the bottom of the page (an error, a refused command).
export function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.hidden = !text;
}

// DOM building without HTML strings: el("button", {class: "big"}, "text", child...).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Make `node`'s children `children`, in order, leaving in place those already there: a
// child kept is never taken out (a press on it, a finger's down then up, still clicks it).
export function patch(node, children) {
  const keep = new Set(children);
  for (const child of [...node.children]) if (!keep.has(child)) child.remove();
  children.forEach((child, i) => {
    if (node.children[i] !== child) node.insertBefore(child, node.children[i] ?? null);
  });
}

export function replace(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}
