// Tableside phone panel. Everything a person sees is drawn from the table's API: the forms from
// GET /api/sessions/active/actions (fields with kinds, labels and choices from the state) and the
// systems' options; the board from the system's screen model. No framework, nothing from the internet.
// The entry module: each part of the page is a module of js/ (by concern), loaded by the browser as
// ES modules, with no build step.
import { $, S, mySeat, api, banner, guarded, showRule, t } from "./js/core.js";
import { fitSaid, toggleSaid } from "./js/said.js";
import { refresh } from "./js/moment.js";
import { undoRedo } from "./js/board.js";
import { drawActions } from "./js/moves.js";
import { openSeats } from "./js/seats.js";
import { loadSystems, startGame, showTab } from "./js/games.js";
import { follow, keepAwake } from "./js/live.js";
import { setupSheet } from "./js/moves.js";

async function start() {
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => { S.autoGames = false; showTab(b.dataset.tab); });
  for (const b of document.querySelectorAll("[data-goto]")) b.addEventListener("click", () => showTab(b.dataset.goto));
  $("banner-close").addEventListener("click", () => banner(""));
  // A refusal's bar at the screen's bottom: an open form's sticky send row rests above it, never under it (style.css).
  new ResizeObserver(() => document.documentElement.style.setProperty("--banner-h", `${$("banner").offsetHeight}px`)).observe($("banner"));
  const head = document.querySelector("header.top"); // the All actions sheet starts under it (style.css)
  new ResizeObserver(() => document.documentElement.style.setProperty("--head-h", `${head.offsetHeight}px`)).observe(head);
  $("banner-rule").addEventListener("click", () => showRule(S.bannerRule));
  $("banner-retry").addEventListener("click", () => { const r = S.retry; banner(""); if (r) r(); });
  $("undo").addEventListener("click", () => undoRedo("undo"));
  $("said-more").addEventListener("click", toggleSaid);
  $("said").addEventListener("click", toggleSaid);
  window.addEventListener("resize", fitSaid);
  $("redo").addEventListener("click", () => undoRedo("redo"));
  $("seat").addEventListener("click", openSeats);
  setupSheet();
  $("new-game").addEventListener("submit", startGame);
  $("by-hand").checked = localStorage.getItem("tableside.byhand") === "1";
  $("by-hand").addEventListener("change", () => {
    localStorage.setItem("tableside.byhand", $("by-hand").checked ? "1" : "0");
    if (S.acts) { S.open.clear(); drawActions(); } // dice actions now open a form for the faces
  });
  document.addEventListener("visibilitychange", keepAwake);
  const boot = async () => { await loadSystems(); await refresh(); S.started = true; };
  await guarded(boot, t("Loading the table"));
  if (!S.view && S.started) { showTab("games"); S.autoGames = true; } // no game yet: the New game form
  else if (!S.view) showTab("game");
  follow();
}
// The page's state and a few of its functions, reached from the console and by the browser tests (tests/), as
// when the page was one script.
Object.assign(window, { S, $, api, mySeat, refresh });
start();
