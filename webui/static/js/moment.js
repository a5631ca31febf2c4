// The moment: fetched (or carried by this phone's own change) once per change, drawn whole.
import { $, S, mySeat, api, banner, guarded, t } from "./core.js";
import { showLast } from "./said.js";
import { systemName, seatsNow, seatLabel, drawBoard, drawNumbers } from "./board.js";
import { drawActions } from "./moves.js";
import { keepSeat, publicWords } from "./seats.js";
import { loadHistory } from "./history.js";
import { loadSessions, loadFrame, showTab } from "./games.js";
import { keepAwake } from "./live.js";

// The end of a game (recap.js) is fetched only once a game has ended: most first loads never need it. ``ended``
// keeps the newest view, so a change that lands while the module loads is the one drawn.
let ended = null;
function drawEnd(v) {
  if (ended && ended.module) return ended.module.drawResult(v);
  if (!ended && !(v && v.screen && v.screen.result)) return; // nothing drawn yet, nothing to hide
  if (ended) { ended.view = v; return; }
  ended = { view: v, module: null };
  import("./recap.js").then((m) => { ended.module = m; m.drawResult(ended.view); },
    (e) => { ended = null; banner(t("The end of the game could not be shown: {why}. Reload the page.", { why: e.message })); });
}

// A round's end (rounds.js) is fetched once the round being played changes (or none is), the soft clock
// (clock.js) once the view says a game's clock is on (``clock``).
let roundSeen = null, roundMod = null, clockWanted = false, clockMod = null;
function roundEnd(v) {
  if (roundMod) return roundMod.drawRound(v);
  const k = `${v.id}:${v.round}`;
  if (!roundSeen || !roundSeen.startsWith(`${v.id}:`)) { roundSeen = k; if (v.round !== null || !v.version) return; }
  else if (roundSeen === k) return;
  import("./rounds.js").then((m) => { roundMod = m; m.drawRound(S.view); }, () => {});
}
async function softClock(v) {
  if (clockMod) return clockMod.drawClock(v);
  if (!v.clock || clockWanted) return; // the view says whether the clock is on: off, nothing is asked or loaded
  clockWanted = true;
  try { clockMod = await import("./clock.js"); } finally { clockWanted = false; }
  clockMod.drawClock(S.view);
}

