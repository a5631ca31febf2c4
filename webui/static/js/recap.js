// The end of a game on every phone (#34): the result leads the Game tab (the winner(s), the final scores), with
// "New game with the same players" one tap away (the same system, options and seats) and the other systems a tap
// further (the Games tab). Drawn from the screen model's ``result``, which the rules set only when the game is over.
import { $, el, api, guarded, t } from "./core.js";
import { acting, refresh } from "./moment.js";
import { showTab } from "./games.js";
import { said } from "./said.js";

function box() {
  let node = $("result");
  if (!node) {
    node = el("section", { id: "result", class: "result", "aria-labelledby": "result-title", hidden: true });
    $("game").insertBefore(node, $("round-end") || $("now")); // first: above the last round's summary (rounds.js)
  }
  return node;
}

export function drawResult(view) {
  const node = box(), r = view && view.screen && view.screen.result;
  node.hidden = !r;
  $("now").classList.toggle("after-end", !!r);
  if (!r) { node.replaceChildren(); return; }
  const key = JSON.stringify([view.id, r]);
  if (node.dataset.key === key) return; // unchanged: the buttons stay where a thumb is
  node.dataset.key = key;
  node.replaceChildren(
    el("h2", { id: "result-title" }, t("Game over")),
    el("p", { class: "result-winner" }, el("span", { class: "result-label" }, `${r.label}: `), r.winners.join(" & ") || t("nobody")),
    el("ol", { class: "result-scores" }, ...r.scores.map(([name, score]) =>
      el("li", { class: r.winners.includes(name) ? "won" : "" }, el("span", {}, name), el("b", {}, score)))),
    el("div", { class: "result-actions" },
      el("button", { id: "again", type: "button", class: "primary", onclick: () => guarded(again, t("Starting the new game")) },
        t("New game with the same players")),
      el("button", { id: "other-game", type: "button", onclick: () => showTab("games") }, t("Another game"))),
  );
  drawRecap(node, key);
}

async function again() {
  await acting(async () => {
    const started = await api("POST", "/api/sessions/active/again");
    said(t("A new game with the same players has started ({game}).", { game: started.screen ? started.screen.title : started.system }));
    await refresh("session");
  });
  showTab("game");
}

// The recap under the result: the same words as GET /api/sessions/active/recap.txt (its JSON's ``text``), as this seat may read them
// (another seat's private faces are never in it), and the picture to share.
async function drawRecap(node, key) {
  let words;
  try { words = await api("GET", "/api/sessions/active/recap"); } catch { return; }
  if (node.dataset.key !== key) return; // another moment meanwhile
  const text = String((words && words.text) || "");
  node.append(el("details", { class: "recap", open: true }, el("summary", {}, t("Recap")),
    el("pre", { id: "recap-text", class: "recap-text" }, text),
    el("a", { href: "/api/sessions/active/recap.png", target: "_blank", download: "tableside-recap.png" }, t("Recap picture (PNG)"))));
  drawPlays(node, key);
}

// Where players keep their plays: "Add to BG Stats" opens the app with this play (BG Stats' own import address,
// the play from GET /api/sessions/active/bgstats), and every finished game as a spreadsheet.
const BG_STATS = "https://app.bgstatsapp.com/createPlay.html?data=";
async function drawPlays(node, key) {
  let play;
  try { play = await api("GET", "/api/sessions/active/bgstats"); } catch { return; }
  if (node.dataset.key !== key) return;
  node.append(el("p", { class: "plays" },
    el("a", { id: "bgstats", href: BG_STATS + encodeURIComponent(JSON.stringify(play)) }, t("Add to BG Stats")), " · ",
    el("a", { href: "/api/plays.csv", download: "tableside-plays.csv" }, t("Every game played (CSV)"))));
}
