// The board (the system's screen model: figures, tracks, tables, dice), each number shown one tap from its fix
// (fix.js, with the "Fix a number" list); the table's buttons, undo and redo.
import { $, S, el, t, human, mySeat, banner, guarded } from "./core.js";
import { buttonSaid, saidNow } from "./said.js";
import { refresh, changing, acting } from "./moment.js";
import { runsTable } from "./forms.js";
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
    return el("div", { class: `el${tone}` }, el("h3", {}, e.threshold && !String(e.title).includes(String(e.threshold))
      ? t("{title} (wins at {n})", { title: human(e.title), n: e.threshold }) : human(e.title)),
      (e.bars || []).flatMap((b) => {
        const words = human(b.label) + (b.note ? ` (${b.note})` : "");
        // A bar that is a conserved number (VNM: a player's population) is one tap from its fix, as any number shown.
        const num = tracked().find((x) => x.balance && x.pile === b.label);
        const row = el("div", { class: `bar${c(b.colour)}` }, num ? numButton(num.key, words, t("Fix {name}", { name: human(num.label) })) : el("span", {}, words),
          el("span", { class: "b", "aria-hidden": "true" }, el("i", { style: `width:${Math.min(100, (100 * b.value) / Math.max(1, b.maximum || e.threshold || b.value))}%` })),
          el("span", { class: "n" }, String(b.value)));
        const fix = num && panel([num.key]);
        return fix ? [row, fix] : [row];
      }));
  }
  if (e.kind === "grid") {
    return el("div", { class: `el scroll${tone}` }, el("h3", {}, human(e.title)),
      el("table", { class: (e.columns || []).length > 5 ? "grid wide" : "grid" }, el("thead", {}, el("tr", {}, el("td", {}, ""), (e.columns || []).map((h) => el("th", { scope: "col" }, human(h))))),
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
  if (e.kind === "dice") { // no label: the verdict alone (Shred +1 book)
    return el("div", { class: `el${tone}` }, el("h3", {}, [human(e.label), e.verdict].filter(Boolean).join(": ")),
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
const fixable = (key) => Boolean(key) && tracked().find((x) => x.key === key);
function numButton(key, text, name) {
  const num = fixable(key);
  return el("button", { type: "button", class: "fixnum", "aria-expanded": String(S.numFix === key),
    "aria-label": name || t("Fix {name}: {value}", { name: human(num.label || num.key), value: num.value }), onclick: () => openFix(key) }, text);
}
const panel = (keys) => (fixer && S.numFix && keys.includes(S.numFix) && fixable(S.numFix) ? fixer.fixPanel(fixable(S.numFix)) : null);
function withFixer(go) {
  if (fixer) go();
  else import("./fix.js").then((m) => { fixer = m; go(); }, (e) => banner(t("The fix could not be shown: {why}. Reload the page.", { why: e.message }), "error"));
}
function openFix(key) {
  S.numFix = S.numFix === key ? null : key; S.numTyped = undefined;
  withFixer(() => {
    drawBoard((S.view && S.view.screen) || {});
    const p = document.querySelector("#board .numfix");
    if (p) p.scrollIntoView({ block: "nearest", behavior: "instant" });
  });
}

// "Fix a number": every tracked number in a list, drawn by fix.js once the list is opened (most changes need none).
let listening = false;
export function drawNumbers() {
  if (!listening) { listening = true; $("numbers-box").addEventListener("toggle", () => drawNumbers()); }
  const n = tracked().length;
  $("numbers-box").hidden = !n;
  $("numbers-title").textContent = t("Fix a number ({n})", { n });
  if ($("numbers-box").open) withFixer(() => fixer.drawList());
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
  if (other && !(await confirmBox(t("{who}'s move", { who: them }),
    t("This phone sits at {seat}'s seat. {label} (button {button}) for {who}?", { seat: seatLabel(mine.seat), label: human(b.label), button: b.button, who: them }),
    t("Yes, for {who}", { who: them })))) return;
  button.disabled = true;
  await acting(async () => { try {
    const res = await changing(`/api/buttons/${b.button}`, { hold: Boolean(b.hold) });
    const r = (res && res.result) || { summary: t("{label}: done", { label: b.label }) };
    // Said as every phone says it ("Button C (held): The join screen ..."), a game change or not.
    saidNow(r.button ? r : { ...r, button: b.hold ? `hold ${b.button}` : b.button }, "button");
    banner("");
    await res.drawn();
  } catch (err) {
    if (err.kind === "offline" || err.kind === "server") banner(err.message, "error", () => press(b, button));
    else banner(buttonSaid(b.hold ? `hold ${b.button}` : b.button, err.message), "error", null, true, err.data.rule);
  } finally { button.disabled = false; } });
}

export async function undoRedo(which) {
  const u = S.view && S.view.undo, mine = mySeat();
  if (which === "undo" && mine && u && u.seat && u.seat !== mine.seat
    && !(await confirmBox(t("Undo {who}'s change?", { who: seatLabel(u.seat) }),
      t("\"{summary}\" was {who}'s. Undo it from {seat}'s phone?", { summary: u.summary, who: seatLabel(u.seat), seat: seatLabel(mine.seat) }), t("Undo it")))) return;
  await acting(async () => { try {
    const res = await changing(`/api/sessions/active/${which}`, { expected_version: S.view.version });
    saidNow(res.result && res.result.summary ? res.result : { summary: which === "undo" ? t("Undid: the last action") : t("Redid: it") });
    banner("");
    window.scrollTo(0, 0);
    await res.drawn();
  } catch (err) {
    if (err.kind === "stale") { banner(t("Someone changed this first: here is the table now. Undo again if you still want to."), "error"); await guarded(() => refresh()); }
    else if (err.kind === "offline" || err.kind === "server") banner(err.message, "error", () => undoRedo(which));
    else banner(err.message, "error");
  } });
}
