// The dice page: dice in reach (kind, colour, battery), pairing (name, seat, GoDice shell), simulated
// rolls, and what the table waits for, die by die. It talks only to /api/dice* (docs/smart-dice.md).
"use strict";
const $ = (id) => document.getElementById(id);
const D = { status: null, seats: [], session: null };

function seatHeaders() {
  if (!D.session) return {};
  try {
    const seat = JSON.parse(localStorage.getItem(`tableside.seat.${D.session}`) || "null");
    return seat && seat.token ? { "X-Tableside-Seat": seat.token } : {};
  } catch { return {}; }
}
async function api(method, path, body) {
  const headers = { Accept: "application/json", ...seatHeaders() };
  const opts = { method, headers, credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) { headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let res;
  try { res = await fetch(path, opts); } catch { throw new Error("Could not reach the table: check the Wi-Fi."); }
  if (res.status === 401) { location.href = "/join"; throw new Error("Join code needed"); }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.error) || `The table answered with an error (${res.status}).`);
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
  const bits = [d.kind, d.colour, d.battery === null ? null : `battery ${d.battery}%${d.charging ? " (charging)" : ""}`,
    d.paired ? d.connection : "not paired", d.seat ? `${d.seat}'s` : null];
  return bits.filter(Boolean).join(" · ");
}
function dieRow(d) {
  const li = el("li");
  li.append(el("strong", d.label), " ", el("span", describe(d), { class: "hint" }));
  const name = el("input", null, { "aria-label": `Name for ${d.label}`, maxlength: "24", value: d.name || d.advertised || "" });
  const seat = el("select", null, { "aria-label": `Seat for ${d.label}` });
  seat.append(el("option", "Anyone", { value: "" }));
  for (const s of D.seats) seat.append(el("option", s, { value: s }));
  seat.value = d.seat || "";
  const row = el("div", null, { class: "dice-row" });
  row.append(name, seat);
  let shell = null;
  if (d.family === "godice") {
    shell = el("select", null, { "aria-label": `Shell ${d.label} wears` });
    for (const k of ["d6", "d10", "d00", "d4", "d8", "d12", "d20"]) shell.append(el("option", k, { value: k }));
    shell.value = d.kind;
    row.append(shell);
  }
  const pair = el("button", d.paired ? "Save" : "Pair", { type: "button" });
  pair.onclick = () => act("POST", "/api/dice/pair",
    { die: d.id, name: name.value, seat: seat.value || null, ...(shell ? { kind: shell.value } : {}) });
  row.append(pair);
  if (d.paired) {
    const forget = el("button", "Forget", { type: "button" });
    forget.onclick = () => act("POST", "/api/dice/forget", { die: d.id });
    row.append(forget);
  }
  if (D.status.kind === "simulated" && d.paired) {
    const roll = el("button", `Roll ${d.label}`, { type: "button", class: "primary" });
    roll.onclick = () => act("POST", "/api/dice/roll", { die: d.id });
    row.append(roll);
  }
  li.append(row);
  return li;
}
function show(s) {
  D.status = s;
  $("dice-kind").textContent = s.kind === "none" ? "No smart dice on this table" : s.note;
  $("dice-scan").hidden = s.kind === "none";
  say(s.message || s.problem || "");
  const w = s.waiting;
  $("dice-waiting").hidden = !w;
  if (w) {
    $("waiting-title").textContent = w.text;
    const faces = w.faces.length ? w.faces.map((f) => `${f.name}: ${f.face}`)
      : w.landed ? [`${w.landed} of ${w.needed} in (private to ${w.private_to})`] : ["No die has landed yet"];
    $("dice-landed").replaceChildren(...faces.map((t) => el("li", t)));
    $("dice-keep").disabled = !w.landed;
  }
  $("dice-free").hidden = !s.free.length;
  $("dice-free-faces").replaceChildren(...s.free.map((f) => el("li", `${f.name}: ${f.face}`)));
  $("dice-list").replaceChildren(...s.dice.map(dieRow));
}
async function load() {
  try {
    const v = await api("GET", "/api/sessions/active");
    D.session = v.id;
    D.seats = (v.seats || []).map((x) => (typeof x === "string" ? x : x.name)).filter(Boolean);
  } catch { D.session = null; }
  await act("GET", "/api/dice");
}
$("dice-scan").onclick = () => { say("Scanning…"); act("POST", "/api/dice/scan", { seconds: 5 }); };
$("dice-keep").onclick = () => act("POST", "/api/dice/keep");
$("dice-cancel").onclick = () => act("POST", "/api/dice/cancel");
$("dice-drop-free").onclick = () => act("POST", "/api/dice/cancel");
$("dice-log-free").onclick = () => act("POST", "/api/dice/free");
const es = new EventSource("/api/stream");
es.addEventListener("dice", () => act("GET", "/api/dice"));
es.addEventListener("change", () => act("GET", "/api/dice"));
load();
