// The Stats page (#34): the table's game nights and its players across games and systems (GET /api/stats).
// Fetched only when the tab is first opened (games.js showTab), its styles with it: most first loads never need it.
// A name is renamed or merged, and a game left out of the stats or counted again, from here.
import { $, el, t, api, banner } from "./core.js";

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
// Dates in the page's language (the phone's, #38), the weekdays' initials Monday first from the same locale data.
const LOCALE = document.documentElement.lang || undefined;
const WEEKDAYS = () => [5, 6, 7, 8, 9, 10, 11].map((d) => new Date(2026, 0, d).toLocaleDateString(LOCALE, { weekday: "narrow" }));
let asked = 0;

// Counted words, each a whole phrase per number in the catalog (never a word glued to "s").
const nGames = (n) => (n === 1 ? t("{n} game", { n }) : t("{n} games", { n }));
const nNights = (n) => (n === 1 ? t("{n} game night", { n }) : t("{n} game nights", { n }));
const nMonths = (n) => (n === 1 ? t("{n} month", { n }) : t("{n} months", { n }));
const day = (night) => new Date(`${night}T12:00:00`);
const dateWords = (night) => (night ? day(night).toLocaleDateString(LOCALE, { weekday: "short", day: "numeric", month: "short", year: "numeric" }) : t("an unknown night"));

export async function openStats() {
  const tab = $("tab-stats");
  if (!tab.dataset.ready) { tab.dataset.ready = "1"; document.head.append(el("style", {}, CSS)); }
  const mine = ++asked;
  if (!tab.childElementCount) tab.replaceChildren(el("h2", {}, t("Game nights")), el("p", { class: "hint" }, t("Counting every game…")));
  let stats;
  try { stats = await api("GET", "/api/stats"); } catch (err) {
    if (mine === asked) tab.replaceChildren(el("h2", {}, t("Game nights")), el("p", { class: "form-error" }, err.message));
    return;
  }
  if (mine !== asked) return;
  const everyone = stats.players.map((p) => ({ id: p.id, name: p.name }));
  tab.replaceChildren(...[
    el("h2", {}, t("Game nights")),
    el("p", { class: "stats-sum" }, stats.left_out
      ? t("{games} on {nights} ({n} left out)", { games: nGames(stats.games), nights: nNights(stats.nights.length), n: stats.left_out })
      : t("{games} on {nights}", { games: nGames(stats.games), nights: nNights(stats.nights.length) })),
    el("p", { class: "hint" }, t("A game counts once its rules end it; a Venus 2140 game, which its rules never end, counts as played from its first move, never won or lost. VENOM Assault is won or lost together.")),
    calendar(stats.nights),
    el("h2", {}, t("Players")),
    stats.players.length ? stats.players.map((p) => player(p, everyone)) : el("p", { class: "hint" }, t("No finished games yet: the players show here after their first.")),
    el("h2", {}, t("Longest games")), games(stats.longest, true),
    el("h2", {}, t("Shortest games")), games(stats.shortest, true),
    stats.left_out_games.length ? [el("h2", {}, t("Left out of the stats")), games(stats.left_out_games, false)] : [],
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
  return [shown, el("details", {}, el("summary", {}, t("Earlier game nights ({months})", { months: nMonths(blocks.length - MONTHS_SHOWN) })),
    el("div", { class: "months" }, blocks.slice(MONTHS_SHOWN)))];
}

function month(key, nights) {
  const first = new Date(`${key}-01T12:00:00`);
  const days = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  const title = first.toLocaleDateString(LOCALE, { month: "long", year: "numeric" });
  const cells = WEEKDAYS().map((w) => el("span", { class: "wd", "aria-hidden": "true" }, w));
  for (let i = 0; i < (first.getDay() + 6) % 7; i++) cells.push(el("span", { "aria-hidden": "true" }));
  for (let d = 1; d <= days; d++) {
    const n = nights.get(d);
    cells.push(n ? el("span", { class: "night", role: "img", title: t("{games}: {players}", { games: nGames(n.games), players: n.players.join(", ") }),
      "aria-label": t("{day} {month}: {games} with {players}", { day: d, month: title, games: nGames(n.games), players: n.players.join(", ") }) }, String(d))
      : el("span", { "aria-hidden": "true" }, String(d)));
  }
  return el("section", { class: "month", "aria-label": title }, el("h3", {}, title), el("div", { class: "cal" }, cells));
}

function rate(s) {
  if (s.win_rate === null) return t("played");
  return `${Math.round(s.win_rate * 100)}%`;
}

function player(p, everyone) {
  const rows = p.systems.map((s) => el("tr", {},
    el("td", {}, s.name, s.team ? el("span", { class: "hint" }, " ", t("(together)")) : ""),
    el("td", { class: "n" }, String(s.games)),
    el("td", { class: "n" }, s.results ? String(s.wins) : "–"),
    el("td", { class: "n" }, rate(s))));
  const medals = p.systems.filter((s) => s.medals).map((s) => (s.medals === 1 ? t("{n} Medal of Honor in {system}", { n: s.medals, system: s.name })
    : t("{n} Medals of Honor in {system}", { n: s.medals, system: s.name })));
  const lines = [
    p.favourite ? t("Favourite world: {world} ({games})", { world: p.favourite.faction, games: nGames(p.favourite.games) }) : null,
    p.rival ? (p.rival.beat_you === 1 ? t("Rival: {rival}, who beat {name} {n} time", { rival: p.rival.name, name: p.name, n: 1 })
      : t("Rival: {rival}, who beat {name} {n} times", { rival: p.rival.name, name: p.name, n: p.rival.beat_you })) : null,
    p.nemesis ? (p.nemesis.of === 1
      ? t("Nemesis: {nemesis}, who beat {name} in {n} of their {of} game together", { nemesis: p.nemesis.name, name: p.name, n: p.nemesis.beat_you, of: 1 })
      : t("Nemesis: {nemesis}, who beat {name} in {n} of their {of} games together", { nemesis: p.nemesis.name, name: p.name, n: p.nemesis.beat_you, of: p.nemesis.of })) : null,
    ...medals,
  ].filter(Boolean);
  return el("article", { class: "player", "aria-label": p.name },
    el("h3", {}, p.name),
    el("p", { class: "hint" }, `${nGames(p.games)} · ${p.wins === 1 ? t("{n} win", { n: p.wins }) : t("{n} wins", { n: p.wins })}`),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, t("Game")), el("th", { class: "n" }, t("Played")),
      el("th", { class: "n" }, t("Won")), el("th", { class: "n" }, t("Win rate")))), el("tbody", {}, rows)),
    lines.map((line) => el("p", {}, line)),
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
  svg.setAttribute("aria-label", t("{name}'s luck over {nights}; the last, {night}: {z}",
    { name: p.name, nights: nNights(p.luck.length), night: dateWords(last.night), z: `${last.z >= 0 ? "+" : ""}${last.z}` }));
  const line = document.createElementNS(ns, "line");
  for (const [k, v] of Object.entries({ x1: 0, x2: w, y1: mid, y2: mid })) line.setAttribute(k, v);
  svg.append(line);
  p.luck.forEach((x, i) => {
    const r = document.createElementNS(ns, "rect"), size = Math.min(Math.abs(x.z), 2) / 2 * (mid - 1);
    for (const [k, v] of Object.entries({ x: i * bar, y: x.z >= 0 ? mid - size : mid, width: Math.max(1, bar - 1), height: Math.max(size, 1) })) r.setAttribute(k, v);
    r.setAttribute("class", x.z >= 0 ? "up" : "down");
    svg.append(r);
  });
  const rolled = p.luck.reduce((a, x) => a + x.dice, 0);
  return [el("p", {}, rolled === 1 ? t("Luck by game night (1 die rolled)") : t("Luck by game night ({n} dice rolled)", { n: rolled })), svg];
}