// One refresh at a time: events that arrive meanwhile fold into one more pass. ``given``: a moment this phone's
// own change was answered with (``changing``), drawn without asking for it.
export function refresh(reason, given) {
  if (S.refreshing) { S.again = true; S.againReason = S.againReason || reason; return S.refreshing; }
  S.refreshing = (async () => {
    try {
      let why = reason;
      do { S.again = false; await load(why, given); given = undefined; why = S.againReason; S.againReason = undefined; } while (S.again);
    } finally { S.refreshing = null; }
  })();
  return S.refreshing;
}
// One request per change: the moment (view, actions, new log entries). A phone holding a moment sends its tag
// and gets only what changed (a few hundred bytes); one opening a long game gets the newest entries only.
async function moment(after, base) {
  return patched(await api("GET", `/api/sessions/active/moment?after=${after}${base ? `&base=${base}` : ""}`));
}
function patched(m) {
  if (m.patch) {
    const now = applyPatch({ view: S.view, actions: S.acts }, m.patch);
    m.view = now.view; m.actions = now.actions;
  }
  return m;
}
function applyPatch(value, patch) {
  let out = structuredClone(value);
  const parent = (path) => path.slice(0, -1).reduce((node, k) => node[k], out);
  for (const [path, v] of patch.set || []) {
    if (path.length) parent(path)[path[path.length - 1]] = v; else out = v;
  }
  for (const path of patch.del || []) delete parent(path)[path[path.length - 1]];
  return out;
}
// One request per tap: this phone's change (an action, a correction, undo or redo) is sent with ``?moment=1`` and
// the moment it holds, and answered with the moment after it (docs/api.md): ``drawn()`` draws that moment.
export async function changing(route, body) {
  const sent = { tag: S.tag, seat: JSON.stringify(mySeat()) };
  const path = `${route}?moment=1&after=${S.view ? S.lastSeq : 0}${S.tag ? `&base=${S.tag}` : ""}`;
  const res = await api("POST", path, body);
  return { ...res, drawn: () => refresh(undefined, { ...sent, moment: res.moment }) };
}
// A change of this phone's own, until its answer is drawn: the live events heard meanwhile (its own change's
// among them) are looked at afterwards, and only one that is still news asks for the moment.
export async function acting(fn) {
  S.acting = (S.acting || 0) + 1;
  try { return await fn(); } finally {
    S.acting -= 1;
    if (!S.acting) {
      const held = S.heard || [];
      S.heard = [];
      for (const [d, reason] of held) if (news(d)) guarded(() => refresh(reason), t("Updating"));
    }
  }
}
function news(d) { return !S.view || d.session !== S.view.id || d.version > S.view.version; }
export function heard(d, reason) {
  if (S.acting) (S.heard = S.heard || []).push([d, reason]);
  else if (news(d)) guarded(() => refresh(reason), t("Updating"));
}
// The moment a change was answered with, if it still follows from what this phone shows: asked from the moment
// it holds now (``base``) and as the seat it sits at now; else the moment is asked for, as after any change.
function givenMoment(given) {
  if (!given || !given.moment || given.tag !== S.tag || given.seat !== JSON.stringify(mySeat())) return null;
  const m = patched(structuredClone(given.moment));
  return { ...m, log: (m.log || []).filter((e) => !S.view || e.seq > S.lastSeq) };
}
async function load(reason, given) {
  const asked = mySeat(); // the seat this moment is asked as
  let m = givenMoment(given) || await moment(S.view ? S.lastSeq : 0, S.view && S.tag);
  // A seat taken, left or dropped while this was out: the answer is another seat's, so ask again as this one.
  if (JSON.stringify(mySeat()) !== JSON.stringify(asked)) { S.again = true; return; }
  if (!m.view) { S.tag = null; showNoGame(); return; } // no game on the table: the way to start one
  if (S.view && m.view.id !== S.view.id && S.lastSeq) m = await moment(0); // another game: its own newest entries
  const view = m.view, fresh = m.log;
  const switched = !S.view || S.view.id !== view.id;
  if (reason === "poll" && !switched && m.tag === S.tag && !fresh.length) return; // nothing new: nothing redrawn
  if (switched) { S.log = []; S.gaps = []; S.logFrom = fresh.length ? fresh[0].seq - 1 : view.version; S.open.clear(); }
  S.view = view; S.acts = m.actions; S.tag = m.tag;
  keepSeat(asked, switched);
  if (fresh.length) {
    // Away for more changes than a moment carries: the ones between are a gap the timeline shows and fills on request.
    if (!switched && S.log.length && fresh[0].seq > S.lastSeq + 1) S.gaps.push({ after: S.lastSeq, before: fresh[0].seq });
    S.log = S.log.concat(fresh).slice(-400);
    S.lastSeq = fresh[fresh.length - 1].seq;
    S.logFrom = S.log[0].seq - 1;
    S.gaps = S.gaps.filter((g) => g.before > S.log[0].seq); // a gap older than the kept entries is "earlier changes"
  } else if (switched) S.lastSeq = view.version;
  if (S.lastSeq > view.version) {
    S.log = S.log.filter((e) => e.seq <= view.version); S.lastSeq = view.version;
    S.gaps = S.gaps.filter((g) => g.after < view.version).map((g) => ({ after: g.after, before: Math.min(g.before, view.version + 1) }))
      .filter((g) => g.before > g.after + 1);
  }
  showGame();
  softClock(view).catch(() => {}); // the soft clock per seat, when on
  showLast();
  // This phone opened on the New game form because there was no game; a game started elsewhere takes it there.
  if (S.autoGames && S.tab === "games") { S.autoGames = false; showTab("game"); }
  if (S.tab === "history") loadHistory();
  if (S.tab === "display") loadFrame();
  if (S.tab === "games" && (switched || reason === "session")) loadSessions();
  if ((reason && reason !== "poll") || (fresh.length && S.tableBanner)) banner(""); // never an old refusal after a change
  keepAwake();
}
function showNoGame() {
  S.view = null; S.acts = null;
  $("game").hidden = true; $("no-game").hidden = false;
  $("title").textContent = "Tableside"; $("status").textContent = t("No game yet");
  $("version").textContent = "";
  $("seat").hidden = true;
}

function showGame() {
  const v = S.view, screen = v.screen || {};
  $("no-game").hidden = true; $("game").hidden = false;
  $("title").textContent = screen.title || systemName(v.system);
  $("status").textContent = screen.status || "";
  // The screen's alert often repeats the pending step, which "Now" already says: show it only when it adds something.
  const waiting = ((S.acts && S.acts.pending) || []).map((p) => p.text.toLowerCase()).join(" ");
  const alert = screen.alert && !waiting.includes(String(screen.alert).toLowerCase()) ? screen.alert : "";
  $("alert").hidden = !alert; $("alert").textContent = alert;
  $("undo").disabled = !v.can_undo; $("redo").disabled = !v.can_redo;
  $("redo").parentElement.hidden = !v.can_redo; // only after an undo: never a greyed button in the moment's box
  $("version").textContent = t("{system} · version {version}", { system: systemName(v.system), version: v.version });
  const seat = mySeat();
  $("seat").hidden = !(seatsNow().length);
  // the header is tight: the player's short name ("Ann", as the e-paper shortens "Ann (Venus)"), the whole one on hover
  $("seat").textContent = t("Seat: {seat}", { seat: seat ? seat.seat : t("table") });
  $("seat").title = seat ? t("This phone sits at {seat}'s seat", { seat: seatLabel(seat.seat) }) : t("A table phone: no seat");
  const open = v.seat_public && v.seat ? publicWords(v.seat) : ""; // seated without the PIN (#33)
  $("seat-public").hidden = !open; $("seat-public").textContent = open;
  drawEnd(v); // the game's end leads, above "Now" (recap.js)
  roundEnd(v); // what changed in the round that just ended
  drawBoard(screen);
  drawActions();
  drawNumbers();
}
