// The moment card: what the rules wait for on top, every other action one tap away.
import { $, S, el, t, human, lowerFirst, choiceList, mySeat, showRule } from "./core.js";
import { seatsNow, seatLabel, outOfTurn, press } from "./board.js";
import { actionForm, runsTable, send } from "./forms.js";

// Actions: the moment on top (what the rules wait for now: the prompts' actions, prefilled, the only one
// already open), Undo beside the last change; every other action one tap away, grouped by phase.
function momentTypes(prompts) {
  const out = [];
  for (const p of prompts) for (const ty of [p.type, ...(p.also || [])]) if (ty && !out.includes(ty)) out.push(ty);
  return out;
}
export function drawActions() {
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
  filterSheet();
}
// Where the caret is in a text field (read), or put it back there (write); fields without one are left alone.
function caret(node, at) {
  try {
    if (!at) return { start: node.selectionStart, end: node.selectionEnd };
    if (typeof at.start === "number") node.setSelectionRange(at.start, at.end);
  } catch { /* a number field has no caret to keep */ }
  return {};
}
// The rule a prompt rests on, one tap away (#35): the passage its move's refusal would open, fetched by its key.
// Its word is drawn by the style sheet, so the prompt's line still reads as the prompt alone.
const promptRule = (key) => el("button", { type: "button", class: "rule-link prompt-rule", "aria-label": t("Rule"), onclick: () => showRule(key) });
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
    pend.append(el("li", mine && p.seat === mine.seat ? { class: "yours", "data-you": t("You: ") } : {}, p.text, p.rule ? promptRule(p.rule) : null));
    // A seat that answers the same prompt later (the rest of a trick played seat by seat) is told whom it follows.
    const order = [p.seat, ...(p.then || [])], at = mine ? order.indexOf(mine.seat) : -1;
    const what = at > 0 && acts.actions.find((x) => x.type === p.type);
    if (what) pend.append(el("li", { class: "later" }, t("You {what} after {seat}", { what: lowerFirst(what.label || human(what.type)), seat: seatLabel(order[at - 1]) })));
  }
  if (!prompts.length && S.view.screen && S.view.screen.prompt) pend.append(el("li", {}, S.view.screen.prompt));
  // Whose turn follows, where the rules give an order (the view's ``next``): said on that seat's phone alone.
  if (mine && S.view.next === mine.seat && !prompts.some((p) => p.seat === mine.seat)) {
    pend.append(el("li", { id: "up-next", class: "up-next" }, t("You're next")));
  }
  drawMine(acts);
  const byType = new Map(offeredHere.map((a) => [a.type, a]));
  // A seated phone never opens another seat's move: its button stays one tap away (acting asks first).
  const othersOnly = (ty) => mine && prompts.some((p) => [p.type, ...(p.also || [])].includes(ty))
    && prompts.every((p) => ![p.type, ...(p.also || [])].includes(ty) || (p.seat && p.seat !== mine.seat));
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
  const top = momentTypes(prompts).map((ty) => byType.get(ty))
    .filter((a) => a && a.available && !(asItself(a) && othersOnly(a.type)) && tablePlays(a));
  const theirPhones = mine ? [] : prompts.filter((p) => p.seat && byType.has(p.type) && theirs(byType.get(p.type), p.seat)
    && byType.get(p.type).available).map((p) => {
    const who = seatLabel(p.seat), a = byType.get(p.type);
    return el("p", { class: "elsewhere", "data-types": a.type }, t("{who} {does} on {who}'s phone", { who, does: doesIt(a.label || human(a.type)) }));
  });
  main.classList.toggle("several", top.length > 1);
  // Open already: the only move waited for, or the one the first prompt names (an attack on the declared target).
  const own = mine ? prompts.find((p) => p.seat === mine.seat && p.type) : prompts.find((p) => p.seat === null && p.type);
  const first = own ? own.type : prompts.length && (!mine || prompts[0].seat === null) ? prompts[0].type : null;
  // The table's own way to answer a seat's move (a whole trick entered at once), on a seated phone: one tap away,
  // never opened for it, and drawn after the seat's own move (a thumb plays its card; a table phone enters tricks).
  const tableWay = (ty) => Boolean(mine) && !runsTable() && prompts.some((p) => p.seat)
    && prompts.filter((p) => waitsFor(p, ty)).every((p) => p.seat === null);
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
  // Nothing typed is expected: the table's own buttons are the main moves, but for a game that is over, whose
  // result card is the moment (#34: VENOM's "Roll one die (button B)" sat under the Medal of Honor).
  const over = Boolean(S.view.screen && S.view.screen.result);
  if (!top.length && !over) {
    const sys = S.systems.find((x) => x.id === S.view.system);
    // The buttons as they stand (labelled for now, only those a press would not refuse); the system's map before.
    const now = Array.isArray(acts.buttons) ? acts.buttons : (sys && sys.buttons) || [];
    const buttons = now.filter((b) => !/^(undo|redo)$/i.test(b.label)).map((b) =>
      el("div", { class: "act" }, el("button", { type: "button", class: "open", onclick: (ev) => press(b, ev.currentTarget) },
        b.hold ? t("{label} (hold button {button})", { label: human(b.label), button: b.button })
          : t("{label} (button {button})", { label: human(b.label), button: b.button }))));
    // A seated phone out of its turn: the buttons act for whoever is waited for, so they fold away under
    // one disclosure and the seat's own moment stays on top (a table phone keeps them as its main moves).
    const other = outOfTurn();
    if (other && buttons.length) {
      const fold = el("details", { class: "group table-buttons" }, el("summary", {}, t("Table buttons ({who}'s turn)", { who: seatLabel(other) })), el("div", {}, buttons));
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
    const box = el("section", { class: "group" }, el("h3", {}, list.length === 1
      ? t("{group} ({n} of {total} action now)", { group: groupName(g), n: ready.length, total: list.length })
      : t("{group} ({n} of {total} actions now)", { group: groupName(g), n: ready.length, total: list.length })));
    const chips = el("div", { class: "acts" }, ...ready.map((a) => actWidget(a, false, keep)));
    // What cannot be done now is named with why, one line per reason ("Automatic Success, Re-roll dice: not
    // now, the Combat Dice have not been rolled yet"), not as buttons that do nothing.
    const why = new Map();
    for (const a of list.filter((x) => !x.available || elsewhere(x))) {
      const words = a.available ? onPhones(a) : a.reason ? t("not now, {reason}", { reason: a.reason }) : t("not now");
      if (!why.has(words)) why.set(words, []);
      why.get(words).push(a);
    }
    box.append(chips, ...[...why].map(([words, list]) => el("p", { class: "why", "data-types": list.map((x) => x.type).join(" ") },
      `${list.map((x) => x.label || human(x.type)).join(", ")}: ${words}`)));
    groups.append(box);
  }
}

