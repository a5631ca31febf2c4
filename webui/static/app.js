// Tableside phone panel. Everything a person sees is drawn from the table's API: the forms from
// GET /api/sessions/active/actions (fields with kinds, labels and choices from the state) and the
// systems' options; the board from the system's screen model. No framework, nothing from the internet.
"use strict";
const $ = (id) => document.getElementById(id);
const S = {
  systems: [], view: null, acts: null, log: [], gaps: [], lastSeq: 0, session: null, tab: "game",
  open: new Map(), // action type -> its open form widget, kept across live updates
  down: false, started: false, retry: null, wake: null, frameTag: null,
};
let uid = 0;
const LOG_PAGE = 40; // log entries a phone reads when it opens a game; older ones on request

// ---------- small helpers ----------
// Who made a change that no seat made, in words (core/table.py SOURCES).
// Who made a change no seat made, in the same words on the last-change line and in the History timeline.
const SOURCE_WORDS = { button: "a table button", phone: "a table phone", cli: "the command line", api: "a script (the HTTP API)", dice: "the smart dice" };

function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== undefined && kid !== null) node.append(kid);
  return node;
}
// Never show snake_case: a label the API forgot still reads as words.
function human(x) {
  if (x === null || x === undefined) return "";
  const s = String(x);
  if (!/[_]/.test(s) && !/^[a-z]+[A-Z]/.test(s)) return s;
  const t = s.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}
const labelOf = (f) => f.label || human(f.name);
const lowerFirst = (s) => s.charAt(0).toLowerCase() + s.slice(1);
const choiceList = (f) => (f.choices || []).map((c) => (c !== null && typeof c === "object" && "value" in c
  ? { value: c.value, label: human(c.label ?? c.value) } : { value: c, label: human(c) }));
