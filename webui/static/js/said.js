// The last-change line: the newest change in words, on every phone.
import { $, S, human, mySeat, t } from "./core.js";
import { seatLabel } from "./board.js";

// The newest change in words, with who made it ("Bob undid: ...", "Button B: ..."): the same line on every
// phone, pinned at the top beside Undo, so no phone keeps an old message and the acting phone never scrolls for it.
export function said(text) {
  $("said").textContent = text || ""; $("lastbar").hidden = !text && !S.view;
  $("lastbar").classList.remove("open");
  fitSaid();
}
// A change longer than the bar's three lines says so ("More ▾", and an ellipsis): one tap on the words or on
// "More" shows all of it, another folds it back; the moment's own buttons stay on the first screen meanwhile.
export function fitSaid() {
  const p = $("said"), more = $("said-more"), open = $("lastbar").classList.contains("open");
  more.hidden = !open && p.scrollHeight <= p.clientHeight + 1;
  more.textContent = open ? t("Less ▴") : t("More ▾");
  more.setAttribute("aria-expanded", String(open));
  p.classList.toggle("folds", !more.hidden);
}
export function toggleSaid() {
  if ($("said-more").hidden) return;
  $("lastbar").classList.toggle("open");
  fitSaid();
}
// Who made a change no seat made (core/table.py SOURCES, core.js SOURCE_WORDS), at the start of the line.
const SOURCES = () => ({ button: t("A table button"), phone: t("A table phone"), cli: t("The command line"),
  api: t("A script (the HTTP API)"), dice: t("The smart dice") });
function whoDid(e) {
  const button = e.result && e.result.button;
  if (button) return /^hold /.test(button) ? t("Button {button} (held)", { button: button.slice(5) }) : t("Button {button}", { button });
  if (e.seat) return seatLabel(e.seat);
  return SOURCES()[e.source] || t("The table");
}
// A button's refusal says which button, once: "Button A: declare a target first", "Button C (Next round) has ...".
export function buttonSaid(button, message) {
  const who = whoDid({ result: { button } });
  if (message.toLowerCase().startsWith(`button ${button}`.toLowerCase())) return message.charAt(0).toUpperCase() + message.slice(1);
  return t("{who}: {summary}", { who, summary: message });
}
// A correction in words from its stable data (core/corrections.py ``correction``), not from its English summary:
// "Ann (Venus) corrected their population: 0 -> 1" when the number is the seat's own, else "Ann: Corrected Bank ...".
function corrected(who, c) {
  const sep = [": ", "'s "].find((x) => String(c.label).startsWith(`${who}${x}`));
  const number = sep ? String(c.label).slice(who.length + sep.length) : c.label;
  const b = c.balance, count = b ? Math.abs(c.to - c.from) : 0;
  const p = { who, number, from: c.from, to: c.to, count, pile: b ? b.label : "" };
  const words = !b ? (sep ? t("{who} corrected their {number}: {from} -> {to}", p) : t("{who}: Corrected {number}: {from} -> {to}", p))
    : c.to > c.from ? (sep ? t("{who} corrected their {number}: {from} -> {to}, {count} from {pile}", p)
      : t("{who}: Corrected {number}: {from} -> {to}, {count} from {pile}", p))
      : sep ? t("{who} corrected their {number}: {from} -> {to}, {count} to {pile}", p)
        : t("{who}: Corrected {number}: {from} -> {to}, {count} to {pile}", p);
  return c.reason ? `${words} (${c.reason})` : words;
}
function changeWords(e) {
  const r = e.result || {}, summary = r.summary || human(e.type), who = whoDid(e);
  // Undo and redo are told by the entry's type or its ``undid``/``redid`` (core/table.py), in any language; what was undone is
  // the server's own summary after its fixed "Undid: " ("Redid: ").
  const undone = "undid" in r || e.type === "undo" ? "undid" : "redid" in r || e.type === "redo" ? "redid" : null;
  if (undone) {
    const what = summary.replace(/^(Undid|Redid): /, "");
    return undone === "undid" ? t("{who} undid: {summary}", { who, summary: what }) : t("{who} redid: {summary}", { who, summary: what });
  }
  // A change that is everyone's (VENOM's roll-off) is said alone: "Ann: Roll-off ..." read as Ann's roll.
  if (r.everyone) return summary;
  // A seat's own number corrected: "Ann (Venus) corrected their population: 0 -> 1", never the name twice.
  if (r.correction && typeof r.correction === "object") return corrected(who, r.correction);
  // "Max plays Bot 12", "Ann: Recruitment Phase", "Cy (Pluto)'s Technology: ..." already say who: never "Ann: Ann: ...".
  return [" ", ":", "'s "].some((x) => summary.startsWith(`${who}${x}`)) ? summary : t("{who}: {summary}", { who, summary });
}
export function showLast() { // once per version: a message about this phone (its seat, a reconnect) stays until the next change
  const at = S.view ? `${S.view.id}:${S.view.version}` : "";
  if (at === S.saidAt) return;
  const last = S.log.length ? S.log[S.log.length - 1] : null;
  // A phone seated in the game before keeps its seat where the new game has one of the same name (the table
  // carries it over); else the new game's seats are picked again with one tap on Seat. Said once.
  const again = S.seatLeft ? t("This phone sat at {seat}'s seat: tap Seat to sit in this game.", { seat: S.seatLeft })
    : S.seatKept ? t("This phone still sits at {seat}'s seat.", { seat: seatLabel(S.seatKept) }) : "";
  const also = (text) => (again ? `${text} ${again}` : text); // two sentences, each whole in its language
  const done = () => { S.saidAt = at; S.seatLeft = null; S.seatKept = null; };
  if (last && S.view && last.seq === S.view.version) { said(also(changeWords(last))); done(); }
  else if (S.view && S.view.version === 0) { said(also(t("New game: nothing played yet."))); done(); }
  else if (again) { said(again); done(); }
}
export function saidNow(result, source = "phone") { said(changeWords({ seat: mySeat() ? mySeat().seat : null, source, result })); }
