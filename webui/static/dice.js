// The dice page: dice in reach (kind, colour, battery), pairing (name, seat, GoDice shell), simulated
// rolls, and what the table waits for, die by die. It talks only to /api/dice* (docs/smart-dice.md).
"use strict";
const $ = (id) => document.getElementById(id);
const D = { status: null, seats: [], session: null };
// The page's words in the phone's language (#38), as the panel's core.js t(): this phone's catalog is embedded in
// the page (empty for English, whose msgids are the words), {name} placeholders filled from ``params``.
const wordsNode = document.getElementById("words");
const words = wordsNode ? JSON.parse(wordsNode.textContent) : {};
const t = (msgid, params = {}) =>
  (words[msgid] || msgid).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));

function seatHeaders() {
  if (!D.session) return {};
  try {
    const seat = JSON.parse(localStorage.getItem(`tableside.seat.${D.session}`) || "null");
    return seat && seat.token ? { "X-Tableside-Seat": seat.token } : {};
  } catch { return {}; }
}
// A seat this phone held in a game gone by (its cookie outlives the game): dropped, as the game page
// drops it (app.js dropSeat), and the request asked again as the table's view, so the page never dead-ends.
async function dropStaleSeat() {
  if (D.session) localStorage.removeItem(`tableside.seat.${D.session}`);
  await fetch("/api/panel/seat?gone=1", { method: "DELETE", credentials: "same-origin" }).catch(() => null);
}
async function api(method, path, body, again = false) {
  const headers = { Accept: "application/json", ...seatHeaders() };
  const opts = { method, headers, credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) { headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let res;
  try { res = await fetch(path, opts); } catch { throw new Error(t("Could not reach the table: check the Wi-Fi.")); }
  if (res.status === 401) { location.href = "/join"; throw new Error(t("Join code needed")); }
  const data = await res.json().catch(() => null);
  if (res.status === 409 && data && data.seat_gone && !again) {
    await dropStaleSeat();
    return api(method, path, body, true);
  }
  if (!res.ok) throw new Error((data && data.error) || t("The table answered with an error ({status}).", { status: res.status }));
  return data;
}
function say(text) { $("dice-message").textContent = text || ""; }
async function act(method, path, body) {
  try { show(await api(method, path, body)); } catch (e) { say(e.message); }
}
function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}
function describe(d) {
  const p = { percent: d.battery, seat: d.seat, face: d.shows };
  const battery = d.battery === null ? null : d.charging ? t("battery {percent}% (charging)", p)
    : d.low_battery ? t("battery {percent}% (low: charge it)", p) : t("battery {percent}%", p);
  const connection = { "in reach": t("in reach"), connecting: t("connecting"), connected: t("connected"), away: t("away"),
    reconnecting: t("reconnecting") }; // device/smartdice/model.py Die.connection
  const colour = { red: t("red"), blue: t("blue"), green: t("green"), black: t("black"), white: t("white"),
    yellow: t("yellow"), orange: t("orange"), purple: t("purple") }; // device/smartdice godice.py, simulated.py COLOURS
  const bits = [d.kind, colour[d.colour] || d.colour, battery, d.paired ? connection[d.connection] || d.connection : t("not paired"),
    d.seat ? (d.seat_gone ? t("{seat}'s (no such seat in this game: pick again)", p) : t("{seat}'s", p)) : t("anyone's"),
    d.shows ? t("shows {face}", p) : null];
  return bits.filter(Boolean).join(" · ");
}
// One row per die, kept across redraws and updated in place (keyed by die id): a stream event redraws
// the list a moment after a phone starts typing a name, and must not wipe what it typed or move its focus.
// A control keeps its value while it has focus or holds an edit not saved yet (`edited`); Save clears that.
const rows = new Map();