// A held seat's own move (`own_phones`, in a phone with no seat's answer: Venus 2140's every move from a seat's
// scene pool, and the GM's actions while the GM's phone sits): the table refuses it from a phone with no seat.
export const phonesOnly = (a) => Boolean(a.own_phones && a.own_phones.length);
const theirs = (a, name) => Boolean(a.own_phones && a.own_phones.includes(name));
const waitsFor = (p, type) => [p.type, ...(p.also || [])].includes(type);
// The seats a table phone may make such a move for: those no phone holds, among its seat field's choices (the
// answer has none: the seats its prompts wait for, the exchange's target).
export function tableMay(a, prompts) {
  const f = (a.fields || []).find((x) => x.name === a.seat_field);
  const seats = f ? choiceList(f).map((c) => c.value) : prompts.filter((p) => p.seat && waitsFor(p, a.type)).map((p) => p.seat);
  return seats.filter((s) => !theirs(a, s));
}
// Where a move the table phone leaves to the seats' phones is made: "on GM's phone", "on each seat's own phone".
const onPhones = (a) => (a.own_phones.length === 1 ? t("on {who}'s phone", { who: seatLabel(a.own_phones[0]) }) : t("on each seat's own phone"));
// A phase's heading: the system's own words, or ours for the actions it puts in none.
const groupName = (g) => (g === "Other" ? t("Other") : human(g));
// Who makes a move, in its button's words: "Put dice forward" -> "puts dice forward" ("Shred puts dice forward").
function doesIt(label) {
  const [verb, ...rest] = label.replace(/ \((button )?[A-D]\)$/, "").split(" ");
  return [verb.toLowerCase() + (/(s|sh|ch|x|z)$/i.test(verb) ? "es" : "s"), ...rest].join(" ");
}
// The field a seated phone answers by itself: who does it ("Player" in a seat's own move, the action's seat_field).
// Never another pick (#36: a Game 6-9 steal's Opponent started at the claimer): not one that differs from a sibling,
// nor a target, which is never the acting seat.
export function ownSeatField(a, f) {
  return f.name === a.seat_field || (!a.seat_field && f.kind === "seat" && (f.default === undefined || f.default === null)
    && !f.differs_from && f.name !== "target");
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
    return el("div", { class: "act", "data-type": a.type }, button);
  });
}

