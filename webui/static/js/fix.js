// A number fixed where it is shown (board.js imports this on the first tap of a number): its correction opens
// under it, prefilled, − and + send one less or one more at once, Save sends a value typed; a conserved number
// (VNM population) offers the piles its chip comes from or goes to, one tap each.
import { S, el, human, nextId } from "./core.js";
import { correct, movesFor } from "./board.js";

export function fixPanel(t) {
  const name = human(t.label || t.key);
  const box = el("div", { class: "numfix", role: "group", "aria-label": `Fix ${name}` });
  if (t.balance) {
    const moves = [t.maximum == null || t.value < t.maximum ? movesFor(t, name, 1) : null,
      t.minimum == null || t.value > t.minimum ? movesFor(t, name, -1) : null].filter(Boolean);
    moves.forEach((m) => { m.hidden = false; });
    box.append(el("p", { class: "help" }, `Fix ${name} (${t.value} now): a chip moves`), ...moves);
    return box;
  }
  const id = `fx${nextId()}`;
  const input = el("input", { id, type: "number", inputmode: "numeric", value: t.value, min: t.minimum ?? undefined, max: t.maximum ?? undefined });
  if (S.numTyped !== undefined) input.value = S.numTyped; // a live update redraws the board: what was typed stays
  input.addEventListener("input", () => { S.numTyped = input.value; });
  const step = (d) => el("button", { type: "button", "aria-label": `${name}: one ${d < 0 ? "less" : "more"}`,
    disabled: d < 0 ? t.minimum != null && t.value <= t.minimum : t.maximum != null && t.value >= t.maximum,
    onclick: () => correct(t, t.value + d) }, d < 0 ? "−" : "+");
  box.append(el("label", { for: id, class: "help" }, `Fix ${name} (${t.value} now): one less, one more, or type it`),
    el("div", { class: "row" }, step(-1), input, step(1),
      el("button", { type: "button", class: "primary", onclick: () => correct(t, Number(input.value), input.value.trim()) }, "Save")),
    el("p", { class: "hint" }, "Logged as a correction: Undo takes it back."));
  return box;
}
