// The Stats page (#34): the table's game nights and its players across games and systems (GET /api/stats).
// Fetched only when the tab is first opened (games.js showTab), its styles with it: most first loads never need it.
// A name is renamed or merged, and a game left out of the stats or counted again, from here.
import { $, el, api, banner } from "./core.js";

const CSS = `
.stats-sum { font-weight: 600; }
.months { display: flex; flex-wrap: wrap; gap: .8rem; }
.month h3 { font-size: .95rem; margin: .4rem 0 .2rem; }
.cal { display: grid; grid-template-columns: repeat(7, 1.7rem); gap: 2px; font-size: .75rem; text-align: center; }
.cal span { padding: .15rem 0; border-radius: .25rem; color: var(--muted); }
.cal .wd { font-weight: 600; }
.cal .night { background: var(--accent); color: var(--accent-fg); font-weight: 700; }
.player { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: .2rem .6rem .5rem; margin: .6rem 0; }
.player h3 { margin: .4rem 0 .1rem; }
.player table { border-collapse: collapse; width: 100%; font-size: .9rem; margin: .3rem 0; }
.player th, .player td { text-align: left; padding: .15rem .3rem .15rem 0; border-bottom: 1px solid var(--line); }
.player td.n, .player th.n { text-align: right; }
.player p { margin: .2rem 0; }
.luck { display: block; width: 100%; height: 44px; }
.luck .up { fill: var(--ok); } .luck .down { fill: var(--accent); } .luck line { stroke: var(--line); }
.player details .row { display: flex; gap: .4rem; margin: .3rem 0; }
.player details input, .player details select { flex: 1; min-width: 0; }
.games-list { list-style: none; padding: 0; margin: 0; }
.games-list li { border-bottom: 1px solid var(--line); padding: .35rem 0; }
.games-list button { margin-top: .25rem; }
`;
const MONTHS_SHOWN = 6; // the newest months with game nights; the rest fold away
const WEEKDAYS = ["M", "T", "W", "T", "F", "S", "S"];
let asked = 0;

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const day = (night) => new Date(`${night}T12:00:00`);
const dateWords = (night) => (night ? day(night).toLocaleDateString([], { weekday: "short", day: "numeric", month: "short", year: "numeric" }) : "an unknown night");

export async function openStats() {
  const tab = $("tab-stats");
  if (!tab.dataset.ready) { tab.dataset.ready = "1"; document.head.append(el("style", {}, CSS)); }
  const mine = ++asked;
  if (!tab.childElementCount) tab.replaceChildren(el("h2", {}, "Game nights"), el("p", { class: "hint" }, "Counting every game…"));
  let stats;
  try { stats = await api("GET", "/api/stats"); } catch (err) {
    if (mine === asked) tab.replaceChildren(el("h2", {}, "Game nights"), el("p", { class: "form-error" }, err.message));
    return;
  }
  if (mine !== asked) return;
  const everyone = stats.players.map((p) => ({ id: p.id, name: p.name }));
  tab.replaceChildren(...[
    el("h2", {}, "Game nights"),
    el("p", { class: "stats-sum" }, `${plural(stats.games, "game")} on ${plural(stats.nights.length, "game night")}`,
      stats.left_out ? ` (${stats.left_out} left out)` : ""),
    el("p", { class: "hint" }, "A game counts once its rules end it; a Venus 2140 game, which its rules never end, counts as played from its first move, never won or lost. VENOM Assault is won or lost together."),
    calendar(stats.nights),
    el("h2", {}, "Players"),
    stats.players.length ? stats.players.map((p) => player(p, everyone)) : el("p", { class: "hint" }, "No finished games yet: the players show here after their first."),
    el("h2", {}, "Longest games"), games(stats.longest, true),
    el("h2", {}, "Shortest games"), games(stats.shortest, true),
    stats.left_out_games.length ? [el("h2", {}, "Left out of the stats"), games(stats.left_out_games, false)] : [],
  ].flat(2));
}

function calendar(nights) {
  const months = new Map();
  for (const n of nights) {
    if (!n.night) continue;
    const key = n.night.slice(0, 7);
    if (!months.has(key)) months.set(key, new Map());
    months.get(key).set(Number(n.night.slice(8)), n);
  }
  const blocks = [...months.keys()].sort().reverse().map((key) => month(key, months.get(key)));
  const shown = el("div", { class: "months" }, blocks.slice(0, MONTHS_SHOWN));
  if (blocks.length <= MONTHS_SHOWN) return shown;
  return [shown, el("details", {}, el("summary", {}, `Earlier game nights (${plural(blocks.length - MONTHS_SHOWN, "month")})`),
    el("div", { class: "months" }, blocks.slice(MONTHS_SHOWN)))];
}

function month(key, nights) {
  const first = new Date(`${key}-01T12:00:00`);
  const days = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  const title = first.toLocaleDateString([], { month: "long", year: "numeric" });
  const cells = WEEKDAYS.map((w) => el("span", { class: "wd", "aria-hidden": "true" }, w));
  for (let i = 0; i < (first.getDay() + 6) % 7; i++) cells.push(el("span", { "aria-hidden": "true" }));
  for (let d = 1; d <= days; d++) {
    const n = nights.get(d);
    cells.push(n ? el("span", { class: "night", role: "img", title: `${plural(n.games, "game")}: ${n.players.join(", ")}`,
      "aria-label": `${d} ${title}: ${plural(n.games, "game")} with ${n.players.join(", ")}` }, String(d))
      : el("span", { "aria-hidden": "true" }, String(d)));
  }
  return el("section", { class: "month", "aria-label": title }, el("h3", {}, title), el("div", { class: "cal" }, cells));
}

