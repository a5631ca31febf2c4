// "All actions": every action the table can take, one tap from the moment card, on a sheet over the page (#36).
// Grouped by phase (moves.js draws the groups into it), with a filter box; a change sent from it closes it, so
// the phone shows the moment the change made. Not a modal: a refusal's bar (the banner) still shows over it.
import { $ } from "./core.js";

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
  document.body.classList.add("sheet-open");
  $("all-close").focus({ preventScroll: true });
}
export function closeSheet() {
  const sheet = $("all-actions");
  if (!sheet.open) return;
  sheet.close();
  $("all-open").setAttribute("aria-expanded", "false");
  document.body.classList.remove("sheet-open");
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
  const fixHit = !q || "fix a number correct".includes(q) || [...$("numbers").children].some(has);
  numbers.classList.toggle("filtered", !fixHit);
  if (fixHit && !numbers.hidden) shown += 1;
  const dice = $("by-hand").closest("label");
  dice.classList.toggle("filtered", !has(dice));
  if (has(dice)) shown += 1;
  const none = $("filter-none");
  none.hidden = shown > 0;
  none.textContent = shown ? "" : `No action matches “${$("filter").value.trim()}”.`;
}
