// The last-change line: the newest change in words, on every phone.
import { $, S, SOURCE_WORDS, human, mySeat } from "./core.js";
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
  more.textContent = open ? "Less ▴" : "More ▾";
  more.setAttribute("aria-expanded", String(open));
  p.classList.toggle("folds", !more.hidden);
}
export function toggleSaid() {
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
export function buttonSaid(button, message) {
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
export function showLast() { // once per version: a message about this phone (its seat, a reconnect) stays until the next change
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
export function saidNow(result, source = "phone") { said(changeWords({ seat: mySeat() ? mySeat().seat : null, source, result })); }