async function change(path, body, what) {
  try { await api("POST", path, body); } catch (err) { banner(t("{what}: {why}", { what, why: err.message }), "error"); return; }
  await openStats();
}

function names(p, everyone) {
  const input = el("input", { type: "text", maxlength: "30", value: p.name, "aria-label": t("New name for {name}", { name: p.name }), autocomplete: "off" });
  const others = everyone.filter((o) => o.id !== p.id);
  const pick = el("select", { "aria-label": t("The player {name} is", { name: p.name }) }, others.map((o) => el("option", { value: String(o.id) }, o.name)));
  return el("details", {}, el("summary", {}, t("Rename or merge")),
    el("div", { class: "row" }, input, el("button", { type: "button", onclick: () => change(`/api/people/${p.id}/rename`, { name: input.value }, t("Not renamed")) }, t("Rename"))),
    others.length ? el("div", { class: "row" }, el("span", {}, t("Same person as")), pick,
      el("button", { type: "button", onclick: () => change(`/api/people/${p.id}/merge`, { into: Number(pick.value) }, t("Not merged")) }, t("Merge"))) : null);
}

function games(list, counted) {
  if (!list.length) return el("p", { class: "hint" }, t("None yet."));
  return el("ul", { class: "games-list" }, list.map((g) => el("li", {},
    el("div", {}, el("b", {}, g.system), ` · ${dateWords(g.night)} · ${g.time}`),
    el("div", { class: "hint" }, g.players.join(", ")),
    el("button", { type: "button", onclick: () => change(`/api/stats/games/${encodeURIComponent(g.id)}`, { left_out: counted }, t("Not changed")) },
      counted ? t("Leave out of the stats") : t("Count it again")))));
}