function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : d.toLocaleString([], { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

// ---------- talking to the table ----------
class Failure extends Error {
  constructor(kind, message, status, data) { super(message); this.kind = kind; this.status = status; this.data = data || {}; }
}
function seatKey() { return S.view ? `tableside.seat.${S.view.id}` : null; }
function mySeat() {
  const key = seatKey();
  try { return key ? JSON.parse(localStorage.getItem(key) || "null") : null; } catch { return null; }
}
async function api(method, path, body, again = false) {
  const headers = { Accept: "application/json" };
  const seat = mySeat(), key = seatKey();
  if (seat && seat.token) headers["X-Tableside-Seat"] = seat.token;
  // GETs revalidate: an unchanged answer comes back as a 304 with no body.
  const opts = { method, headers, credentials: "same-origin", cache: method === "GET" ? "no-cache" : "no-store" };
  if (body !== undefined) { headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let res;
  S.inflight = (S.inflight || 0) + 1;
  try { res = await fetch(path, opts); } catch {
    throw new Failure("offline", "Could not reach the table: check the Wi-Fi, or whether the table is switched on.", 0);
  } finally { S.inflight -= 1; }
  if (res.status === 401) { location.href = "/join"; throw new Failure("auth", "Join code needed", 401); }
  const data = await res.json().catch(() => null);
  if (res.status === 409 && data && data.seat_gone) { // the seat it held was taken over, or is a game's gone by
    // Never a dead end (#17 F14): a phone reopened after a new game still sends the old game's seat cookie.
    // It drops that seat by itself, shows the table view, and says so once on its last-change line.
    const label = seat ? seatLabel(seat.seat) : data.seat;
    await dropSeat(key, headers["X-Tableside-Seat"]);
    if (label) { S.seatLeft = label; S.saidAt = ""; }
    if (method === "GET" && !again) return api(method, path, body, true);
    if (method !== "GET") guarded(() => refresh(), "Updating");
    throw new Failure("stale", `This phone no longer sits at ${label || "a"}'s seat: it shows the table view now. Nothing was changed.`, 409, data);
  }
  if (!res.ok) {
    const msg = (data && data.error) || `The table answered with an error (${res.status}).`;
    throw new Failure(res.status === 409 ? "stale" : res.status >= 500 ? "server" : "refused", msg, res.status, data);
  }
  return data;
}
function banner(text, kind = "info", retry = null, fromTable = false) {
  S.retry = retry; S.tableBanner = fromTable && !!text; // a button's refusal: every phone's, until the next change
  $("banner-text").textContent = text || "";
  $("banner").className = `banner ${kind}`;
  $("banner").hidden = !text;
  $("banner-retry").hidden = !retry;
}
function setLink(text, cls) { $("link").textContent = text; $("link").className = `link ${cls || ""}`; }
// Run a change; a failed request keeps what is shown and offers to try again.
async function guarded(fn, what) {
  try { return await fn(); } catch (err) {
    if (err.kind === "offline" || err.kind === "server") banner(`${what ? what + ": " : ""}${err.message}`, "error", () => guarded(fn, what));
    else banner(err.message, "error");
    return undefined;
  }
}
// The newest change in words, with who made it ("Bob undid: ...", "Button B: ..."): the same line on every
// phone, pinned at the top beside Undo, so no phone keeps an old message and the acting phone never scrolls for it.
function said(text) {
  $("said").textContent = text || ""; $("lastbar").hidden = !text && !S.view;
  $("lastbar").classList.remove("open");
  fitSaid();
}
// A change longer than the bar's three lines says so ("More ▾", and an ellipsis): one tap on the words or on
// "More" shows all of it, another folds it back; the moment's own buttons stay on the first screen meanwhile.
function fitSaid() {
  const p = $("said"), more = $("said-more"), open = $("lastbar").classList.contains("open");
  more.hidden = !open && p.scrollHeight <= p.clientHeight + 1;
  more.textContent = open ? "Less ▴" : "More ▾";
  more.setAttribute("aria-expanded", String(open));
  p.classList.toggle("folds", !more.hidden);
}
function toggleSaid() {
  if ($("said-more").hidden) return;
  $("lastbar").classList.toggle("open");
  fitSaid();
}
function whoDid(e) {
  const button = e.result && e.result.button;
  if (button) return /^hold /.test(button) ? `Button ${button.slice(5)} (held)` : `Button ${button}`;
  if (e.seat) return seatLabel(e.seat);
  const words = SOURCE_WORDS[e.source];
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "The table";
}
// A button's refusal says which button, once: "Button A: declare a target first", "Button C (Next round) has ...".
function buttonSaid(button, message) {
  const who = whoDid({ result: { button } });
  if (message.toLowerCase().startsWith(`button ${button}`.toLowerCase())) return message.charAt(0).toUpperCase() + message.slice(1);
  return `${who}: ${message}`;
}
function changeWords(e) {
  const summary = (e.result && e.result.summary) || human(e.type);
  const undone = /^(Undid|Redid): ([\s\S]*)$/.exec(summary);
  const who = whoDid(e);
  if (undone) return `${who} ${undone[1].toLowerCase()}: ${undone[2]}`;
  // A change that is everyone's (VENOM's roll-off) is said alone: "Ann: Roll-off ..." read as Ann's roll.
  if (e.result && e.result.everyone) return summary;
  // A seat's own number corrected: "Ann (Venus) corrected their population: 0 -> 1", never the name twice.
  const own = [": ", "'s "].find((x) => summary.startsWith(`Corrected ${who}${x}`));
  if (own) return `${who} corrected their ${summary.slice(`Corrected ${who}${own}`.length)}`;
  // "Max plays Bot 12", "Ann: Recruitment Phase", "Cy (Pluto)'s Technology: ..." already say who: never "Ann: Ann: ...".
  return [" ", ":", "'s "].some((x) => summary.startsWith(`${who}${x}`)) ? summary : `${who}: ${summary}`;
}
function showLast() { // once per version: a message about this phone (its seat, a reconnect) stays until the next change
  const at = S.view ? `${S.view.id}:${S.view.version}` : "";
  if (at === S.saidAt) return;
  const last = S.log.length ? S.log[S.log.length - 1] : null;
  // A phone seated in the game before keeps its seat where the new game has one of the same name (the table
  // carries it over); else the new game's seats are picked again with one tap on Seat. Said once.
  const again = S.seatLeft ? ` This phone sat at ${S.seatLeft}'s seat: tap Seat to sit in this game.`
    : S.seatKept ? ` This phone still sits at ${seatLabel(S.seatKept)}'s seat.` : "";
  const done = () => { S.saidAt = at; S.seatLeft = null; S.seatKept = null; };
  if (last && S.view && last.seq === S.view.version) { said(changeWords(last) + again); done(); }
  else if (S.view && S.view.version === 0) { said(`New game: nothing played yet.${again}`); done(); }
  else if (again) { said(again.trim()); done(); }
}
function saidNow(result, source = "phone") { said(changeWords({ seat: mySeat() ? mySeat().seat : null, source, result })); }

// ---------- fetching only what changed ----------
// One refresh at a time: events that arrive meanwhile fold into one more pass. ``given``: a moment this phone's
// own change was answered with (``changing``), drawn without asking for it.
function refresh(reason, given) {
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
async function changing(route, body) {
  const sent = { tag: S.tag, seat: JSON.stringify(mySeat()) };
  const path = `${route}?moment=1&after=${S.view ? S.lastSeq : 0}${S.tag ? `&base=${S.tag}` : ""}`;
  const res = await api("POST", path, body);
  return { ...res, drawn: () => refresh(undefined, { ...sent, moment: res.moment }) };
}
// A change of this phone's own, until its answer is drawn: the live events heard meanwhile (its own change's
// among them) are looked at afterwards, and only one that is still news asks for the moment.
async function acting(fn) {
  S.acting = (S.acting || 0) + 1;
  try { return await fn(); } finally {
    S.acting -= 1;
    if (!S.acting) {
      const held = S.heard || [];
      S.heard = [];
      for (const [d, reason] of held) if (news(d)) guarded(() => refresh(reason), "Updating");
    }
  }
}
function news(d) { return !S.view || d.session !== S.view.id || d.version > S.view.version; }
function heard(d, reason) {
  if (S.acting) (S.heard = S.heard || []).push([d, reason]);
  else if (news(d)) guarded(() => refresh(reason), "Updating");
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
  $("title").textContent = "Tableside"; $("status").textContent = "No game yet";
  $("version").textContent = "";
  $("seat").hidden = true;
}

// ---------- the game tab ----------
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
  $("version").textContent = `${systemName(v.system)} · version ${v.version}`;
  const seat = mySeat();
  $("seat").hidden = !(seatsNow().length);
  // the header is tight: the player's short name ("Ann", as the e-paper shortens "Ann (Venus)"), the whole one on hover
  $("seat").textContent = `Seat: ${seat ? seat.seat : "table"}`;
  $("seat").title = seat ? `This phone sits at ${seatLabel(seat.seat)}'s seat` : "A table phone: no seat";
  drawBoard(screen);
  drawActions();
  drawNumbers();
}
function systemName(id) { const s = S.systems.find((x) => x.id === id); return s ? s.name : human(id); }
function seatsNow() {
  const seats = (S.view && S.view.seats) || [];
  return seats.map((s) => (typeof s === "string" ? { name: s, role: "player" } : s));
}
// A seat as every screen names its player ("Ann (Venus)" in VNM; the seat's name where the system says no more).
function seatLabel(name) { const s = seatsNow().find((x) => x.name === name); return (s && s.label) || name; }

function drawBoard(screen) {
  const box = $("board");
  box.replaceChildren();
  let figs = null; // consecutive key figures share one row
  for (const e of screen.elements || []) {
    const tone = e.tone && e.tone !== "normal" ? ` tone-${e.tone}` : "";
    if (e.kind === "figure") {
      if (!figs) { figs = el("div", { class: "figures" }); box.append(figs); }
      figs.append(el("div", { class: `figure${tone}` }, el("div", { class: "v" }, `${e.value}${e.unit ? " " + e.unit : ""}`),
        el("div", { class: "l" }, human(e.label))));
      continue;
    }
    figs = null;
    box.append(drawElement(e, tone));
  }
  for (const s of screen.sections || []) { // the first interface's screens, while a system still sends them
    box.append(el("div", { class: "el" }, el("h3", {}, s.title),
      el("table", { class: "grid" }, el("tbody", {}, s.rows.map((r) => el("tr", {}, el("td", {}, r.label), el("td", {}, r.value)))))));
  }
}
function drawElement(e, tone) {
  const c = (i) => (i === null || i === undefined ? "" : ` c${i % 7}`); // core.screen.PLAYER_INKS
  if (e.kind === "track") {
    const cells = [];
    const span = e.maximum - e.minimum;
    if (span >= 0 && span <= 30) {
      for (let n = e.minimum; n <= e.maximum; n++) {
        const cls = [n === e.value ? "on" : "", (e.marks || []).includes(n) || n === e.threshold ? "mark" : ""].join(" ").trim();
        cells.push(el("span", { class: cls || undefined }, String(n)));
      }
    }
    return el("div", { class: `el${tone}` }, el("h3", {}, `${human(e.label)}: ${e.value}`),
      cells.length ? el("div", { class: "track", "aria-hidden": "true" }, cells) : null);
  }
  if (e.kind === "bars") {
    return el("div", { class: `el${tone}` }, el("h3", {}, human(e.title) + (e.threshold && !String(e.title).includes(String(e.threshold)) ? ` (wins at ${e.threshold})` : "")),
      (e.bars || []).flatMap((b) => {
        const words = human(b.label) + (b.note ? ` (${b.note})` : "");
        // A bar that is a conserved number (VNM: a player's population) is one tap from its fix: where a chip
        // comes from or goes to, under the bar; that tap is the correction (2 taps, the list not opened).
        const t = tracked().find((x) => x.balance && x.pile === b.label);
        const open = t && S.barFix === t.key;
        const name = t && human(t.label || t.key);
        const label = t ? el("button", { type: "button", class: "fixbar", "aria-expanded": String(open), "aria-label": `Fix ${name}`,
          onclick: () => { S.barFix = open ? null : t.key; drawBoard((S.view && S.view.screen) || {}); } }, words) : el("span", {}, words);
        const row = el("div", { class: `bar${c(b.colour)}` }, label,
          el("span", { class: "b", "aria-hidden": "true" }, el("i", { style: `width:${Math.min(100, (100 * b.value) / Math.max(1, b.maximum || e.threshold || b.value))}%` })),
          el("span", { class: "n" }, String(b.value)));
        if (!open) return [row];
        // One more while under its maximum, one less while above its minimum (0 population: nothing to take away).
        const fixes = [t.maximum == null || t.value < t.maximum ? movesFor(t, name, 1) : null,
          t.minimum == null || t.value > t.minimum ? movesFor(t, name, -1) : null].filter(Boolean);
        fixes.forEach((m) => { m.hidden = false; });
        return [row, el("div", { class: "barfix" }, fixes)];
      }));
  }
  if (e.kind === "grid") {
    return el("div", { class: `el scroll${tone}` }, el("h3", {}, human(e.title)),
      el("table", { class: "grid" }, el("thead", {}, el("tr", {}, el("td", {}, ""), (e.columns || []).map((h) => el("th", { scope: "col" }, human(h))))),
        el("tbody", {}, (e.rows || []).map((r) => el("tr", { class: `${r.highlight ? "hl" : ""}${c(r.colour)}` },
          el("th", { scope: "row" }, human(r.label)), (r.cells || []).map((x) => el("td", {}, String(x))))))));
  }
  if (e.kind === "dice") {
    return el("div", { class: `el${tone}` }, el("h3", {}, human(e.label) + (e.verdict ? `: ${e.verdict}` : "")),
      el("div", { class: "tapped" }, (e.dice || []).map((d) => el("span", { class: `die ${d.mark || ""}`, title: d.mark ? human(d.mark) : undefined }, String(d.face)))));
  }
  return el("p", { class: `el${tone}` }, String(e.text ?? ""));
}

// Actions: the moment on top (what the rules wait for now: the prompts' actions, prefilled, the only one
// already open), Undo beside the last change; every other action one tap away, grouped by phase.
function momentTypes(prompts) {
  const out = [];
  for (const p of prompts) for (const t of [p.type, ...(p.also || [])]) if (t && !out.includes(t)) out.push(t);
  return out;
}
function drawActions() {
  const acts = S.acts;
  $("pending").replaceChildren();
  const main = $("main-actions"), groups = $("groups");
  const keep = new Map(S.open);
  // Redrawing takes the open forms out of the page and back, which drops the focus (a phone's keyboard
  // closes mid-word): the field someone types in gets it back, or its twin in a form drawn anew.
  const now = document.activeElement;
  const typing = S.focusAt = now && (main.contains(now) || groups.contains(now)) ? { node: now, ...caret(now) } : null;
  S.refocus = null;
  main.replaceChildren(); groups.replaceChildren();
  try { drawMoves(acts, main, groups, keep); } finally {
    const back = typing && (typing.node.isConnected ? typing.node : S.refocus);
    if (back && document.activeElement !== back) { back.focus({ preventScroll: true }); caret(back, typing); }
    S.focusAt = null; S.refocus = null;
  }
}
// Where the caret is in a text field (read), or put it back there (write); fields without one are left alone.
function caret(node, at) {
  try {
    if (!at) return { start: node.selectionStart, end: node.selectionEnd };
    if (typeof at.start === "number") node.setSelectionRange(at.start, at.end);
  } catch { /* a number field has no caret to keep */ }
  return {};
}
function drawMoves(acts, main, groups, keep) {
  const pend = $("pending");
  if (!acts) { pend.append(el("li", {}, S.view.screen && S.view.screen.prompt ? S.view.screen.prompt : "")); return; }
  const mine = mySeat();
  // Another seat role's actions (the GM's, on a player's phone) are not offered: the table would refuse them here.
  const role = mine ? (seatsNow().find((s) => s.name === mine.seat) || {}).role : undefined;
  const offeredHere = acts.actions.filter((a) => !(a.for_role && role && a.for_role !== role));
  // Nor said there: a prompt for another role's action ("GM: outnumbered ...: a Murphy point") is that role's
  // phone's to act on (and the table phone's), not a line under every player's moment.
  const notOurs = new Set(acts.actions.filter((a) => !offeredHere.includes(a)).map((a) => a.type));
  const prompts = (acts.pending || []).filter((p, i) => i === 0 || !notOurs.has(p.type));
  for (const p of prompts) {
    pend.append(el("li", { class: mine && p.seat === mine.seat ? "yours" : undefined }, p.text));
    // A seat that answers the same prompt later (the rest of a trick played seat by seat) is told whom it follows.
    const order = [p.seat, ...(p.then || [])], at = mine ? order.indexOf(mine.seat) : -1;
    const what = at > 0 && acts.actions.find((x) => x.type === p.type);
    if (what) pend.append(el("li", { class: "later" }, `You ${lowerFirst(what.label || human(what.type))} after ${seatLabel(order[at - 1])}`));
  }
  if (!prompts.length && S.view.screen && S.view.screen.prompt) pend.append(el("li", {}, S.view.screen.prompt));
  drawMine(acts);
  const byType = new Map(offeredHere.map((a) => [a.type, a]));
  // A seated phone never opens another seat's move: its button stays one tap away (acting asks first).
  const othersOnly = (t) => mine && prompts.some((p) => [p.type, ...(p.also || [])].includes(t))
    && prompts.every((p) => ![p.type, ...(p.also || [])].includes(t) || (p.seat && p.seat !== mine.seat));
  // Nor is another seat's move its main move when this phone would make it as its own seat ("Shred: put dice
  // forward" on Sven's phone puts forward Sven's dice): it stays under All actions, and sending it asks first.
  // The GM's phone runs the table (the GM draws racks "at any time"): it keeps them on top, as a table phone.
  const asItself = (a) => mine && !runsTable() && (a.fields || []).some((f) => ownSeatField(a, f));
  // A table phone leaves a held seat's own moves to that seat's phone (the table refuses them from it: the
  // answer's own_phones names those seats): such a move is on top only for a seat the table plays, and the others
  // are said ("Shred puts dice forward on Shred's phone"); under All actions it is a button only while some seat
  // is the table's to play, else said with whose phone makes it ("New scene (GM): on GM's phone").
  const elsewhere = (a) => !mine && phonesOnly(a) && !tableMay(a, prompts).length;
  const tablePlays = (a) => mine || !phonesOnly(a) || prompts.some((p) => p.seat && waitsFor(p, a.type) && !theirs(a, p.seat));
  const top = momentTypes(prompts).map((t) => byType.get(t))
    .filter((a) => a && a.available && !(asItself(a) && othersOnly(a.type)) && tablePlays(a));
  const theirPhones = mine ? [] : prompts.filter((p) => p.seat && byType.has(p.type) && theirs(byType.get(p.type), p.seat)
    && byType.get(p.type).available).map((p) => {
    const who = seatLabel(p.seat), a = byType.get(p.type);
    return el("p", { class: "elsewhere" }, `${who} ${doesIt(a.label || human(a.type))} on ${who}'s phone`);
  });
  main.classList.toggle("several", top.length > 1);
  // Open already: the only move waited for, or the one the first prompt names (an attack on the declared target).
  const own = mine ? prompts.find((p) => p.seat === mine.seat && p.type) : prompts.find((p) => p.seat === null && p.type);
  const first = own ? own.type : prompts.length && (!mine || prompts[0].seat === null) ? prompts[0].type : null;
  // The table's own way to answer a seat's move (a whole trick entered at once), on a seated phone: one tap away,
  // never opened for it, and drawn after the seat's own move (a thumb plays its card; a table phone enters tricks).
  const tableWay = (t) => Boolean(mine) && !runsTable() && prompts.some((p) => p.seat)
    && prompts.filter((p) => waitsFor(p, t)).every((p) => p.seat === null);
  // A prompt may name its button's words now ("Start round 2 (button C)" is answered by "Start round 2").
  const worded = (a) => {
    const p = prompts.find((x) => x.type === a.type && x.label);
    return p ? { ...a, label: p.label } : a;
  };
  const drawn = [];
  for (const a of top) {
    const each = mine ? [] : bySeat(a, prompts);
    if (each.length) { drawn.push(...each); continue; }
    const node = actWidget(worded(a), true, keep, !othersOnly(a.type) && !tableWay(a.type) && (top.length === 1 || a.type === first));
    node.classList.toggle("after", Boolean(own) && tableWay(a.type));
    drawn.push(node);
  }
  // An open form goes below the moment's other buttons: "collect 4 more or end the turn" keeps End turn on
  // the first screen, not under a form of land areas. The table's way of a seat's own move goes last.
  const isOpen = (n) => Boolean(n.querySelector("form")), after = (n) => n.classList.contains("after");
  const before = drawn.filter((n) => !after(n));
  main.append(...before.filter((n) => !isOpen(n)), ...theirPhones, ...before.filter(isOpen), ...drawn.filter(after));
  if (!top.length) { // nothing typed is expected: the table's own buttons are the main moves
    const sys = S.systems.find((x) => x.id === S.view.system);
    // The buttons as they stand (labelled for now, only those a press would not refuse); the system's map before.
    const now = Array.isArray(acts.buttons) ? acts.buttons : (sys && sys.buttons) || [];
    const buttons = now.filter((b) => !/^(undo|redo)$/i.test(b.label)).map((b) =>
      el("div", { class: "act" }, el("button", { type: "button", class: "open", onclick: (ev) => press(b, ev.currentTarget) },
        `${human(b.label)} (${b.hold ? "hold " : ""}button ${b.button})`)));
    // A seated phone out of its turn: the buttons act for whoever is waited for, so they fold away under
    // one disclosure and the seat's own moment stays on top (a table phone keeps them as its main moves).
    const other = outOfTurn();
    if (other && buttons.length) {
      const fold = el("details", { class: "group table-buttons" }, el("summary", {}, `Table buttons (${seatLabel(other)}'s turn)`), el("div", {}, buttons));
      fold.open = Boolean(S.tableButtonsOpen);
      fold.addEventListener("toggle", () => { S.tableButtonsOpen = fold.open; });
      main.append(fold);
    } else main.append(...buttons);
  }
  const grouped = new Map();
  for (const a of offeredHere) {
    if (top.includes(a) || a.type === "correct") continue;
    const g = a.group || "Other";
    if (!grouped.has(g)) grouped.set(g, []);
    grouped.get(g).push(a);
  }
  // Each phase a heading over its actions' buttons, all in sight: one tap opens a form (or sends what asks
  // nothing). The moment's own phase first, then the phases with something to do now, then the rest.
  const nowGroups = new Set(top.map((a) => a.group || "Other"));
  const rank = ([g, list]) => (!list.some((a) => a.available) ? 2 : nowGroups.has(g) ? 0 : 1);
  for (const [g, list] of [...grouped].sort((x, y) => rank(x) - rank(y))) {
    const ready = list.filter((a) => a.available && !elsewhere(a));
    const box = el("section", { class: "group" }, el("h3", {}, `${human(g)} (${ready.length} of ${list.length} now)`));
    const chips = el("div", { class: "acts" }, ...ready.map((a) => actWidget(a, false, keep)));
    // What cannot be done now is named with why, one line per reason ("Automatic Success, Re-roll dice: not
    // now, the Combat Dice have not been rolled yet"), not as buttons that do nothing.
    const why = new Map();
    for (const a of list.filter((x) => !x.available || elsewhere(x))) {
      const words = a.available ? onPhones(a) : `not now${a.reason ? `, ${a.reason}` : ""}`;
      if (!why.has(words)) why.set(words, []);
      why.get(words).push(a.label || human(a.type));
    }
    box.append(chips, ...[...why].map(([words, labels]) => el("p", { class: "why" }, `${labels.join(", ")}: ${words}`)));
    groups.append(box);
  }
}

// A held seat's own move (`own_phones`, in a phone with no seat's answer: Venus 2140's every move from a seat's
// scene pool, and the GM's actions while the GM's phone sits): the table refuses it from a phone with no seat.
const phonesOnly = (a) => Boolean(a.own_phones && a.own_phones.length);
const theirs = (a, name) => Boolean(a.own_phones && a.own_phones.includes(name));
const waitsFor = (p, type) => [p.type, ...(p.also || [])].includes(type);
// The seats a table phone may make such a move for: those no phone holds, among its seat field's choices (the
// answer has none: the seats its prompts wait for, the exchange's target).
function tableMay(a, prompts) {
  const f = (a.fields || []).find((x) => x.name === a.seat_field);
  const seats = f ? choiceList(f).map((c) => c.value) : prompts.filter((p) => p.seat && waitsFor(p, a.type)).map((p) => p.seat);
  return seats.filter((s) => !theirs(a, s));
}
// Where a move the table phone leaves to the seats' phones is made: "on GM's phone", "on each seat's own phone".
const onPhones = (a) => (a.own_phones.length === 1 ? `on ${seatLabel(a.own_phones[0])}'s phone` : "on each seat's own phone");
// Who makes a move, in its button's words: "Put dice forward" -> "puts dice forward" ("Shred puts dice forward").
function doesIt(label) {
  const [verb, ...rest] = label.replace(/ \((button )?[A-D]\)$/, "").split(" ");
  return [verb.toLowerCase() + (/(s|sh|ch|x|z)$/i.test(verb) ? "es" : "s"), ...rest].join(" ");
}
// The field a seated phone answers by itself: who does it ("Player" in a seat's own move, the action's seat_field).
function ownSeatField(a, f) {
  return (f.kind === "seat" && (f.default === undefined || f.default === null)) || f.name === a.seat_field;
}
// An action whose only question is who does it: a seated phone sends it with one tap as its seat; on a
// table phone each seat the prompts wait for gets its own one-tap button ("Decline a trick bonus: Kim").
function onlyWho(a) {
  const fields = a.fields || [];
  return fields.length > 0 && fields.every((f) => ownSeatField(a, f)) && !($("by-hand").checked && a.rolls_dice);
}
function bySeat(a, prompts) {
  const f = (a.fields || [])[0];
  if (!onlyWho(a) || a.fields.length !== 1 || !f.required) return [];
  const waiting = [...new Set(prompts.filter((p) => p.seat && [p.type, ...(p.also || [])].includes(a.type)).map((p) => p.seat))];
  const offered = choiceList(f).map((c) => c.value);
  if (!waiting.length || !waiting.every((w) => offered.includes(w))) return [];
  return waiting.map((seat) => {
    const button = el("button", { type: "button", class: "open" }, `${a.label || human(a.type)}: ${seatLabel(seat)}`);
    button.addEventListener("click", () => send(a, { [f.name]: seat }, null, button));
    return el("div", { class: "act" }, button);
  });
}

// This seat's private dice, on top of its moment: only this phone receives them (other phones see counts).
function drawMine(acts) {
  const box = $("mine");
  const offered = acts.actions.flatMap((a) => a.fields || []).find((f) => Array.isArray(f.offer));
  box.hidden = !offered || !mySeat();
  if (box.hidden) return;
  const n = offered.offer.length;
  box.replaceChildren(el("span", { class: "help" }, n ? `Your dice (${n}):` : "Your dice:"),
    ...(n ? offered.offer.map((x) => el("span", { class: "die" }, String(x))) : [el("span", {}, "none in your scene pool")]));
}

function actWidget(a, big, keep, openNow = false) {
  const prev = keep.get(a.type);
  // A form being filled in survives live updates, unless what it offers changed (a pool rolled, a seat taken).
  if (prev && prev.big === big && prev.shape === JSON.stringify(a.fields || [])) { prev.updateAction(a); return prev.node; }
  const node = el("div", { class: "act" });
  const fields = a.fields || [];
  const mine = mySeat();
  // Nothing to ask: no fields, or (on a seated phone) only who does it, which the seat answers.
  const seatOnly = mine && onlyWho(a) && fields.every((f) => choiceList(f).some((c) => c.value === mine.seat));
  const oneTap = (fields.length === 0 && !($("by-hand").checked && a.rolls_dice)) || seatOnly;
  const opener = el("button", { type: "button", class: "open", "aria-expanded": oneTap ? undefined : "false" }, a.label || human(a.type));
  node.append(opener);
  let form = null;
  const widget = { node, big, shape: JSON.stringify(a.fields || []), updateAction: (na) => { a = na; }, form: () => form };
  const open = (entered) => {
    form = actionForm(a, close, big, entered);
    node.append(form.node);
    opener.setAttribute("aria-expanded", "true");
    S.open.set(a.type, widget);
  };
  opener.addEventListener("click", () => {
    if (oneTap) { send(a, seatOnly ? Object.fromEntries(fields.map((f) => [f.name, mine.seat])) : {}, null, opener); return; }
    if (form) { close(); return; }
    open();
    const first = form.node.querySelector("input,select,button");
    if (first) first.focus({ preventScroll: true });
    if (!big) inReach(node);
  });
  function close() {
    if (form) form.node.remove();
    form = null;
    opener.setAttribute("aria-expanded", "false");
    S.open.delete(a.type);
  }
  // What it offers changed while someone filled it in: the new form opens with what they had entered.
  const was = !oneTap && prev && prev.form();
  if (was || (openNow && !oneTap)) open(was ? was.entered() : undefined); // the moment's only move: open, prefilled
  if (was) carryOver(was.node, form.node);
  return node;
}
// A form opened under its button, low on the page: scrolled up so all of it shows, or (taller than the
// screen) its button just under the sticky header, so its questions and its sticky send are in sight.
function inReach(node) {
  const box = node.getBoundingClientRect();
  if (box.bottom <= innerHeight) return;
  const head = document.querySelector("header.top").getBoundingClientRect().bottom;
  window.scrollBy({ top: Math.min(box.bottom - innerHeight + 8, box.top - head - 8), behavior: "instant" });
}
// The rest of a form drawn anew from one being filled in (its values came over as the fields' defaults, see
// actionForm's `entered`): the exact text of each text and number box, half-typed or not yet valid, field by
// field (by name), and the control that had the focus, which drawActions gives it back.
function carryOver(from, to) {
  const fieldsIn = (form) => new Map([...form.querySelectorAll("[data-field]")].map((n) => [n.dataset.field, n]));
  const target = fieldsIn(to);
  const typed = (c) => c.tagName === "TEXTAREA" || (c.tagName === "INPUT" && !["radio", "checkbox", "button"].includes(c.type));
  const words = (c) => (c.closest("label") || c).textContent;
  for (const [name, old] of fieldsIn(from)) {
    const now = target.get(name);
    if (!now) continue;
    const controls = (n) => [...n.querySelectorAll("input, select, textarea, button")];
    const mine = controls(now), theirs = controls(old);
    theirs.forEach((c, i) => {
      const twin = c.type === "radio" || c.tagName === "BUTTON" ? mine.find((m) => m.tagName === c.tagName && m.type === c.type && words(m) === words(c))
        : mine[i] && mine[i].tagName === c.tagName && mine[i].type === c.type ? mine[i] : null;
      if (twin && typed(c) && twin.value !== c.value) { twin.value = c.value; twin.dispatchEvent(new Event("input", { bubbles: true })); }
      if (twin && S.focusAt && c === S.focusAt.node) S.refocus = twin;
    });
  }
}

// Whose move it is: a seat field starts at this phone's seat when it is waited for, else at the first seat waited for.
function seatFor(a) {
  const waiting = ((S.acts && S.acts.pending) || []).filter((p) => [p.type, ...(p.also || [])].includes(a.type) && p.seat).map((p) => p.seat);
  const mine = mySeat();
  if (mine) return mine.seat; // a seated phone plays its own seat (out of turn the rules say so in words)
  return waiting[0];
}
// A form whose only open question is one choice asks it as buttons that send: "Collect from China" is one tap.
function quickField(fields) {
  const open = fields.filter((f) => f.default === undefined || f.default === null || f.default === "");
  const first = fields[0];
  if (!first || !["pick", "seat"].includes(first.kind) || !open.includes(first) || first.shown_when) return -1;
  // A choice that may bring a prefilled number to check (a target's Defense not entered yet) does not send on its
  // tap: it is asked first, the number shows under it, and the form's button sends.
  if (fields.some((f) => f.kind === "count" && f.shown_when && Object.hasOwn(f.shown_when, first.name) && f.default != null)) return -1;
  const n = choiceList(first).length;
  if (n < 1 || n > 8) return -1;
  const others = open.filter((f) => f !== first && f.required);
  return others.length ? -1 : 0;
}
// Whether pick `f` is asked by one value of the send buttons `s` (shown_when names s with that value alone, and its
// few choices fit as buttons): a Game token's "Trump to", asked by "Play a card + Game".
function asks(s, f) {
  const on = f.shown_when && f.shown_when[s.name];
  const n = f.kind === "pick" ? choiceList(f).length : 0;
  return f !== s && Array.isArray(on) && on.length === 1 && n >= 1 && n <= 8 && !f.required && !f.choices_by && !f.differs_from
    && !f.for_role && choiceList(s).some((c) => JSON.stringify(c.value) === JSON.stringify(on[0]));
}
// `kept`: what someone had entered in this action's form before it was drawn anew (field name -> value).
function actionForm(a, close, big = false, kept = {}) {
  const who = seatFor(a);
  // A table phone makes a seat's own move only for a seat no phone holds: the seat field offers those alone, and
  // no blank (left out, it means whose move it is, whose phone may hold it).
  const here = !mySeat() && phonesOnly(a) ? tableMay(a, (S.acts && S.acts.pending) || []) : null;
  const drawn = (a.fields || []).map((f) => {
    if (here && f.name === a.seat_field) {
      const choices = choiceList(f).filter((c) => here.includes(c.value));
      // (no "default: whose move it is" under it: nothing is left out here)
      return { ...f, choices, required: true, default: here.includes(who) ? who : here[0], help: "" };
    }
    const canBe = (f.kind === "seat" || f.kind === "pick") && who !== undefined && choiceList(f).some((c) => c.value === who);
    // A pick is the phone's own seat only where the action says so (a.seat_field): "Settle the tie: Player" names anyone.
    return canBe && f.default === undefined && (f.kind === "seat" || f.name === a.seat_field) ? { ...f, default: who } : f;
  });
  const fields = drawn.map((f, i) => {
    const server = (a.fields || [])[i]; // the table's own start (not one entered, nor the seat) leaves no blank choice
    const g = f.kind === "pick" && server.default !== undefined && server.default !== "" ? { ...f, startsAt: true } : f;
    return kept && Object.hasOwn(kept, f.name) ? { ...g, default: kept[f.name] } : g;
  });
  const quick = ($("by-hand").checked && a.rolls_dice) || (fields[0] && (a.taps || []).includes(fields[0].name)) ? -1 : quickField(fields);
  const err = el("p", { class: "form-error", role: "alert", hidden: true });
  const dice = { box: el("div"), pad: null };
  const go = el("button", { type: "submit", class: "primary" }, a.label || human(a.type));
  let form;
  // The action's tap questions (a.taps: a Leader card, then its Zone): buttons, one tap each; the form sends
  // itself once every one is answered. Answered in part, the form still sends with its button.
  const taps = (a.taps || []).map((n) => fields.findIndex((f) => f.name === n)).filter((i) => i >= 0 && i !== quick);
  const answered = () => taps.length > 0 && taps.every((i) => widgets[i].chosen() !== undefined);
  // A field that `sends` (a card's token) is drawn as the send buttons themselves: "Play a card", "Play a card + Bot".
  const sendsAt = fields.findIndex((f, i) => f.sends === true && f.kind === "pick" && !f.required && i !== quick && !taps.includes(i));
  // A pick shown for just one value of those buttons (a Game token's trump) is what that value asks: its choices are
  // that value's send buttons ("Play a card + Game, trump to:" No Trump, Team, ...), so it costs no tap of its own.
  const asked = sendsAt < 0 ? [] : fields.map((f, i) => i).filter((i) => i !== quick && !taps.includes(i) && asks(fields[sendsAt], fields[i]));
  const widgets = fields.map((f, i) => (asked.includes(i) ? null : fieldWidget(i === quick ? { ...f, quick: () => form.requestSubmit() }
    : taps.includes(i) ? { ...f, tap: () => nextTap() }
    : i === sendsAt ? { ...f, sends: () => form.requestSubmit(), sendLabel: a.label || human(a.type),
      asks: asked.map((j) => ({ field: fields[j], value: fields[j].shown_when[f.name][0] })) } : f)));
  asked.forEach((j, k) => { widgets[j] = widgets[sendsAt].asked[k]; });
  widgets.forEach((w, i) => { w.node.dataset.field = fields[i].name; }); // a form drawn anew takes its values over by name
  function nextTap() { // all answered: send; else the next question comes into reach, clear of the send button
    if (answered()) { form.requestSubmit(); return; }
    const next = taps.find((i) => widgets[i].chosen() === undefined);
    if (next !== undefined) widgets[next].node.scrollIntoView({ block: "center", behavior: "instant" });
  }
  // A seated phone acts as its seat: "who does it" is said by the seat, not asked again (still sent).
  const mine = mySeat();
  fields.forEach((f, i) => {
    if (mine && f.default === mine.seat && (f.kind === "seat" || f.name === a.seat_field) && !f.shown_when) widgets[i].node.hidden = true;
  });
  // Notes for the log (optional words) fold away under "More", so the send button stays on the first screen.
  // A required last choice comes after the values it sends with, and is the send; an optional one (a Leader
  // entered before, a target) stays first, and the form can still be sent with the values typed instead.
  const sends = quick >= 0 && fields[quick].required;
  // So do the rare switches of a form that one tap sends ("Discarded at once by a card effect" beside the
  // Event card drawn): the choice is the first thing under its button.
  // A switch that changes what a send button does, shown only with those buttons' values (a token played "Only to
  // block"), folds away too: rare, and the send buttons stay close under the questions.
  const alters = (f) => sendsAt >= 0 && f.kind === "flag" && f.shown_when && Object.keys(f.shown_when).every((k) => k === fields[sendsAt].name);
  const note = (f) => big && !f.required && (["text", "texts"].includes(f.kind) || (sends && f.kind === "flag" && !f.shown_when) || alters(f));
  const order = widgets.map((w, i) => i).filter((i) => (i !== quick || !sends) && i !== sendsAt && !asked.includes(i) && !note(fields[i]));
  if (sends) order.push(quick);
  const notes = fields.map((f, i) => i).filter((i) => i !== quick && note(fields[i]));
  const more = notes.length ? el("details", { class: "more" }, el("summary", {}, `More: ${notes.map((i) => labelOf(fields[i])).join(", ")}`),
    notes.map((i) => widgets[i].node)) : null;
  form = el("form", { novalidate: true, class: quick >= 0 ? "quick-form" : undefined }, a.doc && !big ? el("p", { class: "hint doc" }, a.doc) : null,
    order.map((i) => widgets[i].node), more, dice.box, err,
    el("div", { class: "submit-row" }, el("button", { type: "button", onclick: close }, "Cancel"),
      sends ? null : sendsAt >= 0 ? widgets[sendsAt].node : go));
  // The actor's seat role, for fields meant for one role (the GM's racks): the seat field's value, else the seat
  // the form is for (this phone's, or whose move it is).
  const actorRole = () => {
    const j = a.seat_field ? fields.findIndex((f) => f.name === a.seat_field) : -1;
    let who = j < 0 ? undefined : valueIn(fields, widgets, j);
    if (who === undefined || who === null || who === "") who = seatFor(a);
    const s = seatsNow().find((x) => x.name === who);
    return s ? s.role : undefined;
  };
  recheckOn(form, narrowed(fields, widgets));
  const shownNow = shownWhen(fields, widgets, actorRole);
  recheckOn(form, shownNow);
  recheckOn(form, differs(fields, widgets));
  // After the fields above are drawn or hidden: a value's question comes up once the questions above are answered
  // (till then the send buttons take one line, clear of them), and "More" shows only while something in it is.
  // A required question on the form not yet answered (the card's suit or number).
  const open = (i) => {
    if (!fields[i].required || widgets[i].node.hidden) return false;
    try { const v = widgets[i].read(); return v === undefined || v === ""; } catch { return true; }
  };
  let ready = false;
  const tidy = () => {
    const was = ready;
    ready = !order.some(open);
    if (sendsAt >= 0) widgets[sendsAt].tidy(ready);
    if (more) more.hidden = notes.every((i) => widgets[i].node.hidden);
    // The last answer brings a value's question into the send row (a Game token's trump): the row grows, so the
    // form's end comes into view instead, the row resting under the questions rather than over the card chosen.
    if (sendsAt >= 0 && ready && !was && form.isConnected && widgets[sendsAt].asked.some((q) => !q.node.hidden)) {
      requestAnimationFrame(() => {
        if (form.getBoundingClientRect().bottom > innerHeight) form.scrollIntoView({ block: "end", behavior: "instant" });
      });
    }
  };
  tidy();
  recheckOn(form, tidy);
  // The send buttons stick to the screen's bottom over the form's end: an answer brings the next open question
  // into reach above them (scrolled only as far as needed), as the tap questions do.
  if (sendsAt >= 0) form.addEventListener("click", (ev) => setTimeout(() => reach(ev.target)));
  function reach(target) {
    const at = order.findIndex((i) => widgets[i].node.contains(target));
    if (at < 0 || open(order[at])) return;
    const next = order.slice(at + 1).find(open);
    if (next === undefined) return;
    const row = form.querySelector(".submit-row");
    widgets[next].node.style.scrollMarginBottom = `${row.offsetHeight + 8}px`;
    widgets[next].node.scrollIntoView({ block: "nearest", behavior: "instant" });
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    showErr("");
    let body;
    try { body = shownNow.sending(() => readAll(fields, widgets)); } catch (e) { showErr(e.message, e.widget); return; }
    if (dice.pad) body.faces = dice.pad.read();
    else if ($("by-hand").checked && (a.rolls_dice || a.rolls)) body.faces = [];
    send(a, body, { showErr, refused, close, dice }, go);
  });
  // Each problem is said once, next to what it is about: a field's under that field, the form's above its send.
  function showErr(text, widget, retry) {
    unsay(form);
    if (sayAt(widget, text)) { err.hidden = true; return; }
    sayForm(err, text, retry);
  }
  // A refusal from the rules names the field by its key ("area: China has only 27 ..."): said at that field.
  function refused(message) {
    const m = /^([a-z_]+): /.exec(message || "");
    const i = m ? fields.findIndex((f) => f.name === m[1]) : -1;
    showErr(labelled(a, message), i >= 0 ? widgets[i] : undefined);
  }
  // What someone entered: each shown field whose value reads and differs from what the form was drawn with.
  const entered = () => Object.fromEntries(fields.flatMap((f, i) => {
    if (widgets[i].node.hidden) return [];
    let v;
    try { v = widgets[i].read(); } catch { return []; }
    return v === undefined || JSON.stringify(v) === JSON.stringify(drawn[i].default) ? [] : [[f.name, v]];
  }));
  return { node: form, entered };
}
// A field's problem, under the field (opening a fold it sits in): false when the field is not on screen.
function sayAt(w, text) {
  if (!w || !text || !w.problem) return false;
  for (let d = w.node.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
  if (!w.node.getClientRects().length) return false; // hidden (this phone's own seat): said for the form
  w.problem.textContent = text; w.problem.hidden = false;
  w.node.scrollIntoView({ block: "center", behavior: "instant" });
  return true;
}
function unsay(box) { box.querySelectorAll(".field-error[data-sent]").forEach((p) => { p.hidden = true; }); }
// The form's own problem (no field to say it at: the table away, someone else's change first), with a retry.
function sayForm(err, text, retry) {
  err.replaceChildren(text || "");
  if (text && retry) err.append(" ", el("button", { type: "button", onclick: () => { err.hidden = true; retry(); } }, "Retry"));
  err.hidden = !text;
  if (!text) return;
  // Where the phone sees it: above the form's sticky send row and below the sticky header, never under either.
  const row = err.closest("form") && err.closest("form").querySelector(".submit-row");
  err.style.scrollMarginBottom = `${(row ? row.offsetHeight : 0) + 8}px`;
  err.style.scrollMarginTop = `${document.querySelector("header.top").getBoundingClientRect().height + 8}px`;
  err.scrollIntoView({ block: "nearest", behavior: "instant" });
}

function readAll(fields, widgets) {
  const out = {};
  fields.forEach((f, i) => {
    // Not shown (shown_when, another seat role's field, nothing to choose): left out, so the system's default applies.
    if ((f.shown_when || f.for_role || f.choices_by) && widgets[i].node.hidden) return;
    let v;
    try { v = widgets[i].read(); } catch (e) { e.widget = e.widget || widgets[i]; throw e; } // the innermost field
    if (v !== undefined) out[f.name] = v;
  });
  return out;
}

// The rules name the field a refusal is about by its key ("area: China has only 27 ..."): said with
// the label the form shows ("Land area: China has only 27 ...").
function labelled(a, message) {
  const m = /^([a-z_]+): /.exec(message || "");
  const f = m && (a.fields || []).find((x) => x.name === m[1]);
  return f ? `${labelOf(f)}: ${message.slice(m[0].length)}` : message;
}
// The GM's seat (Venus 2140) runs the table: its phone acts for anyone and in any turn, as a table phone does.
function runsTable() {
  const mine = mySeat();
  return Boolean(mine) && (seatsNow().find((s) => s.name === mine.seat) || {}).role === "gm";
}
// A seated phone acting in another seat's turn (or for another seat) asks first.
async function othersTurn(a, body) {
  const mine = mySeat();
  if (!mine || runsTable()) return true;
  const answering = ((S.acts && S.acts.pending) || []).filter((p) => [p.type, ...(p.also || [])].includes(a.type) && p.seat);
  const seats = [...new Set(answering.map((p) => p.seat))];
  const forSeat = [body.player, body.actor, body.participant, body.seat].find((x) => typeof x === "string");
  const what = a.label || human(a.type);
  if (forSeat === mine.seat) {
    // Its own move in its turn, one no prompt waits for, or one the moment waits for from several seats at once
    // (each seat draws its own pool: no one seat's turn): sent. Out of turn (the moment names one other seat for
    // it, and the rules may take it: Venus 2140's exchange), it asks first.
    if (!seats.length || seats.includes(mine.seat) || seats.length > 1) return true;
    const them = seatLabel(seats[0]), me = seatLabel(mine.seat);
    return confirmBox(`${them}'s move`, `It is ${them}'s move. ${what} as ${me} anyway?`, `Yes, as ${me}`);
  }
  const other = forSeat && seats.includes(forSeat) ? forSeat : seats.length && !seats.includes(mine.seat) ? seats[0] : null;
  if (!other) return true;
  const them = seatLabel(other);
  return confirmBox(`${them}'s move`, `This phone sits at ${seatLabel(mine.seat)}'s seat. ${what} for ${them}?`, `Yes, for ${them}`);
}
async function send(a, body, form, button) {
  const expected = S.view.version;
  if (!(await othersTurn(a, body))) return;
  if (button) button.disabled = true;
  await acting(async () => { try {
    const res = await changing("/api/sessions/active/actions", { type: a.type, ...body, expected_version: expected });
    saidNow(res.result || { summary: `Done: ${a.label || human(a.type)}` });
    banner("");
    if (form) form.close();
    window.scrollTo(0, 0);
    if (!S.view || res.version !== S.view.version) await res.drawn();
  } catch (err) {
    if (err.kind === "stale") {
      const msg = "Someone changed this first. The table now shows their change: check it, then send again.";
      if (form) form.showErr(msg); else banner(msg, "error");
      await guarded(() => refresh());
    } else if (err.kind === "offline" || err.kind === "server") {
      const again = () => send(a, body, form, button);
      if (form) form.showErr(`${err.message} Your entries are kept.`, undefined, again); // said once, in the form
      else banner(err.message, "error", again);
    } else if (form && err.data && err.data.needs_dice) {
      showDicePad(form.dice, err.data.needs_dice, body.faces || []);
      form.showErr("Roll these dice and tap the faces, in the order rolled.");
      offerSmartDice(form.dice, a, body);
    } else if (form) form.refused(err.message);
    else banner(labelled(a, err.message), "error");
  } finally { if (button) button.disabled = false; } });
}

// What the smart dice are filling, on the game tab's last-change line (the dice page has the detail).
async function showDice() {
  const st = await api("GET", "/api/dice");
  const w = st.waiting;
  const text = w ? `${w.text}${w.faces.length ? ": " + w.faces.map((f) => `${f.name} ${f.face}`).join(", ") : ""}` : st.message;
  if (text && text !== S.diceSaid) said(text);
  S.diceSaid = text;
}

// Smart dice in the hardware line: each paired die's connection and battery (docs/smart-dice.md).
function diceNote(sd) {
  if (!sd || !sd.dice.length) return "";
  return ` Smart dice: ${sd.dice.map((d) => `${d.label} ${d.connection}${d.battery === null ? "" : ` ${d.battery}%`}`).join(", ")}.`;
}

// Smart dice (docs/smart-dice.md): the same roll, filled die by die by paired dice on the dice page.
async function offerSmartDice(dice, a, body) {
  const st = await api("GET", "/api/dice").catch(() => null);
  if (!st || st.kind === "none" || !st.dice.some((d) => d.paired)) return;
  const go = document.createElement("button");
  go.type = "button"; go.textContent = "Roll with smart dice";
  go.onclick = () => guarded(async () => {
    const { faces, ...fields } = body;
    await api("POST", "/api/dice/wait", { action: { type: a.type, ...fields } });
    location.href = "/dice";
  }, "Smart dice");
  dice.box.append(go);
}

function showDicePad(dice, needs, given) {
  const sides = Math.max(...needs.map((n) => { const m = /d(\d+)/i.exec(n.expr || ""); return m ? Number(m[1]) : 6; }));
  const f = { name: "faces", label: `Dice to roll: ${needs.map((n) => `${n.expr} for ${n.shown || n.label}`).join(", ")}`, kind: "faces", sides, default: given };
  dice.pad = fieldWidget(f);
  dice.box.replaceChildren(dice.pad.node);
}

// A field with `shown_when` ({"version": ["Enhanced"]}) is drawn only while every named sibling holds one of
// the listed values (docs/api.md). Returns the function that re-checks; recheckOn wires it to a form.
// A field with `for_role` ("gm": Venus 2140's racks) is drawn only while the action's actor is not a seat of
// another role: `actorRole()` gives that role (undefined: not known, e.g. a table phone with no actor chosen).
// A sibling drawn as send buttons (`sends`) holds any value a button offers until one is pressed, so a field
// shown for one of them (a Game token's trump) is drawn beforehand; `sending(read)` reads the form as the pressed
// button leaves it (a trump goes only with the Game token).
function shownWhen(fields, widgets, actorRole = () => undefined) {
  let pressed = false;
  const valueOf = (name) => {
    const i = fields.findIndex((f) => f.name === name);
    if (i < 0) return { absent: true };
    if (!pressed && widgets[i].offered) return { values: widgets[i].offered() };
    return { values: [valueIn(fields, widgets, i)] };
  };
  const holds = (when) => Object.entries(when).every(([name, allowed]) => {
    const got = valueOf(name);
    return got.absent || (Array.isArray(allowed) && got.values.some((v) => allowed.some((a) => JSON.stringify(a) === JSON.stringify(v))));
  });
  const update = () => {
    const role = actorRole();
    fields.forEach((f, i) => {
      if (!f.shown_when && !f.for_role) return;
      widgets[i].node.hidden = Boolean((f.shown_when && !holds(f.shown_when)) || (f.for_role && role !== undefined && role !== f.for_role));
    });
  };
  update();
  const recheck = () => update();
  recheck.sending = (read) => {
    pressed = true; update();
    try { return read(); } finally { pressed = false; update(); }
  };
  return recheck;
}
// A field's value as the form holds it now: a hidden field holds its default.
function valueIn(fields, widgets, i) {
  if (widgets[i].node.hidden) return fields[i].default;
  try { return widgets[i].read(); } catch { return undefined; }
}
// A pick with `choices_by` ({"field": "player", "values": {"Jo": ["Game"], "Kim": []}}) offers only the values its
// sibling's value has now (the tokens Jo holds), and is not drawn at all when that is none (docs/api.md).
function narrowed(fields, widgets) {
  const update = () => fields.forEach((f, i) => {
    if (!f.choices_by || !widgets[i].only) return;
    const j = fields.findIndex((g) => g.name === f.choices_by.field);
    const v = j < 0 ? undefined : valueIn(fields, widgets, j);
    const values = v === undefined || v === null || v === "" ? undefined : (f.choices_by.values || {})[String(v)];
    widgets[i].only(values);
    widgets[i].node.hidden = Array.isArray(values) && !widgets[i].offers();
  });
  update();
  return update;
}
// A pick with `differs_from` ("target" differs from "actor") never offers the value its sibling holds now:
// a seated phone's actor is its seat, so it is not offered as its own target (docs/api.md).
function differs(fields, widgets) {
  const update = () => fields.forEach((f, i) => {
    const j = f.differs_from ? fields.findIndex((g) => g.name === f.differs_from) : -1;
    if (j < 0 || !widgets[i].hide) return;
    let v;
    if (widgets[j].node.hidden) v = fields[j].default; else { try { v = widgets[j].read(); } catch { v = undefined; } }
    widgets[i].hide(v === "" || v === null ? undefined : v);
  });
  update();
  return update;
}
function recheckOn(node, update) { for (const kind of ["change", "input", "click"]) node.addEventListener(kind, update); }

// ---------- one widget per field kind ----------
function fieldWidget(f) {
  const id = `f${++uid}`;
  const label = labelOf(f);
  const help = f.help ? el("span", { class: "help" }, f.help) : null;
  const kinds = { count, pick, seat: pick, picks, text, texts, flag, faces, rows, json: loose };
  const w = (kinds[f.kind] || text)(f, id, label, help);
  if (!w.problem) { // where a problem found on sending is said (a number field says its own as it is typed)
    w.problem = el("p", { class: "field-error", role: "alert", hidden: true, "data-sent": "1" });
    w.node.append(w.problem);
    for (const kind of ["input", "change"]) w.node.addEventListener(kind, () => { w.problem.hidden = true; });
    w.node.addEventListener("click", (ev) => { if (ev.target.closest("button")) w.problem.hidden = true; });
  }
  return w;
}
// A free-form field from the first interface: drawn as names or rows from its default, never as JSON.
function loose(f, id, label, help) {
  const d = f.default;
  if (Array.isArray(d) && d.every((x) => typeof x === "string")) return texts({ ...f, kind: "texts" }, id, label, null);
  if (Array.isArray(d) && d.length && d.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
    const sub = Object.keys(d[0]).map((k) => ({ name: k, kind: typeof d[0][k] === "number" ? "count" : Array.isArray(d[0][k]) ? "texts" : "text", required: false }));
    return rows({ ...f, kind: "rows", fields: sub }, id, label, null);
  }
  return { node: el("span", { hidden: true }), read: () => undefined }; // optional, left at the rules' default
}
function need(f, label, v) {
  if ((v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) && f.required) throw new Error(`${label}: please fill this in.`);
}
// Numbers a person cannot get wrong: a small range is a row of values to tap; a stepper on an empty field starts
// from the field's value (or its minimum), a signed change from 0; a value out of range is refused here, in words.
function count(f, id, label, help) {
  const lo = f.minimum ?? undefined, hi = f.maximum ?? undefined;
  const signed = lo === undefined || lo < 0; // a change by some amount: empty is 0
  const clamp = (n) => Math.min(hi ?? Infinity, Math.max(lo ?? -Infinity, n));
  const input = el("input", { id, type: "number", inputmode: "numeric", step: "1", min: lo, max: hi, "aria-describedby": `${id}-e` });
  if (f.default !== undefined && f.default !== null) input.value = f.default;
  const problem = el("p", { class: "field-error", id: `${id}-e`, hidden: true });
  const exact = () => {
    const raw = input.value.trim();
    if (raw === "") return undefined;
    const n = Number(raw);
    if (Number.isNaN(n) || (Number.isFinite(n) && !Number.isInteger(n))) throw new Error(`${label}: a whole number, please.`);
    if ((lo !== undefined && n < lo) || (hi !== undefined && n > hi) || !Number.isFinite(n)) throw new Error(outOfRange(f, label, raw, n));
    return n;
  };
  const chips = [];
  const check = () => {
    let bad = "";
    try { exact(); } catch (e) { bad = e.message; }
    problem.textContent = bad; problem.hidden = !bad;
    if (bad) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    for (const c of chips) c.setAttribute("aria-pressed", String(input.value.trim() !== "" && Number(input.value) === Number(c.dataset.v)));
  };
  const set = (n) => { input.value = String(n); check(); };
  const bump = (d) => {
    const raw = input.value.trim();
    if (raw === "" || Number.isNaN(Number(raw))) set(signed ? clamp(d) : clamp(f.default ?? lo ?? 0));
    else set(clamp(Number(raw) + d));
  };
  input.addEventListener("input", check);
  const small = lo !== undefined && hi !== undefined && hi - lo <= 12;
  const values = [];
  if (small) for (let n = lo; n <= hi; n++) values.push(n);
  else if (signed) for (const n of [-3, -2, -1, 1, 2, 3]) { if (clamp(n) === n) values.push(n); }
  else for (let n = lo ?? 0; n <= Math.min(hi ?? Infinity, (lo ?? 0) + 5); n++) values.push(n);
  for (const n of values) {
    chips.push(el("button", { type: "button", class: "chip-n", "data-v": n, "aria-label": `${label}: ${n}`, "aria-pressed": "false", onclick: () => set(n) },
      signed && n > 0 ? `+${n}` : String(n)));
  }
  // A small range is said one way: its values to tap (the value is kept in the hidden box; a second way to type the
  // same number, "1 to 13" under the 13 buttons, only took the room of the questions under it).
  input.hidden = small;
  const node = el("div", { class: "field" }, small ? el("span", { class: "flabel", id: `${id}-l` }, label, help) : el("label", { for: id }, label, help),
    chips.length ? el("div", { class: small ? `chips all${values.length === 8 ? " eight" : ""}` : "chips", role: small ? "group" : undefined, "aria-labelledby": small ? `${id}-l` : undefined }, chips) : null,
    small ? input : el("div", { class: "stepper" }, el("button", { type: "button", "aria-label": `${label}: one less`, onclick: () => bump(-1) }, "−"),
      input, el("button", { type: "button", "aria-label": `${label}: one more`, onclick: () => bump(1) }, "+"),
      lo !== undefined || hi !== undefined ? el("span", { class: "hint" }, rangeText(f)) : null),
    problem);
  check();
  return {
    node, problem, read() {
      need(f, label, input.value.trim());
      return exact();
    },
  };
}
// Out of range, said with what was typed ("not 101"), never a number rounded from it: a long one is "too large".
const TYPED_ECHO = 12;
function outOfRange(f, label, raw, n) {
  const range = f.minimum != null || f.maximum != null ? rangeText(f) : "";
  if (raw.length <= TYPED_ECHO) return `${label}: ${range ? `${range}, ` : ""}not ${raw}.`;
  return `${label}: ${range ? `${range}; ` : ""}that number is too ${n < 0 ? "small" : "large"}.`;
}
function rangeText(f) {
  if (f.minimum != null && f.maximum != null) return `${f.minimum} to ${f.maximum}`;
  return f.minimum != null ? `at least ${f.minimum}` : `at most ${f.maximum}`;
}
// An optional pick's empty choice sends nothing (the rules decide); it reads as words, never "None". A setup
// option whose default is one of its choices has none: left alone, it is that default (Normal, Basic Game); nor
// has an action's pick that the table starts at one of its choices (VNM's target area: space, or the declared one).
const NOT_CHOSEN = "— not chosen —";
function blank(f, list) {
  return !f.required && !((f.setup || f.startsAt) && list.some((c) => f.default !== undefined && JSON.stringify(f.default) === JSON.stringify(c.value)));
}
function pick(f, id, label, help) {
  const list = choiceList(f);
  const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
  // What the form rules out: the value of a differs_from sibling (the actor as its own target), and
  // outside the values a choices_by sibling allows (the tokens this player holds); null allows all.
  let excluded, allowed = null;
  const offered = (i) => !(excluded !== undefined && same(excluded, list[i].value)) && (!allowed || allowed.some((v) => same(v, list[i].value)));
  let show = () => {};
  const limits = {
    hide(v) { excluded = v; show(); },
    only(values) { allowed = Array.isArray(values) ? values : null; show(); },
    offers: () => list.some((c, i) => offered(i)),
  };
  if (f.tap) { // one of the action's tap questions: a tap answers it (again: clears it), the last one sends
    let chosen = list.some((c) => f.default !== undefined && f.default !== "" && same(f.default, c.value)) ? f.default : undefined;
    const buttons = list.map((c) => el("button", { type: "button", "aria-pressed": String(chosen !== undefined && same(chosen, c.value)),
      onclick: () => {
        chosen = chosen !== undefined && same(chosen, c.value) ? undefined : c.value;
        buttons.forEach((b, i) => b.setAttribute("aria-pressed", String(chosen !== undefined && same(chosen, list[i].value))));
        f.tap();
      } }, c.label));
    show = () => buttons.forEach((b, i) => {
      b.hidden = !offered(i);
      if (b.hidden && chosen !== undefined && same(chosen, list[i].value)) { chosen = undefined; b.setAttribute("aria-pressed", "false"); }
    });
    return { ...limits, node: el("fieldset", { class: "choices field taps" }, el("legend", {}, label, help), buttons),
      chosen: () => chosen, read() { need(f, label, chosen); return chosen; } };
  }
  if (typeof f.sends === "function") { // the form's send buttons: the plain one leaves it unchosen, each other sends its choice
    let chosen;
    const answers = []; // what each asked question's button said (one at most is pressed)
    const press = (value, k, answer) => { chosen = value; answers.fill(undefined); if (k !== undefined) answers[k] = answer; f.sends(); };
    const plain = el("button", { type: "button", class: "primary", onclick: () => press(undefined) }, f.sendLabel);
    // "+ Bot" beside "Play a card" is what shows (the send row stays one line on a phone); the button's words are whole.
    const buttons = list.map((c) => el("button", { type: "button", class: "send-with", onclick: () => press(c.value) },
      el("span", { class: "vh" }, `${f.sendLabel} `), `+ ${c.label}`));
    // A sibling asked by one value (f.asks: a Game token's trump): a group of buttons that send that value with the answer.
    // The group is that field's widget: shown_when shows and hides it like any field.
    const asked = (f.asks || []).map((q, k) => {
      const v = list.find((c) => same(c.value, q.value));
      const head = `${f.sendLabel} + ${v ? v.label : q.value}, ${(q.field.label || human(q.field.name)).toLowerCase()}`;
      answers.push(undefined);
      const node = el("div", { class: "asks", role: "group", "aria-label": head }, el("p", {}, `${head}:`),
        choiceList(q.field).map((c) => el("button", { type: "button", class: "send-with", "aria-label": `${head} ${c.label}`,
          onclick: () => press(q.value, k, c.value) }, c.label)));
      return { node, value: q.value, read: () => answers[k] };
    });
    // `ready`: the form's other questions are answered. Till then the groups wait, folded, and the plain buttons stand
    // (sending says what is missing); then a value's plain button gives way to its group while the group is shown (the
    // rules need the answer: a Game token's trump); a group not shown (the token played only to block) leaves it.
    const node = el("span", { class: "sends", role: "group", "aria-label": label }, plain, buttons, asked.map((q) => q.node));
    let ready = true;
    const tidy = (now = ready) => {
      ready = now;
      node.classList.toggle("waiting", !ready);
      buttons.forEach((b, i) => {
        b.hidden = !offered(i) || (ready && asked.some((q) => !q.node.hidden && same(q.value, list[i].value)));
      });
    };
    show = () => tidy();
    return { ...limits, offers: () => true, offered: () => list.filter((c, i) => offered(i)).map((c) => c.value), asked, tidy,
      node, read: () => chosen };
  }
  if (f.quick) { // the form's last open question: each choice sends it
    let chosen;
    const buttons = list.map((c) => el("button", { type: "button", class: "primary", onclick: () => { chosen = c.value; f.quick(); } }, c.label));
    const box = el("fieldset", { class: "choices field quick" }, el("legend", {}, label, help), buttons);
    show = () => buttons.forEach((b, i) => { b.hidden = !offered(i); });
    return { ...limits, node: box, read() { need(f, label, chosen); return chosen; } };
  }
  if (list.length && list.length <= 6 && list.every((c) => c.label.length <= 22)) {
    const box = el("fieldset", { class: "choices field" }, el("legend", {}, label, help));
    const inputs = list.map((c, i) => {
      const input = el("input", { type: "radio", name: id, value: String(i) });
      if (f.default !== undefined && same(f.default, c.value)) input.checked = true;
      box.append(el("label", {}, input, c.label));
      return input;
    });
    let none = null;
    if (blank(f, list)) { // a choice made by mistake is cleared with one tap
      none = el("input", { type: "radio", name: id, value: "" });
      if (!inputs.some((x) => x.checked)) none.checked = true;
      box.append(el("label", { class: "unset" }, none, NOT_CHOSEN));
    }
    if (list.length === 1 && f.required) inputs[0].checked = true;
    show = () => { // a choice the form rules out is not offered; one left of a required pick is chosen
      inputs.forEach((x, i) => {
        x.parentNode.hidden = !offered(i);
        if (x.parentNode.hidden) x.checked = false;
      });
      if (none && !inputs.some((x) => x.checked)) none.checked = true;
      const left = inputs.filter((x) => !x.parentNode.hidden);
      if (f.required && left.length === 1) left[0].checked = true;
    };
    return {
      ...limits, node: box, read() {
        const i = inputs.findIndex((x) => x.checked);
        need(f, label, i < 0 ? undefined : list[i].value);
        return i < 0 ? undefined : list[i].value;
      },
    };
  }
  const select = el("select", { id }, f.required || blank(f, list) ? el("option", { value: "" }, f.required ? "Choose…" : NOT_CHOSEN) : null,
    list.map((c, i) => el("option", { value: String(i) }, c.label)));
  const first = select.options.length - list.length; // 1 with the empty choice, else 0
  const d = list.findIndex((c) => f.default !== undefined && same(f.default, c.value));
  if (d >= 0) select.value = String(d);
  if (!list.length) select.append(el("option", { value: "", disabled: true }, "nothing to choose right now"));
  show = () => list.forEach((c, i) => {
    const option = select.options[i + first];
    option.hidden = option.disabled = !offered(i);
    if (option.disabled && select.value === String(i)) select.value = "";
  });
  return {
    ...limits,
    node: el("div", { class: "field" }, el("label", { for: id }, label, help), select),
    read() { const v = select.value === "" ? undefined : list[Number(select.value)].value; need(f, label, v); return v; },
  };
}
function picks(f, id, label, help) {
  const list = choiceList(f);
  const box = el("fieldset", { class: "choices field", "data-min": f.minimum ?? undefined },
    el("legend", {}, label, f.minimum && f.minimum === f.maximum ? ` (choose ${f.minimum})` : "", help));
  const inputs = list.map((c) => {
    const input = el("input", { type: "checkbox" });
    if (Array.isArray(f.default) && f.default.some((d) => JSON.stringify(d) === JSON.stringify(c.value))) input.checked = true;
    box.append(el("label", {}, input, c.label));
    return input;
  });
  return {
    node: box, read() {
      const v = list.filter((_, i) => inputs[i].checked).map((c) => c.value);
      if (f.minimum !== undefined && v.length < f.minimum) throw new Error(`${label}: choose at least ${f.minimum}.`);
      if (f.maximum !== undefined && v.length > f.maximum) throw new Error(`${label}: choose at most ${f.maximum}.`);
      return v.length || f.required ? v : undefined;
    },
  };
}
function text(f, id, label, help) {
  const input = el("input", { id, type: "text", maxlength: f.max_length || 60, autocomplete: "off", placeholder: f.placeholder });
  if (typeof f.default === "string") input.value = f.default;
  return {
    node: el("div", { class: "field" }, el("label", { for: id }, label, help), input),
    read() { const v = input.value.trim(); need(f, label, v); return v === "" ? undefined : v; },
  };
}
function article(noun) { return /^[aeiou]/i.test(noun) ? "an" : "a"; }
// "Land areas" -> "Land area", "Tokens played" -> "Token played": the last word, else the first, is the noun.
function singular(label) {
  const one = (w) => w.replace(/(ie)?s$/i, (m, ie) => (ie ? "y" : ""));
  const words = label.split(" ");
  const at = /s$/i.test(words[words.length - 1]) ? words.length - 1 : /s$/i.test(words[0]) ? 0 : -1;
  if (at >= 0) words[at] = one(words[at]);
  return words.join(" ");
}
function texts(f, id, label, help) {
  const list = el("div");
  const one = singular(label);
  const items = [];
  const names = f.name === "players"; // example names are hints, never values someone has to delete
  const add = (value) => {
    const n = items.length + 1;
    const iid = `${id}-${n}`;
    const input = el("input", { id: iid, type: "text", maxlength: f.max_length || 60, autocomplete: "off",
      placeholder: names && value ? value : undefined });
    input.value = names ? "" : value || "";
    const row = el("div", { class: "list-row" }, el("div", { class: "cells" }, el("label", { for: iid, class: "help" }, `${one} ${n}`), input),
      el("button", { type: "button", "aria-label": `Remove ${one} ${n}`, onclick: () => { row.remove(); items.splice(items.indexOf(input), 1); } }, "✕"));
    items.push(input); list.append(row);
  };
  const start = Array.isArray(f.default) ? f.default : [];
  start.forEach((v) => add(v));
  while (items.length < Math.max(1, f.minimum || 0)) add("");
  const node = el("fieldset", { class: "field" }, el("legend", {}, label, help), list,
    el("button", { type: "button", onclick: () => { add(""); items[items.length - 1].focus(); } }, `Add ${article(one)} ${one.toLowerCase()}`));
  return {
    node, read() {
      const v = items.map((i) => i.value.trim()).filter(Boolean);
      need(f, label, v);
      if (f.minimum !== undefined && v.length < f.minimum) throw new Error(`${label}: at least ${f.minimum}.`);
      if (f.maximum !== undefined && v.length > f.maximum) throw new Error(`${label}: at most ${f.maximum}.`);
      return v.length ? v : undefined;
    },
  };
}
function flag(f, id, label, help) {
  const input = el("input", { id, type: "checkbox" });
  input.checked = Boolean(f.default);
  return { node: el("div", { class: "field" }, el("label", { class: "switch", for: id }, input, label), help), read: () => input.checked };
}
// A seat's own dice (a Venus 2140 scene pool) are tapped as they are: the dice chosen are the faces sent.
function poolDice(f, id, label, help) {
  const picked = new Set();
  const dice = f.offer.map((face, i) => el("button", { type: "button", class: "die", "aria-pressed": "false",
    "aria-label": `Die ${i + 1} showing ${face}`, onclick: (ev) => {
      if (picked.has(i)) picked.delete(i); else picked.add(i);
      ev.currentTarget.setAttribute("aria-pressed", String(picked.has(i)));
    } }, String(face)));
  return {
    node: el("fieldset", { class: "field" }, el("legend", {}, `${label} from your pool`, help), el("div", { class: "tapped pool" }, dice)),
    read() { const v = [...picked].sort((x, y) => x - y).map((i) => f.offer[i]); need(f, label, v); return v.length ? v : undefined; },
  };
}
function faces(f, id, label, help) {
  if (Array.isArray(f.offer) && f.offer.length && !$("by-hand").checked) return poolDice(f, id, label, help);
  const sides = f.sides || 6;
  const tapped = [];
  const shown = el("div", { class: "tapped", "aria-live": "polite" });
  const redraw = () => {
    shown.replaceChildren(...tapped.map((x, i) => el("button", { type: "button", class: "die", "aria-label": `Remove die ${i + 1} showing ${x}`,
      onclick: () => { tapped.splice(i, 1); redraw(); } }, String(x))));
    if (!tapped.length) shown.append(el("span", { class: "hint" }, "Tap a face for each die, in the order rolled."));
  };
  (Array.isArray(f.default) ? f.default : []).forEach((x) => tapped.push(x));
  const pad = el("div", { class: "dicepad" });
  for (let n = 1; n <= sides; n++) pad.append(el("button", { type: "button", "aria-label": `Add a ${n}`, onclick: () => { tapped.push(n); redraw(); } }, String(n)));
  redraw();
  return {
    node: el("fieldset", { class: "field" }, el("legend", {}, label, help), shown, pad),
    read() { need(f, label, tapped); return tapped.length ? tapped.slice() : f.required ? [] : undefined; },
  };
}
function rows(f, id, label, help) {
  const list = el("div");
  const items = [];
  const sub = f.fields || [];
  const noun = singular(label).split(" ").map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase())).join(" "); // "VENOM" stays
  const add = (value) => {
    // A player's example name is a hint to type over, never a value someone has to delete first.
    const hint = (sf) => f.name === "players" && sf.kind === "text" && value && typeof value[sf.name] === "string";
    const own = sub.map((sf) => (hint(sf) ? { ...sf, placeholder: value[sf.name] }
      : { ...sf, default: value && value[sf.name] !== undefined ? value[sf.name] : sf.default })); // this row's
    const ws = own.map((sf) => fieldWidget(sf));
    const item = { ws };
    // A row given its player (a trick, one row per player in lead order): the name heads the row, the
    // card is two taps, and the rarer extras (a token) fold away.
    const seatAt = sub.findIndex((sf) => sf.kind === "seat" && value && value[sf.name] !== undefined);
    const folded = seatAt < 0 ? [] : sub.map((sf, i) => i).filter((i) => i !== seatAt && !sub[i].required);
    if (seatAt >= 0) ws[seatAt].node.hidden = true;
    const shown = ws.filter((w, i) => !folded.includes(i)).map((w) => w.node);
    const extras = folded.length ? el("details", { class: "more" }, el("summary", {}, `${human(sub[folded[0]].label || sub[folded[0]].name)} (optional)`),
      folded.map((i) => ws[i].node)) : null;
    const box = el("div", { class: seatAt >= 0 ? "rows-item seated" : "rows-item" }, seatAt >= 0 ? el("h4", {}, String(value[sub[seatAt].name])) : null,
      shown, extras,
      el("button", { type: "button", onclick: () => { box.remove(); items.splice(items.indexOf(item), 1); renumber(); } }, `Remove this ${noun}`));
    item.box = box;
    recheckOn(box, narrowed(own, ws));
    recheckOn(box, shownWhen(own, ws));
    if (extras) { // nothing left to fold (the player holds no token): no "Token (optional)" either
      const fold = () => { extras.hidden = folded.every((i) => ws[i].node.hidden); };
      fold(); recheckOn(box, fold);
    }
    items.push(item); list.append(box); renumber();
  };
  const renumber = () => items.forEach((it, i) => it.box.setAttribute("aria-label", `${label} ${i + 1}`));
  const start = Array.isArray(f.default) ? f.default : [];
  start.forEach((v) => add(v));
  // Optional rows with no default start empty: the rules' own values apply unless someone adds one.
  if (f.required) while (items.length < (f.minimum || 1)) add(null);
  const node = el("fieldset", { class: "field" }, el("legend", {}, label, help), list,
    el("button", { type: "button", onclick: () => add(null) }, `Add ${article(noun)} ${noun}`));
  return {
    node, read() {
      if (!items.length && !f.required) return undefined;
      const v = items.map((it) => readAll(sub, it.ws));
      if (f.minimum !== undefined && v.length < f.minimum) throw new Error(`${label}: at least ${f.minimum}.`);
      if (f.maximum !== undefined && v.length > f.maximum) throw new Error(`${label}: at most ${f.maximum}.`);
      need(f, label, v);
      return v;
    },
  };
}

// ---------- corrections: +/- and set on every tracked number ----------
function tracked() {
  return (S.view && Array.isArray(S.view.tracked)) ? S.view.tracked : [];
}
// A seated phone's own numbers come first ("Kim's VP", "Ann (Venus): population"): the rest keep the table's order.
function ownFirst(items) {
  const mine = mySeat();
  if (!mine) return items;
  const names = [...new Set([seatLabel(mine.seat), mine.seat])];
  const own = (t) => names.some((n) => { const l = t.label || ""; return l.startsWith(`${n}'s `) || l.startsWith(`${n}: `); });
  return [...items.filter(own), ...items.filter((t) => !own(t))];
}
function drawNumbers() {
  const list = $("numbers");
  const items = ownFirst(tracked());
  $("numbers-box").hidden = !items.length;
  $("numbers-title").textContent = `Fix a number (${items.length})`;
  // A live update redraws the list: the control someone is using (the new value being typed) keeps the focus.
  const now = document.activeElement;
  const using = now && list.contains(now) ? { key: now.closest("li").dataset.key, label: now.getAttribute("aria-label"), input: now.tagName === "INPUT" } : null;
  list.replaceChildren();
  for (const t of items) {
    const name = human(t.label || t.key);
    const value = el("span", { class: "v" }, String(t.value));
    const setbox = el("div", { class: "setbox", hidden: true });
    // A conserved number (VNM population: chips move between areas, worlds and the destroyed pile): − and + ask
    // where the chip goes to or comes from, and one tap there is the whole correction.
    const moves = t.balance ? { less: movesFor(t, name, -1), more: movesFor(t, name, 1) } : null;
    const step = (dir) => () => {
      if (!moves) { correct(t, t.value + dir); return; }
      const key = `${t.key}:${dir}`;
      S.moveOpen = S.moveOpen === key ? null : key;
      moves.less.hidden = S.moveOpen !== `${t.key}:-1`; moves.more.hidden = S.moveOpen !== `${t.key}:1`;
      const open = moves.less.hidden ? moves.more : moves.less;
      if (!open.hidden) open.scrollIntoView({ block: "nearest", behavior: "instant" });
    };
    const li = el("li", {}, el("span", {}, name),
      el("button", { type: "button", "aria-label": `${name}: one less`, disabled: t.minimum !== undefined && t.minimum !== null && t.value <= t.minimum,
        "aria-expanded": moves ? String(S.moveOpen === `${t.key}:-1`) : undefined, onclick: step(-1) }, "−"),
      value,
      el("button", { type: "button", "aria-label": `${name}: one more`, disabled: t.maximum !== undefined && t.maximum !== null && t.value >= t.maximum,
        "aria-expanded": moves ? String(S.moveOpen === `${t.key}:1`) : undefined, onclick: step(1) }, "+"),
      el("button", { type: "button", "aria-label": `Set ${name}`, onclick: () => {
        setbox.hidden = !setbox.hidden;
        S.setOpen = setbox.hidden ? null : t.key; S.setValue = undefined;
        if (!setbox.hidden) setbox.querySelector("input").focus();
      } }, "Set"),
      moves ? [moves.less, moves.more] : null, setbox);
    if (moves) { moves.less.hidden = S.moveOpen !== `${t.key}:-1`; moves.more.hidden = S.moveOpen !== `${t.key}:1`; }
    const iid = `set${++uid}`;
    const input = el("input", { id: iid, type: "number", inputmode: "numeric", value: t.value, min: t.minimum ?? undefined, max: t.maximum ?? undefined });
    input.addEventListener("input", () => { S.setValue = input.value; });
    if (S.setOpen === t.key) { // a live update redraws the list: keep the box someone is typing in
      setbox.hidden = false;
      if (S.setValue !== undefined) input.value = S.setValue;
    }
    setbox.append(el("label", { for: iid, class: "help" }, `New value of ${name}`), input,
      el("button", { type: "button", class: "primary", onclick: () => correct(t, Number(input.value), input.value.trim()) }, "Save"));
    li.dataset.key = t.key;
    list.append(li);
  }
  const row = using && [...list.children].find((li) => li.dataset.key === using.key);
  const back = row && (using.input ? row.querySelector("input") : [...row.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === using.label));
  if (back && !back.disabled && !back.closest("[hidden]")) back.focus({ preventScroll: true });
}
// Where one chip of a conserved number comes from (`dir` 1: the piles holding one) or goes to (-1: any pile):
// one button each ("China 23", "the destroyed pile 0"), the tap sends the correction.
function movesFor(t, name, dir) {
  const piles = tracked().filter((p) => p.balance === t.balance && p.key !== t.key && (dir < 0 || p.value > 0))
    .map((p) => ({ key: p.key, label: p.pile || p.label, holds: p.value }));
  const head = dir > 0 ? `One more for ${name}, from:` : `One less for ${name}, to:`;
  return el("div", { class: "moves", role: "group", "aria-label": head, hidden: true }, el("p", { class: "help" }, head),
    piles.length ? piles.map((p) => el("button", { type: "button", "aria-label": `${name}: one ${dir > 0 ? "more, from" : "less, to"} ${p.label}`,
      onclick: () => correct(t, t.value + dir, String(t.value + dir), p.key) }, `${p.label} `, el("span", { class: "n" }, String(p.holds))))
      : el("p", {}, "No chips anywhere to take it from."));
}
// ``typed``: the words in the Set box, checked here as a number field checks them (the range said with what was
// typed, never a rounded 100000000000000000000), so nothing out of range is sent. ``balance``: the pile a conserved
// number's difference comes from or goes to.
async function correct(t, value, typed = String(value), balance = undefined) {
  const label = human(t.label || t.key);
  if (typed === "" || Number.isNaN(value) || (Number.isFinite(value) && !Number.isInteger(value))) { banner(`${label}: a whole number, please.`, "error"); return; }
  if ((t.minimum != null && value < t.minimum) || (t.maximum != null && value > t.maximum) || !Number.isFinite(value)) {
    banner(outOfRange(t, label, typed, value), "error"); return;
  }
  await acting(async () => { try {
    const res = await changing("/api/sessions/active/actions",
      { type: "correct", key: t.key, value, reason: "fixed on a phone", expected_version: S.view.version, ...(balance ? { balance } : {}) });
    saidNow(res.result || { summary: `Corrected ${human(t.label || t.key)} to ${value}` });
    S.setOpen = null; S.setValue = undefined; S.moveOpen = null; S.barFix = null;
    banner("");
    await res.drawn();
  } catch (err) {
    if (err.kind === "stale") { banner("Someone changed this first. Here is the table now: check the number and fix it again if needed.", "error"); await guarded(() => refresh()); }
    else if (err.kind === "offline" || err.kind === "server") banner(err.message, "error", () => correct(t, value, typed, balance));
    else banner(err.message, "error");
  } });
}

// The seat waited for when this phone sits at another one (null: a table phone, or its own turn).
function outOfTurn() {
  const mine = mySeat();
  if (runsTable()) return null;
  const waiting = [...new Set(((S.acts && S.acts.pending) || []).map((p) => p.seat).filter(Boolean))];
  return mine && waiting.length && !waiting.includes(mine.seat) ? waiting[0] : null;
}
async function press(b, button) {
  // The table's buttons act in the turn of whoever is waited for: a seated phone out of its turn asks first.
  const mine = mySeat(), other = outOfTurn();
  const them = other && seatLabel(other);
  if (other && !(await confirmBox(`${them}'s move`, `This phone sits at ${seatLabel(mine.seat)}'s seat. ${human(b.label)} (button ${b.button}) for ${them}?`, `Yes, for ${them}`))) return;
  button.disabled = true;
  try {
    const res = await api("POST", `/api/buttons/${b.button}`, { hold: Boolean(b.hold) });
    const r = (res && res.result) || { summary: `${b.label}: done` };
    // Said as every phone says it ("Button C (held): The join screen ..."), a game change or not.
    saidNow(r.button ? r : { ...r, button: b.hold ? `hold ${b.button}` : b.button }, "button");
    banner("");
    await refresh();
  } catch (err) {
    if (err.kind === "offline" || err.kind === "server") banner(err.message, "error", () => press(b, button));
    else banner(buttonSaid(b.hold ? `hold ${b.button}` : b.button, err.message), "error", null, true);
  } finally { button.disabled = false; }
}

async function undoRedo(which) {
  const u = S.view && S.view.undo, mine = mySeat();
  if (which === "undo" && mine && u && u.seat && u.seat !== mine.seat
    && !(await confirmBox(`Undo ${seatLabel(u.seat)}'s change?`, `"${u.summary}" was ${seatLabel(u.seat)}'s. Undo it from ${seatLabel(mine.seat)}'s phone?`, "Undo it"))) return;
  await acting(async () => { try {
    const res = await changing(`/api/sessions/active/${which}`, { expected_version: S.view.version });
    saidNow(res.result && res.result.summary ? res.result : { summary: which === "undo" ? "Undid: the last action" : "Redid: it" });
    banner("");
    window.scrollTo(0, 0);
    await res.drawn();
  } catch (err) {
    if (err.kind === "stale") { banner("Someone changed this first: here is the table now. Undo again if you still want to.", "error"); await guarded(() => refresh()); }
    else if (err.kind === "offline" || err.kind === "server") banner(err.message, "error", () => undoRedo(which));
    else banner(err.message, "error");
  } });
}

// ---------- seats ----------
// Seat changes one at a time (#17 F15): a stale seat dropped while a claim is out must not delete the new seat's
// cookie, nor a claim go out before a drop's answer is in.
function seatStep(fn) {
  const next = (S.seatOp || Promise.resolve()).then(fn, fn);
  S.seatOp = next.catch(() => null);
  return next;
}
async function leaveSeat() {
  const key = seatKey();
  if (key) localStorage.removeItem(key);
  await seatStep(() => fetch("/api/panel/seat", { method: "DELETE", credentials: "same-origin" }).catch(() => null));
}
// The table said this seat is gone: forget it here (only the entry that held that token) and its cookie, unless
// the cookie holds a seat in the game on the table by now (a claim that won the race keeps it).
async function dropSeat(key, token) {
  let kept = null;
  try { kept = key && JSON.parse(localStorage.getItem(key) || "null"); } catch { kept = { token }; }
  if (kept && (!token || kept.token === token)) localStorage.removeItem(key);
  const headers = token ? { "X-Tableside-Seat": token } : {};
  await seatStep(() => fetch("/api/panel/seat?gone=1", { method: "DELETE", headers, credentials: "same-origin" }).catch(() => null));
}
// The table's word on this phone's seat, from the view it answered (#17 F10): a seat carried into a new game with
// the same name is kept (said once), and the seat shown is the one the table acts as, whatever was stored.
function keepSeat(before, switched) {
  const key = seatKey(), kept = mySeat(), now = S.view.seat || null;
  if (now && !(kept && kept.seat === now)) {
    localStorage.setItem(key, JSON.stringify({ seat: now, token: before && before.seat === now ? before.token : null }));
    if (switched && before && before.seat === now) S.seatKept = now;
  } else if (!now && kept) { // held no more (taken over while this phone was away): said once, with its name
    localStorage.removeItem(key);
    if (!S.seatLeft) { S.seatLeft = seatLabel(kept.seat); S.saidAt = ""; }
  }
}
// The seat dialog says up front when a held seat frees (#18: only when its phone releases it, or after
// SEAT_GONE_AFTER away with no request and no stream), and counts down; the seat is offered once it has.
async function openSeats() {
  const list = $("seat-list");
  const mine = mySeat();
  let seats = seatsNow(), goneAfter = 120;
  const got = await api("GET", "/api/sessions/active/seats").catch(() => null);
  if (got) { seats = got.seats; goneAfter = got.gone_after; }
  const asked = Date.now();
  const away = goneAfter % 60 ? `${goneAfter} seconds` : `${goneAfter / 60} minute${goneAfter === 60 ? "" : "s"}`;
  const choose = async (name, takeover = false) => {
    const key = seatKey();
    if (!name) { await leaveSeat(); restream(); $("seat-dialog").close(); said("This phone shows the table view."); await guarded(() => refresh(), "Changing seat"); return; }
    if (takeover && !(await confirmBox(`Take over ${name}'s seat?`, `${name}'s phone has been away for ${away}. It becomes a table phone; this one sits at ${name}'s seat.`, "Take over"))) return;
    let res;
    try { res = await seatStep(() => api("POST", "/api/sessions/active/seats", takeover ? { seat: name, takeover: true } : { seat: name })); } catch (err) {
      banner(err.message, "error");
    }
    if (!res) return;
    // Kept for the game the seat is in (a new game may have started while the dialog was open).
    localStorage.setItem(res.session ? `tableside.seat.${res.session}` : key, JSON.stringify({ seat: res.seat, token: res.token }));
    restream(); // the stream is opened again with the seat's cookie: the table counts this phone as here
    S.open.clear();
    $("seat-dialog").close();
    said(`This phone now sits at ${seatLabel(res.seat)}'s seat.`);
    await guarded(() => refresh(), "Changing seat");
  };
  const ticks = [];
  list.replaceChildren(el("button", { type: "button", class: !mine ? "primary" : "", onclick: () => choose(null) }, "Table (a shared phone)"));
  for (const seat of seats) {
    const s = typeof seat === "string" ? { name: seat, role: "player" } : seat;
    const name = `${s.label || s.name}${s.role === "gm" ? " (game master)" : ""}`, who = s.label || s.name;
    const held = s.claimed && !(mine && mine.seat === s.name);
    if (!held) {
      list.append(el("button", { type: "button", class: mine && mine.seat === s.name ? "primary" : "", onclick: () => choose(s.name) }, name));
      continue;
    }
    const button = el("button", { type: "button", disabled: true, onclick: () => choose(s.name, true) }, `${name} (taken)`);
    const note = el("p", { class: "hint seat-note" });
    const frees = s.frees_in === undefined || s.frees_in === null ? null : asked + s.frees_in * 1000;
    const tick = () => {
      const left = frees === null ? null : Math.max(0, Math.ceil((frees - Date.now()) / 1000));
      const free = left === 0;
      button.disabled = !free;
      button.textContent = free ? `Take over ${who}'s seat` : `${name} (taken)`;
      const rule = `${who}'s phone holds this seat; it frees when ${who} releases it or after ${away} away.`;
      if (s.here || (frees === null && s.here === undefined)) note.textContent = `${rule}${s.here ? " That phone is here now." : ""}`;
      else if (free) note.textContent = `${who}'s phone has been away for ${away}: this phone may take the seat over.`;
      else {
        const at = new Date(frees).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
        note.textContent = `${rule} It frees at ${at} (in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}) unless that phone comes back.`;
      }
    };
    tick(); ticks.push(tick);
    list.append(el("div", { class: "seat-held" }, button, note));
  }
  clearInterval(S.seatTimer);
  S.seatTimer = ticks.length ? setInterval(() => ticks.forEach((t) => t()), 1000) : null;
  const dialog = $("seat-dialog");
  dialog.addEventListener("close", () => { clearInterval(S.seatTimer); S.seatTimer = null; }, { once: true });
  if (!dialog.open) dialog.showModal();
}

// ---------- confirmation ----------
function confirmBox(title, textBody, yes) {
  const d = $("confirm");
  $("confirm-title").textContent = title; $("confirm-text").textContent = textBody; $("confirm-yes").textContent = yes;
  d.returnValue = "";
  d.showModal();
  return new Promise((resolve) => d.addEventListener("close", () => resolve(d.returnValue === "yes"), { once: true }));
}

// ---------- history: timeline, chart, luck ----------
async function loadHistory() {
  drawTimeline();
  if (!S.view) return;
  const v = S.view.version;
  if (S.historyAt === `${S.view.id}:${v}`) return;
  try {
    const [svg, luck] = await Promise.all([
      fetch("/api/panel/chart.svg", { credentials: "same-origin", cache: "no-store" }).then((r) => (r.ok ? r.text() : "")),
      api("GET", "/api/panel/luck"),
    ]);
    $("chart").innerHTML = svg || "<p class='hint'>No chart for this game yet.</p>";
    drawLuck(luck);
    S.historyAt = `${S.view.id}:${v}`;
  } catch (err) { banner(`History: ${err.message}`, "error", () => loadHistory()); }
}
function drawLuck(luck) {
  const box = $("luck");
  box.replaceChildren();
  const rowsL = (luck && luck.players) || [];
  if (!rowsL.length) { // dice rolled in private (a seat's own scene pool) are rolled, only not counted: said so
    box.append(el("p", { class: "hint" }, luck && luck.private_dice ? "No dice rolled in the open yet." : "No dice rolled yet."));
    if (luck && luck.note) box.append(el("p", { class: "hint" }, luck.note));
    return;
  }
  box.append(el("table", { class: "luck" }, el("thead", {}, el("tr", {}, ["Who", "Dice", "Average face", "Verdict"].map((h) => el("th", { scope: "col" }, h)))),
    // each player named and coloured as the board draws them ("Ann (Venus)" in purple): the server's label and colour
    el("tbody", {}, rowsL.map((p) => el("tr", { class: Number.isInteger(p.colour) ? `c${p.colour % 7}` : undefined },
      el("td", {}, p.name), el("td", {}, String(p.dice)),
      el("td", {}, p.average), el("td", {}, p.verdict))))));
  if (luck.note) box.append(el("p", { class: "hint" }, luck.note));
}
function drawTimeline() {
  const list = $("log");
  list.replaceChildren();
  if (!S.log.length) { list.append(el("li", { class: "hint" }, "Nothing has happened yet.")); return; }
  const gapAt = new Map((S.gaps || []).map((g) => [g.before, g]));
  for (const e of S.log.slice().reverse()) {
    const summary = (e.result && e.result.summary) || human(e.type);
    const who = e.seat || (e.action && (e.action.player || e.action.attacker)) || "";
    const meta = [`#${e.seq}`, when(e.at), who ? `by ${seatLabel(who)}` : "", e.seat ? "" : e.source ? `from ${SOURCE_WORDS[e.source] || e.source}` : ""].filter(Boolean).join(" · ");
    const li = el("li", { class: e.type === "correct" ? "fix" : undefined }, e.type === "correct" ? `Correction: ${summary}` : summary, el("span", { class: "meta" }, meta));
    for (const r of rollsOf(e)) {
      li.append(el("div", { class: "tapped" }, el("span", { class: "help" }, `${human(r.shown || r.label || r.expr || "Dice")}:`),
        (r.rolls || r.faces || []).map((x) => el("span", { class: "die small" }, String(x)))));
    }
    list.append(li);
    const gap = gapAt.get(e.seq);
    if (gap) { // changes made while this phone was away, beyond what its moment carried
      const n = gap.before - gap.after - 1;
      list.append(el("li", { class: "earlier gap" }, el("button", { type: "button", onclick: (ev) => fillGap(gap, ev.currentTarget) },
        `${n} earlier change${n === 1 ? "" : "s"} — show`)));
    }
  }
  if (S.logFrom > 0) { // a long game: the phone read only the newest changes; older ones on request
    list.append(el("li", { class: "earlier" }, el("button", { type: "button", onclick: (ev) => earlier(ev.currentTarget) },
      `Earlier changes (${S.logFrom} before #${S.logFrom + 1})`)));
  }
}
async function earlier(button) {
  button.disabled = true;
  const from = Math.max(0, S.logFrom - LOG_PAGE);
  const got = await guarded(() => api("GET", `/api/sessions/active/log?after=${from}&limit=${S.logFrom - from}`), "Earlier changes");
  if (got) {
    S.log = got.filter((e) => e.seq <= S.logFrom).concat(S.log);
    S.logFrom = from;
  }
  drawTimeline();
}
// The newest page of a gap first (the ones next to what is shown); what is left stays a gap.
async function fillGap(gap, button) {
  button.disabled = true;
  const n = Math.min(gap.before - gap.after - 1, LOG_PAGE), from = gap.before - 1 - n;
  const got = await guarded(() => api("GET", `/api/sessions/active/log?after=${from}&limit=${n}`), "Earlier changes");
  if (got) {
    const have = new Set(S.log.map((e) => e.seq));
    S.log = S.log.concat(got.filter((e) => e.seq > from && e.seq < gap.before && !have.has(e.seq))).sort((x, y) => x.seq - y.seq);
    gap.before = from + 1;
    S.gaps = S.gaps.filter((g) => g.before > g.after + 1);
  }
  drawTimeline();
}
function rollsOf(e) {
  const objects = (x) => Array.isArray(x) && x.length && x.every((r) => r && typeof r === "object");
  if (objects(e.rolls)) return e.rolls;
  if (e.result && objects(e.result.rolls)) return e.result.rolls;
  if (e.action && e.action.roll) return [e.action.roll];
  return [];
}

// ---------- sessions ----------
async function loadSystems() {
  S.systems = await api("GET", "/api/systems?brief=1"); // names, options and buttons: no page draws these actions
  if (!S.optionsFollowed) { recheckOn($("option-fields"), () => S.optionsShown && S.optionsShown()); S.optionsFollowed = true; }
  const box = $("system-box");
  box.querySelectorAll("label").forEach((n) => n.remove());
  S.systems.forEach((s, i) => {
    const input = el("input", { type: "radio", name: "system", value: s.id });
    if (i === 0) input.checked = true;
    input.addEventListener("change", showOptions);
    box.append(el("label", {}, input, s.name));
  });
  showOptions();
}
function chosenSystem() { const r = document.querySelector("input[name=system]:checked"); return S.systems.find((s) => s.id === (r && r.value)); }
function showOptions() {
  const sys = chosenSystem();
  const box = $("option-fields");
  S.optionWidgets = (sys ? sys.options : []).map((o) => fieldWidget({ ...o, setup: true }));
  box.replaceChildren(sys && sys.description ? el("p", { class: "hint" }, sys.description) : "", ...S.optionWidgets.map((w) => w.node));
  S.optionsShown = shownWhen(sys ? sys.options : [], S.optionWidgets);
}
async function startGame(ev) {
  ev.preventDefault();
  const form = $("new-game"), err = form.querySelector(".form-error");
  const sys = chosenSystem();
  err.hidden = true;
  unsay(form);
  let options;
  try { options = readAll(sys.options, S.optionWidgets); } catch (e) { if (!sayAt(e.widget, e.message)) sayForm(err, e.message); return; }
  if (S.view && !(await confirmBox("Start a new game?", `The table switches from ${systemName(S.view.system)} (version ${S.view.version}) to a new ${sys.name} game on every phone and the display. The current game stays saved under Saved games.`, "Start new game"))) return;
  try {
    await acting(async () => { // the new game's event, heard meanwhile, asks nothing more: the moment drawn next is its
      await api("POST", "/api/sessions?brief=1", { system: sys.id, options });
      said(`A new ${sys.name} game has started.`);
      await refresh("session");
    });
    showTab("game");
  } catch (e) {
    if (e.kind === "refused" && optionRefused(sys.options, e.message)) return;
    sayForm(err, e.kind === "offline" ? `${e.message} Your entries are kept.` : e.message);
  }
}
// The rules refuse an option by its key or its label ("options: first_player Mars is wrong: ...", "options:
// Players needs at least 2 entries"): said under that option, with its label; false when it names none.
function optionRefused(fields, message) {
  const rest = String(message || "").replace(/^options: /, "");
  const i = fields.findIndex((f) => [f.name, labelOf(f)].some((n) => rest.startsWith(`${n} `) || rest.startsWith(`${n}:`)));
  if (i < 0) return false;
  const f = fields[i], named = rest.startsWith(f.name) && !rest.startsWith(labelOf(f)) ? f.name : labelOf(f);
  const why = rest.slice(named.length).replace(/^:?\s*/, "");
  return sayAt(S.optionWidgets[i], `${labelOf(f)}: ${why}`);
}
async function loadSessions() {
  let list;
  try { list = await api("GET", "/api/panel/sessions"); } catch (err) { banner(`Saved games: ${err.message}`, "error", () => loadSessions()); return; }
  const ul = $("sessions");
  ul.replaceChildren();
  if (!list.length) ul.append(el("li", { class: "hint" }, "No saved games yet."));
  for (const s of list) {
    const bits = [s.players && s.players.length ? s.players.join(", ") : "", s.round, `last change ${when(s.last_change)}`].filter(Boolean);
    const li = el("li", { class: s.active ? "active" : undefined },
      el("div", { class: "who" }, `${s.system_name}${s.active ? " (playing now)" : ""}`),
      el("div", {}, bits.join(" · ")),
      el("div", { class: "hint" }, `${s.version} action${s.version === 1 ? "" : "s"} · started ${when(s.created_at)}`));
    const row = el("div", { class: "row" });
    if (!s.active) {
      row.append(el("button", { type: "button", onclick: async () => {
        const what = `${s.system_name}${s.players && s.players.length ? " with " + s.players.join(", ") : ""}`;
        if (!(await confirmBox("Switch the table?", `Every phone and the display switch to ${what}. ${S.view ? `The game now playing stays saved.` : ""}`, "Switch"))) return;
        await guarded(() => acting(async () => { await api("POST", "/api/sessions/active/activate?brief=1", { id: s.id }); await refresh("session"); showTab("game"); }), "Switching");
      } }, "Play this game"));
    }
    row.append(el("a", { href: `/api/sessions/${encodeURIComponent(s.id)}/export?format=json`, download: "" }, "Export JSON"),
      el("a", { href: `/api/sessions/${encodeURIComponent(s.id)}/export?format=csv`, download: "" }, "Export CSV"));
    li.append(row);
    ul.append(li);
  }
}

// ---------- the e-paper preview: fetched only when shown, a 304 when the frame did not change ----------
async function loadFrame() {
  try {
    const res = await fetch("/display.png", { credentials: "same-origin", cache: "no-cache" });
    if (!res.ok) return;
    const tag = res.headers.get("ETag");
    if (tag && tag === S.frameTag) return;
    S.frameTag = tag;
    const img = $("frame");
    if (img.dataset.url) URL.revokeObjectURL(img.dataset.url);
    img.dataset.url = URL.createObjectURL(await res.blob());
    img.src = img.dataset.url;
  } catch { /* the banner already says when the table is unreachable */ }
  if (!S.hw || S.hw.display === "starting" || S.hw.buttons === "starting") {
    S.hw = await api("GET", "/api/hardware").catch(() => null);
    if (S.hw) $("hardware").textContent = `${S.hw.display_note || S.hw.display}. ${S.hw.buttons_note || ""}${diceNote(S.hw.smart_dice)}`;
  }
}

// ---------- tabs ----------
function showTab(name) {
  S.tab = name;
  for (const b of document.querySelectorAll(".tabs button")) {
    if (b.dataset.tab === name) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
  }
  for (const t of ["game", "history", "games", "display"]) $(`tab-${t}`).hidden = t !== name;
  if (name === "history") loadHistory();
  if (name === "games") loadSessions();
  if (name === "display") loadFrame();
  window.scrollTo(0, 0);
}

// ---------- live: the event stream ----------
function follow() {
  const es = new EventSource("/api/stream");
  S.stream = es;
  es.addEventListener("hello", (ev) => {
    const hello = JSON.parse(ev.data);
    const wasDown = S.down;
    S.down = false;
    setLink("Live: changes show here as they happen", "live");
    const behind = !S.view ? hello.version !== null : hello.version !== S.view.version;
    if (wasDown || behind) {
      guarded(() => refresh("reconnect"), "Catching up").then(() => {
        if (wasDown) said(S.view ? `Reconnected: caught up with the table (version ${S.view.version}).` : "Reconnected.");
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
    banner(d.button ? buttonSaid(d.button, d.message) : d.message, "error", null, true);
  });
  // A press that changes no game (a held C shows the join screen on the panel): said in the same line as a change.
  es.addEventListener("said", (ev) => {
    const d = JSON.parse(ev.data);
    said(d.button ? buttonSaid(d.button, d.message) : d.message);
  });
  // The e-paper is drawn a moment after a change (a burst of changes is drawn once): fetch it then.
  es.addEventListener("frame", () => { if (S.tab === "display") loadFrame(); });
  es.addEventListener("dice", () => guarded(showDice)); // smart dice: what waits, each die as it lands
  es.addEventListener("hardware", () => { S.hw = null; if (S.tab === "display") loadFrame(); });
  es.onerror = () => {
    S.down = true;
    setLink("Connection lost: reconnecting…", "down"); // the browser tries the stream again by itself
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
    return { text: "Connection lost: the table does not answer. Trying again every few seconds…", again: 5000 };
  }
  if (res.ok) { // it opens now: the refusal is over
    ctrl.abort();
    return { text: "Connection lost: reconnecting…", again: 1000 };
  }
  const data = await res.json().catch(() => null);
  if (res.status === 401) { location.href = "/join"; return { text: "Join code needed", again: 15000 }; }
  if (res.status === 503 && data && data.poll) { // the table's limit of open streams (max_streams)
    return { text: "Too many phones are following the table live: this one checks every few seconds instead", again: 15000 };
  }
  const why = data && data.error ? data.error : `the table answered with an error (${res.status})`;
  return { text: `Live updates refused: ${why}. This phone checks every few seconds instead`, again: 15000 };
}
// Without the stream (refused: too many phones) the page asks for its moment every few seconds, the same
// request as after a change: with its tag as base, an unchanged table is a 304 and a change only the patch.
// A seat taken or left: a stream opened before it does not count the phone as present at its seat.
function restream() {
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

// ---------- keep the screen awake during a game ----------
async function keepAwake() {
  if (!("wakeLock" in navigator) || !S.view || document.visibilityState !== "visible" || S.wake) return;
  try { S.wake = await navigator.wakeLock.request("screen"); S.wake.addEventListener("release", () => { S.wake = null; }); } catch { S.wake = null; }
}

async function start() {
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => { S.autoGames = false; showTab(b.dataset.tab); });
  for (const b of document.querySelectorAll("[data-goto]")) b.addEventListener("click", () => showTab(b.dataset.goto));
  $("banner-close").addEventListener("click", () => banner(""));
  // A refusal's bar at the screen's bottom: an open form's sticky send row rests above it, never under it (style.css).
  new ResizeObserver(() => document.documentElement.style.setProperty("--banner-h", `${$("banner").offsetHeight}px`)).observe($("banner"));
  $("banner-retry").addEventListener("click", () => { const r = S.retry; banner(""); if (r) r(); });
  $("undo").addEventListener("click", () => undoRedo("undo"));
  $("said-more").addEventListener("click", toggleSaid);
  $("said").addEventListener("click", toggleSaid);
  window.addEventListener("resize", fitSaid);
  $("redo").addEventListener("click", () => undoRedo("redo"));
  $("seat").addEventListener("click", openSeats);
  $("new-game").addEventListener("submit", startGame);
  $("by-hand").checked = localStorage.getItem("tableside.byhand") === "1";
  $("by-hand").addEventListener("change", () => {
    localStorage.setItem("tableside.byhand", $("by-hand").checked ? "1" : "0");
    if (S.acts) { S.open.clear(); drawActions(); } // dice actions now open a form for the faces
  });
  document.addEventListener("visibilitychange", keepAwake);
  const boot = async () => { await loadSystems(); await refresh(); S.started = true; };
  await guarded(boot, "Loading the table");
  if (!S.view && S.started) { showTab("games"); S.autoGames = true; } // no game yet: the New game form
  else if (!S.view) showTab("game");
  follow();
}
start();
