// Live: the event stream, the poll when it is refused, the screen kept awake.
import { $, S, banner, setLink, guarded, t } from "./core.js";
import { said, buttonSaid } from "./said.js";
import { refresh, heard } from "./moment.js";
import { showDice } from "./forms.js";
import { loadFrame } from "./games.js";

export function follow() {
  const es = new EventSource("/api/stream");
  S.stream = es;
  es.addEventListener("hello", (ev) => {
    const hello = JSON.parse(ev.data);
    const wasDown = S.down;
    S.down = false;
    setLink(t("Live: changes show here as they happen"), "live");
    // The shutdown question open as this phone connects: asked here too, not only at the next change (#32).
    if (hello.prompt) import("./shutdown.js").then((m) => m.showPrompt(hello.prompt));
    const behind = !S.view ? hello.version !== null : hello.version !== S.view.version;
    if (wasDown || behind) {
      guarded(() => refresh("reconnect"), t("Catching up")).then(() => {
        if (wasDown) said(S.view ? t("Reconnected: caught up with the table (version {version}).", { version: S.view.version }) : t("Reconnected."));
      });
    }
  });
  es.addEventListener("change", (ev) => {
    const d = JSON.parse(ev.data);
    // Only news: an event for a version this phone already shows (a replayed backlog) costs nothing.
    heard(d);
  });
  es.addEventListener("session", async (ev) => { // a game started or switched to; one this phone shows already is no news
    const d = JSON.parse(ev.data);
    // This phone's seat in the game before is kept where the new game has that seat (the table carries it over),
    // else let go quietly: the moment asked with it says which (keepSeat, or a 409 "seat_gone" in api()).
    heard(d, "session");
  });
  es.addEventListener("rejected", (ev) => { // a button the rules refused: which button, on every phone
    const d = JSON.parse(ev.data);
    banner(d.button ? buttonSaid(d.button, d.message) : d.message, "error", null, true, d.rule);
  });
  // A press that changes no game (a held C shows the join screen on the panel): said in the same line as a change.
  es.addEventListener("said", (ev) => {
    const d = JSON.parse(ev.data);
    said(d.button ? buttonSaid(d.button, d.message) : d.message);
  });
  // The e-paper is drawn a moment after a change (a burst of changes is drawn once): fetch it then.
  es.addEventListener("frame", () => { if (S.tab === "display") loadFrame(); });
  es.addEventListener("dice", () => guarded(showDice)); // smart dice: what waits, each die as it lands
  // The buttons' shutdown question, on every phone at once with its Confirm (#32); closed when it lapses.
  es.addEventListener("prompt", (ev) => {
    const d = JSON.parse(ev.data);
    if (d.prompt || $("shutdown-ask")) import("./shutdown.js").then((m) => m.showPrompt(d.prompt));
  });
  es.addEventListener("hardware", () => { S.hw = null; if (S.tab === "display") loadFrame(); });
  es.onerror = () => {
    S.down = true;
    setLink(t("Connection lost: reconnecting…"), "down"); // the browser tries the stream again by itself
    if (es.readyState === EventSource.CLOSED) { // refused: the browser gives up on it; poll until it opens
      es.close();
      poll();
      streamRefusal().then(({ text, again }) => {
        if (S.stream !== es) return; // a stream opened since (a seat taken) says where it stands itself
        setLink(text, "down");
        setTimeout(() => { if (S.stream === es) follow(); }, again);
      });
    }
  };
  es.addEventListener("open", () => { clearTimeout(S.pollTimer); S.pollTimer = null; });
}
// Why the table refused the event stream, in words (an EventSource never says): the same request once more as a
// fetch, read for its status and dropped at once. Too many phones streaming, another refusal (its reason from the
// table), or no answer at all are each said as what they are; each time the phone polls meanwhile.
async function streamRefusal() {
  const ctrl = new AbortController();
  let res;
  try {
    res = await fetch("/api/stream", { credentials: "same-origin", cache: "no-store", signal: ctrl.signal });
  } catch {
    return { text: t("Connection lost: the table does not answer. Trying again every few seconds…"), again: 5000 };
  }
  if (res.ok) { // it opens now: the refusal is over
    ctrl.abort();
    return { text: t("Connection lost: reconnecting…"), again: 1000 };
  }
  const data = await res.json().catch(() => null);
  if (res.status === 401) { location.href = "/join"; return { text: t("Join code needed"), again: 15000 }; }
  if (res.status === 503 && data && data.poll) { // the table's limit of open streams (max_streams)
    return { text: t("Too many phones are following the table live: this one checks every few seconds instead"), again: 15000 };
  }
  const why = data && data.error ? data.error : t("the table answered with an error ({status})", { status: res.status });
  return { text: t("Live updates refused: {why}. This phone checks every few seconds instead", { why }), again: 15000 };
}
// Without the stream (refused: too many phones) the page asks for its moment every few seconds, the same
// request as after a change: with its tag as base, an unchanged table is a 304 and a change only the patch.
// A seat taken or left: a stream opened before it does not count the phone as present at its seat.
export function restream() {
  if (!S.stream) return;
  S.stream.close();
  follow();
}
async function poll() {
  clearTimeout(S.pollTimer);
  try { await refresh("poll"); } catch { /* shown by the link line */ }
  // The stream may have opened while this poll was out: then it carries the changes, and polling stops.
  if (!S.stream || S.stream.readyState !== EventSource.OPEN) S.pollTimer = setTimeout(poll, 5000);
}

export async function keepAwake() {
  if (!("wakeLock" in navigator) || !S.view || document.visibilityState !== "visible" || S.wake) return;
  try { S.wake = await navigator.wakeLock.request("screen"); S.wake.addEventListener("release", () => { S.wake = null; }); } catch { S.wake = null; }
}