function untouched(row, control) { return control !== document.activeElement && !row.edited.has(control); }
function setSeats(row, d) {
  const want = ["", ...D.seats];
  const have = [...row.seat.options].map((o) => o.value);
  if (untouched(row, row.seat) && want.join("\n") !== have.join("\n")) {
    row.seat.replaceChildren(el("option", t("Anyone"), { value: "" }), ...D.seats.map((s) => el("option", s, { value: s })));
  }
  if (untouched(row, row.seat)) row.seat.value = d.seat || "";
}
function newRow(d) {
  const row = { edited: new Set(), die: d };
  row.li = el("li");
  row.label = el("strong");
  row.hint = el("span", null, { class: "hint" });
  row.li.append(row.label, " ", row.hint);
  row.name = el("input", null, { maxlength: "24" });
  row.seat = el("select");
  const line = el("div", null, { class: "dice-row" });
  line.append(row.name, row.seat);
  row.name.addEventListener("input", () => row.edited.add(row.name));
  row.seat.addEventListener("change", () => row.edited.add(row.seat));
  row.shell = null;
  if (d.family === "godice") {
    row.shell = el("select");
    for (const k of ["d6", "d10", "d00", "d4", "d8", "d12", "d20"]) row.shell.append(el("option", k, { value: k }));
    row.shell.addEventListener("change", () => row.edited.add(row.shell));
    line.append(row.shell);
  }
  row.pair = el("button", null, { type: "button" });
  row.pair.onclick = async () => {
    const body = { die: row.die.id, name: row.name.value, seat: row.seat.value || null };
    if (row.shell) body.kind = row.shell.value;
    try {
      const s = await api("POST", "/api/dice/pair", body);
      row.edited.clear();  // saved: the table's values are this phone's now
      show(s);
    } catch (e) { say(e.message); }
  };
  row.forget = el("button", t("Forget"), { type: "button" });
  row.forget.onclick = () => act("POST", "/api/dice/forget", { die: row.die.id });
  row.roll = el("button", null, { type: "button", class: "primary" });
  row.roll.onclick = () => act("POST", "/api/dice/roll", { die: row.die.id });
  row.identify = el("button", null, { type: "button" });  // which of six identical d6 is this row? it blinks
  row.identify.onclick = () => act("POST", "/api/dice/identify", { die: row.die.id });
  line.append(row.pair, row.forget, row.roll, row.identify);
  row.li.append(line);
  return row;
}
function updateRow(row, d) {
  row.die = d;
  row.label.textContent = d.label;
  row.hint.textContent = describe(d);
  row.name.setAttribute("aria-label", t("Name for {die}", { die: d.label }));
  row.seat.setAttribute("aria-label", t("Seat for {die}", { die: d.label }));
  if (untouched(row, row.name)) row.name.value = d.name || d.advertised || "";
  setSeats(row, d);
  if (row.shell) {
    row.shell.setAttribute("aria-label", t("Shell {die} wears", { die: d.label }));
    if (untouched(row, row.shell)) row.shell.value = d.kind;
  }
  row.pair.textContent = d.paired ? t("Save") : t("Pair");
  row.forget.hidden = !d.paired;
  row.roll.hidden = !(D.status.kind === "simulated" && d.paired);
  row.roll.textContent = t("Roll {die}", { die: d.label });
  row.identify.hidden = !(d.paired && d.connection === "connected");
  row.identify.textContent = t("Identify {die}", { die: d.label });
}
function showDice(dice) {
  const list = $("dice-list");
  const ids = new Set(dice.map((d) => d.id));
  for (const [id, row] of rows) {
    if (!ids.has(id)) { row.li.remove(); rows.delete(id); }
  }
  dice.forEach((d, i) => {
    let row = rows.get(d.id);
    if (!row) { row = newRow(d); rows.set(d.id, row); }
    updateRow(row, d);
    // Move a row only when it is out of place: moving a node takes the focus away from inside it.
    if (list.children[i] !== row.li) list.insertBefore(row.li, list.children[i] || null);
  });
}
function show(s) {
  D.status = s;
  $("dice-kind").textContent = s.kind === "none" ? t("No smart dice on this table") : s.note;
  $("dice-scan").hidden = s.kind === "none";
  say(s.message || s.problem || "");
  const w = s.waiting;
  $("dice-waiting").hidden = !w;
  if (w) {
    $("waiting-title").textContent = w.text;
    const faces = w.faces.length ? w.faces.map((f) => `${f.name}: ${f.face}`)
      : w.landed ? [t("{landed} of {needed} in (private to {seat})", { landed: w.landed, needed: w.needed, seat: w.private_to })]
        : [t("No die has landed yet")];
    $("dice-landed").replaceChildren(...faces.map((f) => el("li", f)));
    $("dice-keep").disabled = !w.landed;
  }
  $("dice-free").hidden = !s.free.length;
  $("dice-free-faces").replaceChildren(...s.free.map((f) => el("li", `${f.name}: ${f.face}`)));
  showDice(s.dice);
}
async function load() {
  try {
    const v = await api("GET", "/api/sessions/active");
    D.session = v.id;
    D.seats = (v.seats || []).map((x) => (typeof x === "string" ? x : x.name)).filter(Boolean);
  } catch { D.session = null; }
  await act("GET", "/api/dice");
}
$("dice-scan").onclick = () => { say(t("Scanning…")); act("POST", "/api/dice/scan", { seconds: 5 }); };
$("dice-keep").onclick = () => act("POST", "/api/dice/keep");
$("dice-cancel").onclick = () => act("POST", "/api/dice/cancel");
$("dice-drop-free").onclick = () => act("POST", "/api/dice/cancel");
$("dice-log-free").onclick = () => act("POST", "/api/dice/free");
const es = new EventSource("/api/stream");
es.addEventListener("dice", () => act("GET", "/api/dice"));
es.addEventListener("change", load);  // a new game may bring other seats
load();
