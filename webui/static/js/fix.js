// A number fixed where it is shown (board.js imports this on the first tap of a number, or when the list opens): its correction opens
// under it, prefilled, − and + send one less or one more at once, Save sends a value typed; a conserved number
// (VNM population) offers the piles its chip comes from or goes to, one tap each.
import { $, S, el, t, human, nextId, mySeat, banner, guarded } from "./core.js";
import { saidNow } from "./said.js";
import { refresh, changing, acting } from "./moment.js";
import { outOfRange } from "./fields.js";
import { seatLabel, tracked } from "./board.js";

export function fixPanel(num) {
  const name = human(num.label || num.key);
  const box = el("div", { class: "numfix", role: "group", "aria-label": t("Fix {name}", { name }) });
  if (num.balance) {
    const moves = [num.maximum == null || num.value < num.maximum ? movesFor(num, name, 1) : null,
      num.minimum == null || num.value > num.minimum ? movesFor(num, name, -1) : null].filter(Boolean);
    moves.forEach((m) => { m.hidden = false; });
    box.append(el("p", { class: "help" }, t("Fix {name} ({value} now): a chip moves", { name, value: num.value })), ...moves);
    return box;
  }
  const id = `fx${nextId()}`;
  const input = el("input", { id, type: "number", inputmode: "numeric", value: num.value, min: num.minimum ?? undefined, max: num.maximum ?? undefined });
  if (S.numTyped !== undefined) input.value = S.numTyped; // a live update redraws the board: what was typed stays
  input.addEventListener("input", () => { S.numTyped = input.value; });
  const step = (d) => el("button", { type: "button", "aria-label": d < 0 ? t("{name}: one less", { name }) : t("{name}: one more", { name }),
    disabled: d < 0 ? num.minimum != null && num.value <= num.minimum : num.maximum != null && num.value >= num.maximum,
    onclick: () => correct(num, num.value + d) }, d < 0 ? "−" : "+");
  box.append(el("label", { for: id, class: "help" }, t("Fix {name} ({value} now): one less, one more, or type it", { name, value: num.value })),
    el("div", { class: "row" }, step(-1), input, step(1),
      el("button", { type: "button", class: "primary", onclick: () => correct(num, Number(input.value), input.value.trim()) }, t("Save"))),
    el("p", { class: "hint" }, t("Logged as a correction: Undo takes it back.")));
  return box;
}

