// A round's end is a moment (#34): what changed in the round that just ended, one line per player, above "Now".
// The view names the round being played (``round``) and the last one that ended (``round_end``: told from the log,
// public, the same on every phone), carried by the moment each phone draws: nothing is asked for it. Dismissed, it
// stays dismissed on this phone (kept by game and entry), until the next round ends.
import { $, el, t } from "./core.js";

let told = null; // the summary last drawn
const KEY = "tableside-round-seen";

function box() {
  // Its look is in later.css, fetched with the first module that needs it: the first load stays small.
  if (!$("later-css")) document.head.append(el("link", { id: "later-css", rel: "stylesheet", href: "/static/later.css" }));
  let node = $("round-end");
  if (!node) {
    node = el("section", { id: "round-end", class: "round-end", "aria-labelledby": "round-end-title", hidden: true });
    $("game").insertBefore(node, $("now"));
  }
  return node;
}

function dismissed(id, s) {
  try { return localStorage.getItem(KEY) === `${id}:${s.seq}`; } catch { return false; }
}

function draw(id) {
  const node = box(), s = told && told.summary;
  if (!s || dismissed(id, s)) { node.hidden = true; node.replaceChildren(); return; }
  if (node.dataset.key === `${id}:${s.seq}` && !node.hidden) return;
  node.dataset.key = `${id}:${s.seq}`;
  node.hidden = false;
  node.replaceChildren(
    el("h2", { id: "round-end-title" }, t("{round} is over", { round: s.round })),
    el("ul", { class: "round-lines" }, ...(s.said || s.lines.map((l) => l.text)).map((line) => el("li", {}, line))),
    ...(s.outcome ? [el("p", { class: "round-outcome" }, s.outcome)] : []),
    el("button", { id: "round-dismiss", type: "button", onclick: () => {
      try { localStorage.setItem(KEY, `${id}:${s.seq}`); } catch { /* private mode: hidden until reload */ }
      node.hidden = true;
    } }, t("OK")),
  );
}

// The summary rides in the view (``round_end``): the acting phone's answer and the others' moments carry it.
export function drawRound(view) {
  told = { summary: view.round_end || null };
  draw(view.id);
}