// This seat's private dice, on top of its moment: only this phone receives them (other phones see counts).
function drawMine(acts) {
  const box = $("mine");
  const offered = acts.actions.flatMap((a) => a.fields || []).find((f) => Array.isArray(f.offer));
  box.hidden = !offered || !mySeat();
  if (box.hidden) return;
  const n = offered.offer.length;
  box.replaceChildren(el("span", { class: "help" }, n ? t("Your dice ({n}):", { n }) : t("Your dice:")),
    ...(n ? offered.offer.map((x) => el("span", { class: "die" }, String(x))) : [el("span", {}, t("none in your scene pool"))]));
}

function actWidget(a, big, keep, openNow = false) {
  const prev = keep.get(a.type);
  // A form being filled in survives live updates, unless what it offers changed (a pool rolled, a seat taken).
  if (prev && prev.big === big && prev.shape === JSON.stringify(a.fields || [])) { prev.updateAction(a); return prev.node; }
  const node = el("div", { class: "act", "data-type": a.type });
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
    for (const kind of ["input", "click"]) form.node.addEventListener(kind, () => { widget.touched = true; widget.byMoment = false; });
    node.append(form.node);
    opener.setAttribute("aria-expanded", "true");
    S.open.set(a.type, widget);
  };
  opener.addEventListener("click", () => {
    if (oneTap) { send(a, seatOnly ? Object.fromEntries(fields.map((f) => [f.name, mine.seat])) : {}, null, opener); return; }
    // A form the moment opened by itself is already what its title's tap asks for: the first tap goes into it (its
    // first question, in reach) instead of closing it, a tap wasted and a form that seems to break; later taps close.
    if (form && !widget.byMoment) { close(); return; }
    widget.touched = true; // opened by hand: kept when what it offers changes
    if (!form) open();
    widget.byMoment = false;
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
  // What it offers changed while someone filled it in: the new form opens with what they had entered. One the
  // moment opened by itself and nobody touched is not kept (an Event draw's form would stay under All actions).
  const was = !oneTap && prev && prev.touched && prev.form();
  if (was || (openNow && !oneTap)) open(was ? was.entered() : undefined); // the moment's only move: open, prefilled
  widget.byMoment = Boolean(form) && !was;
  if (was) { carryOver(was.node, form.node); widget.touched = true; }
  return node;
}
// A form opened under its button, low on the page: scrolled up so all of it shows, or (taller than the
// screen) its button just under the sticky header, so its questions and its sticky send are in sight.
// In the All actions sheet, the sheet scrolls, under its own head.
function inReach(node) {
  const sheet = node.closest("dialog");
  const box = node.getBoundingClientRect(), bottom = sheet ? sheet.getBoundingClientRect().bottom : innerHeight;
  if (box.bottom <= bottom) return;
  const head = (sheet ? sheet.querySelector(".sheet-head") : document.querySelector("header.top")).getBoundingClientRect().bottom;
  (sheet || window).scrollBy({ top: Math.min(box.bottom - bottom + 8, box.top - head - 8), behavior: "instant" });
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
export function seatFor(a) {
  const waiting = ((S.acts && S.acts.pending) || []).filter((p) => [p.type, ...(p.also || [])].includes(a.type) && p.seat).map((p) => p.seat);
  const mine = mySeat();
  if (mine) return mine.seat; // a seated phone plays its own seat (out of turn the rules say so in words)
  return waiting[0];
}
// A form whose only open question is one choice asks it as buttons that send: "Collect from China" is one tap.
export function quickField(fields) {
  const open = fields.filter((f) => f.default === undefined || f.default === null || f.default === "");
  const first = fields[0];
  if (!first || !["pick", "seat"].includes(first.kind) || !open.includes(first) || first.shown_when) return -1;
  // A choice that may bring a prefilled number to check (a target's Defense not entered yet) does not send on its
  // tap: it is asked first, the number shows under it, and the form's button sends.
  // (Only while some choice may bring one: Defense entered for every target, the target's tap sends the attack.)
  const brings = (f) => f.kind === "count" && f.shown_when && Array.isArray(f.shown_when[first.name]) && f.shown_when[first.name].length;
  if (fields.some((f) => brings(f) && f.default != null)) return -1;
  const n = choiceList(first).length;
  if (n < 1 || n > 8) return -1;
  const others = open.filter((f) => f !== first && f.required);
  return others.length ? -1 : 0;
}
// Whether pick `f` is asked by one value of the send buttons `s` (shown_when names s with that value alone, and its
// few choices fit as buttons): a Game token's "Trump to", asked by "Play a card + Game".
export function asks(s, f) {
  const on = f.shown_when && f.shown_when[s.name];
  const n = f.kind === "pick" ? choiceList(f).length : 0;
  return f !== s && Array.isArray(on) && on.length === 1 && n >= 1 && n <= 8 && !f.required && !f.choices_by && !f.differs_from
    && !f.for_role && choiceList(s).some((c) => JSON.stringify(c.value) === JSON.stringify(on[0]));
}
// `kept`: what someone had entered in this action's form before it was drawn anew (field name -> value).

// "All actions": every action the table can take, one tap from the moment card, on a sheet over the page (#36).
// Grouped by phase (drawMoves draws the groups into it), with a filter box; a change sent from it closes it, so
// the phone shows the moment the change made. Not a modal: a refusal's bar (the banner) still shows over it.
export function setupSheet() {
  const sheet = $("all-actions");
  $("all-open").addEventListener("click", openSheet);
  $("all-close").addEventListener("click", closeSheet);
  $("filter").addEventListener("input", filterSheet);
  sheet.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closeSheet(); });
}
export function openSheet() {
  const sheet = $("all-actions");
  if (!sheet.open) sheet.show();
  $("all-open").setAttribute("aria-expanded", "true");
  $("all-close").focus({ preventScroll: true });
}
export function closeSheet() {
  const sheet = $("all-actions");
  if (!sheet.open) return;
  sheet.close();
  $("all-open").setAttribute("aria-expanded", "false");
}
// Only what matches the words typed (a button's label, its phase's heading, a "not now" line); an open form
// always stays. Nothing left: said, with the words.
export function filterSheet() {
  const q = $("filter").value.trim().toLowerCase();
  const has = (n) => !q || n.textContent.toLowerCase().includes(q);
  let shown = 0;
  for (const box of $("groups").children) {
    const whole = has(box.querySelector("h3") || box);
    let any = false;
    for (const n of box.querySelectorAll(".act, .why")) {
      const hit = whole || has(n) || Boolean(n.querySelector("form"));
      n.classList.toggle("filtered", !hit);
      any = any || hit;
    }
    box.classList.toggle("filtered", !any);
    if (any) shown += 1;
  }
  const numbers = $("numbers-box");
  const fixHit = !q || `${t("Fix a number")} fix a number correct`.toLowerCase().includes(q) || [...$("numbers").children].some(has);
  numbers.classList.toggle("filtered", !fixHit);
  if (fixHit && !numbers.hidden) shown += 1;
  const dice = $("by-hand").closest("label");
  dice.classList.toggle("filtered", !has(dice));
  if (has(dice)) shown += 1;
  const none = $("filter-none");
  none.hidden = shown > 0;
  none.textContent = shown ? "" : t("No action matches “{words}”.", { words: $("filter").value.trim() });
}