function rate(s) {
  if (s.win_rate === null) return "played";
  return `${Math.round(s.win_rate * 100)}%`;
}

function player(p, everyone) {
  const rows = p.systems.map((s) => el("tr", {},
    el("td", {}, s.name, s.team ? el("span", { class: "hint" }, " (together)") : ""),
    el("td", { class: "n" }, String(s.games)),
    el("td", { class: "n" }, s.results ? String(s.wins) : "–"),
    el("td", { class: "n" }, rate(s))));
  const medals = p.systems.filter((s) => s.medals).map((s) => `${plural(s.medals, "Medal")} of Honor in ${s.name}`);
  const lines = [
    p.favourite ? `Favourite world: ${p.favourite.faction} (${plural(p.favourite.games, "game")})` : null,
    p.rival ? `Rival: ${p.rival.name}, who beat ${p.name} ${plural(p.rival.beat_you, "time")}` : null,
    p.nemesis ? `Nemesis: ${p.nemesis.name}, who beat ${p.name} in ${p.nemesis.beat_you} of their ${plural(p.nemesis.of, "game")} together` : null,
    ...medals,
  ].filter(Boolean);
  return el("article", { class: "player", "aria-label": p.name },
    el("h3", {}, p.name),
    el("p", { class: "hint" }, `${plural(p.games, "game")} · ${plural(p.wins, "win")}`),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", { class: "n" }, "Played"),
      el("th", { class: "n" }, "Won"), el("th", { class: "n" }, "Win rate"))), el("tbody", {}, rows)),
    lines.map((t) => el("p", {}, t)),
    p.luck.length ? luck(p) : null,
    names(p, everyone));
}

// Luck by game night: a bar per night, above the line luckier than fair dice, below it less lucky.
function luck(p) {
  const ns = "http://www.w3.org/2000/svg", w = 300, h = 44, mid = h / 2;
  const svg = document.createElementNS(ns, "svg");
  const bar = Math.max(2, w / Math.max(p.luck.length, 12)); // a few nights are drawn as wide as a dozen
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "luck");
  svg.setAttribute("role", "img");
  const last = p.luck[p.luck.length - 1];
  svg.setAttribute("aria-label", `${p.name}'s luck over ${plural(p.luck.length, "game night")}; the last, ${dateWords(last.night)}: ${last.z >= 0 ? "+" : ""}${last.z}`);
  const line = document.createElementNS(ns, "line");
  for (const [k, v] of Object.entries({ x1: 0, x2: w, y1: mid, y2: mid })) line.setAttribute(k, v);
  svg.append(line);
  p.luck.forEach((x, i) => {
    const r = document.createElementNS(ns, "rect"), size = Math.min(Math.abs(x.z), 2) / 2 * (mid - 1);
    for (const [k, v] of Object.entries({ x: i * bar, y: x.z >= 0 ? mid - size : mid, width: Math.max(1, bar - 1), height: Math.max(size, 1) })) r.setAttribute(k, v);
    r.setAttribute("class", x.z >= 0 ? "up" : "down");
    svg.append(r);
  });
  return [el("p", {}, `Luck by game night (${plural(p.luck.reduce((a, x) => a + x.dice, 0), "die", "dice")} rolled)`), svg];
}

async function change(path, body, what) {
  try { await api("POST", path, body); } catch (err) { banner(`${what}: ${err.message}`, "error"); return; }
  await openStats();
}

function names(p, everyone) {
  const input = el("input", { type: "text", maxlength: "30", value: p.name, "aria-label": `New name for ${p.name}`, autocomplete: "off" });
  const others = everyone.filter((o) => o.id !== p.id);
  const pick = el("select", { "aria-label": `The player ${p.name} is` }, others.map((o) => el("option", { value: String(o.id) }, o.name)));
  return el("details", {}, el("summary", {}, "Rename or merge"),
    el("div", { class: "row" }, input, el("button", { type: "button", onclick: () => change(`/api/people/${p.id}/rename`, { name: input.value }, "Not renamed") }, "Rename")),
    others.length ? el("div", { class: "row" }, el("span", {}, "Same person as"), pick,
      el("button", { type: "button", onclick: () => change(`/api/people/${p.id}/merge`, { into: Number(pick.value) }, "Not merged") }, "Merge")) : null);
}

function games(list, counted) {
  if (!list.length) return el("p", { class: "hint" }, "None yet.");
  return el("ul", { class: "games-list" }, list.map((g) => el("li", {},
    el("div", {}, el("b", {}, g.system), ` · ${dateWords(g.night)} · ${g.time}`),
    el("div", { class: "hint" }, g.players.join(", ")),
    el("button", { type: "button", onclick: () => change(`/api/stats/games/${encodeURIComponent(g.id)}`, { left_out: counted }, "Not changed") },
      counted ? "Leave out of the stats" : "Count it again"))));
}
