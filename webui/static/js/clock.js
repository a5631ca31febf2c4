// The soft clock per seat (#34): each seat's time, told from the log (GET /api/sessions/active/clock), asked once
// per change while the view says the clock is on; between changes the running seat's time ticks here, with no
// request. Pause and Run again are log entries (the core's ``clock`` action), so Undo takes them back. It never
// stops a move.
import { $, el, api, guarded, t } from "./core.js";
import { acting, refresh } from "./moment.js";
import { seatLabel } from "./board.js";

let told = null, asked = null, skew = 0, timer = null;

function box() {
  // Its look is in later.css, fetched with the first module that needs it: the first load stays small.
  if (!$("later-css")) document.head.append(el("link", { id: "later-css", rel: "stylesheet", href: "/static/later.css" }));
  let node = $("soft-clock");
  if (!node) {
    node = el("section", { id: "soft-clock", class: "soft-clock", "aria-label": t("Soft clock"), hidden: true });
    $("game").insertBefore(node, $("now"));
  }
  return node;
}

function mmss(s) {
  const n = Math.max(0, Math.floor(s));
  return `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
}

function seconds(name) {
  let s = (told.seconds || {})[name] || 0;
  if (told.running === name && told.since) s += (Date.now() + skew - Date.parse(told.since)) / 1000;
  return s;
}

function tick() {
  const node = $("soft-clock");
  if (!node || node.hidden || !told) return;
  for (const li of node.querySelectorAll("li[data-seat]")) li.querySelector("b").textContent = mmss(seconds(li.dataset.seat));
}

async function switchClock(what) {
  await acting(async () => {
    await api("POST", "/api/sessions/active/actions", { type: "clock", do: what });
    await refresh("clock");
  });
}

function draw(view) {
  const node = box();
  node.hidden = !(told && told.on);
  if (node.hidden) { node.replaceChildren(); return; }
  const seats = (view.seats || []).map((s) => s.name);
  node.replaceChildren(
    el("ul", { class: "clock-seats" }, ...seats.map((name) => el("li", { "data-seat": name, class: told.running === name ? "running" : "" },
      el("span", {}, seatLabel(name)), " ", el("b", {}, mmss(seconds(name)))))),
    el("button", { id: "clock-pause", type: "button", onclick: () => guarded(() => switchClock(told.paused ? "resume" : "pause"), t("The clock")) },
      told.paused ? t("Run the clock again") : t("Pause the clock")),
  );
  if (!timer) timer = setInterval(tick, 1000);
}

// Asked when the game changes (its id and version) while the view says the clock is on (``view.clock``); off, it
// is hidden with no request.
export async function drawClock(view) {
  const key = `${view.id}:${view.version}`;
  if (asked === key) return;
  asked = key;
  if (!view.clock) { told = null; draw(view); return; }
  try { told = await api("GET", "/api/sessions/active/clock"); } catch { told = null; }
  if (told && told.now) skew = Date.parse(told.now) - Date.now();
  if (asked === key) draw(view);
}
