// The board (the system's screen model: figures, tracks, tables, dice) and its corrections: +/- and set on
// every tracked number; the table's buttons, undo and redo.
import { $, S, nextId, el, human, mySeat, banner, guarded } from "./core.js";
import { buttonSaid, saidNow } from "./said.js";
import { refresh, changing, acting } from "./moment.js";
import { runsTable } from "./forms.js";
import { outOfRange } from "./fields.js";
import { confirmBox } from "./seats.js";

export function systemName(id) { const s = S.systems.find((x) => x.id === id); return s ? s.name : human(id); }
export function seatsNow() {
  const seats = (S.view && S.view.seats) || [];
  return seats.map((s) => (typeof s === "string" ? { name: s, role: "player" } : s));
}
// A seat as every screen names its player ("Ann (Venus)" in VNM; the seat's name where the system says no more).
export function seatLabel(name) { const s = seatsNow().find((x) => x.name === name); return (s && s.label) || name; }

export function drawBoard(screen) {
  const box = $("board");
  box.replaceChildren();
  let figs = null; // consecutive key figures share one row
  for (const e of screen.elements || []) {
    const tone = e.tone && e.tone !== "normal" ? ` tone-${e.tone}` : "";
    if (e.kind === "figure") {
      if (!figs) { figs = el("div", { class: "figures" }); box.append(figs); }
      const v = `${e.value}${e.unit ? " " + e.unit : ""}`;
      figs.append(el("div", { class: `figure${tone}` }, el("div", { class: "v" }, fixable(e.fix) ? numButton(e.fix, v) : v),
        el("div", { class: "l" }, human(e.label))));
      if (fixer && S.numFix === e.fix && fixable(e.fix)) { box.append(fixer.fixPanel(fixable(e.fix))); figs = null; }
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
    const head = `${human(e.label)}: ${e.value}`;
    return el("div", { class: `el${tone}` }, el("h3", {}, fixable(e.fix) ? numButton(e.fix, head) : head),
      cells.length ? el("div", { class: "track", "aria-hidden": "true" }, cells) : null, panel([e.fix]));
  }
  if (e.kind === "bars") {
    return el("div", { class: `el${tone}` }, el("h3", {}, human(e.title) + (e.threshold && !String(e.title).includes(String(e.threshold)) ? ` (wins at ${e.threshold})` : "")),
      (e.bars || []).flatMap((b) => {
        const words = human(b.label) + (b.note ? ` (${b.note})` : "");
        // A bar that is a conserved number (VNM: a player's population) is one tap from its fix, as any number shown.
        const t = tracked().find((x) => x.balance && x.pile === b.label);
        const row = el("div", { class: `bar${c(b.colour)}` }, t ? numButton(t.key, words, `Fix ${human(t.label)}`) : el("span", {}, words),
          el("span", { class: "b", "aria-hidden": "true" }, el("i", { style: `width:${Math.min(100, (100 * b.value) / Math.max(1, b.maximum || e.threshold || b.value))}%` })),
          el("span", { class: "n" }, String(b.value)));
        const fix = t && panel([t.key]);
        return fix ? [row, fix] : [row];
      }));
  }
  if (e.kind === "grid") {
    return el("div", { class: `el scroll${tone}` }, el("h3", {}, human(e.title)),
      el("table", { class: "grid" }, el("thead", {}, el("tr", {}, el("td", {}, ""), (e.columns || []).map((h) => el("th", { scope: "col" }, human(h))))),
        el("tbody", {}, (e.rows || []).flatMap((r) => {
          const row = el("tr", { class: `${r.highlight ? "hl" : ""}${c(r.colour)}` }, el("th", { scope: "row" }, human(r.label)),
            (r.cells || []).map((x, j) => {
              const key = (r.fix || [])[j];
              return el("td", {}, fixable(key) ? numButton(key, String(x)) : String(x));
            }));
          const fix = panel(r.fix || []); // the fix opens in the table, under the row of the number tapped
          return fix ? [row, el("tr", { class: "fixrow" }, el("td", { colspan: (r.cells || []).length + 1 }, fix))] : [row];
        }))));
  }
  if (e.kind === "dice") {
    return el("div", { class: `el${tone}` }, el("h3", {}, human(e.label) + (e.verdict ? `: ${e.verdict}` : "")),
      el("div", { class: "tapped" }, (e.dice || []).map((d) => el("span", { class: `die ${d.mark || ""}`, title: d.mark ? human(d.mark) : undefined }, String(d.face)))));
  }
  return el("p", { class: `el${tone}` }, String(e.text ?? ""));
}

export function tracked() {
  return (S.view && Array.isArray(S.view.tracked)) ? S.view.tracked : [];
}
// A number the board shows that a correction may set (the screen names it: `fix`) is a button: one tap opens its
// fix under it (fix.js, loaded on the first such tap), prefilled, with − and +: the second tap fixes it.
let fixer = null;
const fixable = (key) => Boolean(key) && tracked().find((t) => t.key === key);
function numButton(key, text, name) {
  const t = fixable(key);
  return el("button", { type: "button", class: "fixnum", "aria-expanded": String(S.numFix === key),
    "aria-label": name || `Fix ${human(t.label || t.key)}: ${t.value}`, onclick: () => openFix(key) }, text);
}
const panel = (keys) => (fixer && S.numFix && keys.includes(S.numFix) && fixable(S.numFix) ? fixer.fixPanel(fixable(S.numFix)) : null);
function openFix(key) {
  S.numFix = S.numFix === key ? null : key; S.numTyped = undefined;
  const go = () => {
    drawBoard((S.view && S.view.screen) || {});
    const p = document.querySelector("#board .numfix");
    if (p) p.scrollIntoView({ block: "nearest", behavior: "instant" });
  };
  if (fixer) go();
  else import("./fix.js").then((m) => { fixer = m; go(); }, (e) => banner(`The fix could not be shown: ${e.message}. Reload the page.`, "error"));
}
// A seated phone's own numbers come first ("Kim's VP", "Ann (Venus): population"): the rest keep the table's order.
function ownFirst(items) {
  const mine = mySeat();
  if (!mine) return items;
  const names = [...new Set([seatLabel(mine.seat), mine.seat])];
  const own = (t) => names.some((n) => { const l = t.label || ""; return l.startsWith(`${n}'s `) || l.startsWith(`${n}: `); });
  return [...items.filter(own), ...items.filter((t) => !own(t))];
}
export function drawNumbers() {
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
    const iid = `set${nextId()}`;
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
export function movesFor(t, name, dir) {
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
export async function correct(t, value, typed = String(value), balance = undefined) {
  const label = human(t.label || t.key);
  if (typed === "" || Number.isNaN(value) || (Number.isFinite(value) && !Number.isInteger(value))) { banner(`${label}: a whole number, please.`, "error"); return; }
  if ((t.minimum != null && value < t.minimum) || (t.maximum != null && value > t.maximum) || !Number.isFinite(value)) {
    banner(outOfRange(t, label, typed, value), "error"); return;
  }
  await acting(async () => { try {
    const res = await changing("/api/sessions/active/actions",
      { type: "correct", key: t.key, value, reason: "fixed on a phone", expected_version: S.view.version, ...(balance ? { balance } : {}) });
    saidNow(res.result || { summary: `Corrected ${human(t.label || t.key)} to ${value}` });
    S.setOpen = null; S.setValue = undefined; S.moveOpen = null; S.numFix = null;
    banner("");
    await res.drawn();
  } catch (err) {
    if (err.kind === "stale") { banner("Someone changed this first. Here is the table now: check the number and fix it again if needed.", "error"); await guarded(() => refresh()); }
    else if (err.kind === "offline" || err.kind === "server") banner(err.message, "error", () => correct(t, value, typed, balance));
    else banner(err.message, "error");
  } });
}

// The seat waited for when this phone sits at another one (null: a table phone, or its own turn).
export function outOfTurn() {
  const mine = mySeat();
  if (runsTable()) return null;
  const waiting = [...new Set(((S.acts && S.acts.pending) || []).map((p) => p.seat).filter(Boolean))];
  return mine && waiting.length && !waiting.includes(mine.seat) ? waiting[0] : null;
}
export async function press(b, button) {
  // The table's buttons act in the turn of whoever is waited for: a seated phone out of its turn asks first.
  const mine = mySeat(), other = outOfTurn();
  const them = other && seatLabel(other);
  if (other && !(await confirmBox(`${them}'s move`, `This phone sits at ${seatLabel(mine.seat)}'s seat. ${human(b.label)} (button ${b.button}) for ${them}?`, `Yes, for ${them}`))) return;
  button.disabled = true;
  await acting(async () => { try {
    const res = await changing(`/api/buttons/${b.button}`, { hold: Boolean(b.hold) });
    const r = (res && res.result) || { summary: `${b.label}: done` };
    // Said as every phone says it ("Button C (held): The join screen ..."), a game change or not.
    saidNow(r.button ? r : { ...r, button: b.hold ? `hold ${b.button}` : b.button }, "button");
    banner("");
    await res.drawn();
  } catch (err) {
    if (err.kind === "offline" || err.kind === "server") banner(err.message, "error", () => press(b, button));
    else banner(buttonSaid(b.hold ? `hold ${b.button}` : b.button, err.message), "error", null, true);
  } finally { button.disabled = false; } });
}

export async function undoRedo(which) {
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