// A seated phone's own numbers come first ("Kim's VP", "Ann (Venus): population"): the rest keep the table's order.
function ownFirst(items) {
  const mine = mySeat();
  if (!mine) return items;
  const names = [...new Set([seatLabel(mine.seat), mine.seat])];
  const own = (num) => names.some((n) => { const l = num.label || ""; return l.startsWith(`${n}'s `) || l.startsWith(`${n}: `); });
  return [...items.filter(own), ...items.filter((num) => !own(num))];
}
export function drawList() {
  const list = $("numbers");
  const items = ownFirst(tracked());
  // A live update redraws the list: the control someone is using (the new value being typed) keeps the focus.
  const now = document.activeElement;
  const using = now && list.contains(now) ? { key: now.closest("li").dataset.key, label: now.getAttribute("aria-label"), input: now.tagName === "INPUT" } : null;
  list.replaceChildren();
  for (const num of items) {
    const name = human(num.label || num.key);
    const value = el("span", { class: "v" }, String(num.value));
    const setbox = el("div", { class: "setbox", hidden: true });
    // A conserved number (VNM population: chips move between areas, worlds and the destroyed pile): − and + ask
    // where the chip goes to or comes from, and one tap there is the whole correction.
    const moves = num.balance ? { less: movesFor(num, name, -1), more: movesFor(num, name, 1) } : null;
    const step = (dir) => () => {
      if (!moves) { correct(num, num.value + dir); return; }
      const key = `${num.key}:${dir}`;
      S.moveOpen = S.moveOpen === key ? null : key;
      moves.less.hidden = S.moveOpen !== `${num.key}:-1`; moves.more.hidden = S.moveOpen !== `${num.key}:1`;
      const open = moves.less.hidden ? moves.more : moves.less;
      if (!open.hidden) open.scrollIntoView({ block: "nearest", behavior: "instant" });
    };
    const li = el("li", {}, el("span", {}, name),
      el("button", { type: "button", "aria-label": t("{name}: one less", { name }), disabled: num.minimum !== undefined && num.minimum !== null && num.value <= num.minimum,
        "aria-expanded": moves ? String(S.moveOpen === `${num.key}:-1`) : undefined, onclick: step(-1) }, "−"),
      value,
      el("button", { type: "button", "aria-label": t("{name}: one more", { name }), disabled: num.maximum !== undefined && num.maximum !== null && num.value >= num.maximum,
        "aria-expanded": moves ? String(S.moveOpen === `${num.key}:1`) : undefined, onclick: step(1) }, "+"),
      el("button", { type: "button", "aria-label": t("Set {name}", { name }), onclick: () => {
        setbox.hidden = !setbox.hidden;
        S.setOpen = setbox.hidden ? null : num.key; S.setValue = undefined;
        if (!setbox.hidden) setbox.querySelector("input").focus();
      } }, t("Set")),
      moves ? [moves.less, moves.more] : null, setbox);
    if (moves) { moves.less.hidden = S.moveOpen !== `${num.key}:-1`; moves.more.hidden = S.moveOpen !== `${num.key}:1`; }
    const iid = `set${nextId()}`;
    const input = el("input", { id: iid, type: "number", inputmode: "numeric", value: num.value, min: num.minimum ?? undefined, max: num.maximum ?? undefined });
    input.addEventListener("input", () => { S.setValue = input.value; });
    if (S.setOpen === num.key) { // a live update redraws the list: keep the box someone is typing in
      setbox.hidden = false;
      if (S.setValue !== undefined) input.value = S.setValue;
    }
    setbox.append(el("label", { for: iid, class: "help" }, t("New value of {name}", { name })), input,
      el("button", { type: "button", class: "primary", onclick: () => correct(num, Number(input.value), input.value.trim()) }, t("Save")));
    li.dataset.key = num.key;
    list.append(li);
  }
  const row = using && [...list.children].find((li) => li.dataset.key === using.key);
  const back = row && (using.input ? row.querySelector("input") : [...row.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === using.label));
  if (back && !back.disabled && !back.closest("[hidden]")) back.focus({ preventScroll: true });
}
// Where one chip of a conserved number comes from (`dir` 1: the piles holding one) or goes to (-1: any pile):
// one button each ("China 23", "the destroyed pile 0"), the tap sends the correction.
export function movesFor(num, name, dir) {
  const piles = tracked().filter((p) => p.balance === num.balance && p.key !== num.key && (dir < 0 || p.value > 0))
    .map((p) => ({ key: p.key, label: p.pile || p.label, holds: p.value }));
  const head = dir > 0 ? t("One more for {name}, from:", { name }) : t("One less for {name}, to:", { name });
  return el("div", { class: "moves", role: "group", "aria-label": head, hidden: true }, el("p", { class: "help" }, head),
    piles.length ? piles.map((p) => el("button", { type: "button", "aria-label": dir > 0 ? t("{name}: one more, from {pile}", { name, pile: p.label }) : t("{name}: one less, to {pile}", { name, pile: p.label }),
      onclick: () => correct(num, num.value + dir, String(num.value + dir), p.key) }, `${p.label} `, el("span", { class: "n" }, String(p.holds))))
      : el("p", {}, t("No chips anywhere to take it from.")));
}
// ``typed``: the words in the Set box, checked here as a number field checks them (the range said with what was
// typed, never a rounded 100000000000000000000), so nothing out of range is sent. ``balance``: the pile a conserved
// number's difference comes from or goes to.
export async function correct(num, value, typed = String(value), balance = undefined) {
  const label = human(num.label || num.key);
  if (typed === "" || Number.isNaN(value) || (Number.isFinite(value) && !Number.isInteger(value))) { banner(t("{label}: a whole number, please.", { label }), "error"); return; }
  if ((num.minimum != null && value < num.minimum) || (num.maximum != null && value > num.maximum) || !Number.isFinite(value)) {
    banner(outOfRange(num, label, typed, value), "error"); return;
  }
  await acting(async () => { try {
    const res = await changing("/api/sessions/active/actions",
      { type: "correct", key: num.key, value, reason: "fixed on a phone", expected_version: S.view.version, ...(balance ? { balance } : {}) });
    saidNow(res.result || { summary: t("Corrected {name} to {value}", { name: human(num.label || num.key), value }) });
    S.setOpen = null; S.setValue = undefined; S.moveOpen = null; S.numFix = null;
    banner("");
    await res.drawn();
  } catch (err) {
    if (err.kind === "stale") { banner(t("Someone changed this first. Here is the table now: check the number and fix it again if needed."), "error"); await guarded(() => refresh()); }
    else if (err.kind === "offline" || err.kind === "server") banner(err.message, "error", () => correct(num, value, typed, balance));
    else banner(err.message, "error", null, false, err.data.rule);
  } });
}

