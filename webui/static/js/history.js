// History: the timeline, the chart and the dice luck.
import { $, S, LOG_PAGE, SOURCE_WORDS, el, human, when, api, banner, guarded, t } from "./core.js";
import { seatLabel } from "./board.js";

export async function loadHistory() {
  drawTimeline();
  if (!S.view) return;
  const v = S.view.version;
  if (S.historyAt === `${S.view.id}:${v}`) return;
  try {
    const [svg, luck] = await Promise.all([
      fetch("/api/panel/chart.svg", { credentials: "same-origin", cache: "no-store" }).then((r) => (r.ok ? r.text() : "")),
      api("GET", "/api/panel/luck"),
    ]);
    $("chart").innerHTML = svg || "<p class='hint'>No chart for this game yet.</p>";
    drawLuck(luck);
    S.historyAt = `${S.view.id}:${v}`;
  } catch (err) { banner(t("History: {why}", { why: err.message }), "error", () => loadHistory()); }
}
function drawLuck(luck) {
  const box = $("luck");
  box.replaceChildren();
  const rowsL = (luck && luck.players) || [];
  if (!rowsL.length) { // dice rolled in private (a seat's own scene pool) are rolled, only not counted: said so
    box.append(el("p", { class: "hint" }, luck && luck.private_dice ? t("No dice rolled in the open yet.") : t("No dice rolled yet.")));
    if (luck && luck.note) box.append(el("p", { class: "hint" }, luck.note));
    return;
  }
  box.append(el("table", { class: "luck" }, el("thead", {}, el("tr", {}, [t("Who"), t("Dice"), t("Average face"), t("Verdict")].map((h) => el("th", { scope: "col" }, h)))),
    // each player named and coloured as the board draws them ("Ann (Venus)" in purple): the server's label and colour
    el("tbody", {}, rowsL.map((p) => el("tr", { class: Number.isInteger(p.colour) ? `c${p.colour % 7}` : undefined },
      el("td", {}, p.name), el("td", {}, String(p.dice)),
      el("td", {}, p.average), el("td", {}, p.verdict))))));
  if (luck.note) box.append(el("p", { class: "hint" }, luck.note));
}
function drawTimeline() {
  const list = $("log");
  list.replaceChildren();
  if (!S.log.length) { list.append(el("li", { class: "hint" }, t("Nothing has happened yet."))); return; }
  const gapAt = new Map((S.gaps || []).map((g) => [g.before, g]));
  for (const e of S.log.slice().reverse()) {
    const summary = (e.result && e.result.summary) || human(e.type);
    const who = e.seat || (e.action && (e.action.player || e.action.attacker)) || "";
    const meta = [`#${e.seq}`, when(e.at), who ? `by ${seatLabel(who)}` : "", e.seat ? "" : e.source ? `from ${SOURCE_WORDS[e.source] || e.source}` : ""].filter(Boolean).join(" · ");
    const li = el("li", { class: e.type === "correct" ? "fix" : undefined }, e.type === "correct" ? t("Correction: {summary}", { summary }) : summary, el("span", { class: "meta" }, meta));
    for (const r of rollsOf(e)) {
      li.append(el("div", { class: "tapped" }, el("span", { class: "help" }, `${human(r.shown || r.label || r.expr || "Dice")}:`),
        (r.rolls || r.faces || []).map((x) => el("span", { class: "die small" }, String(x)))));
    }
    list.append(li);
    const gap = gapAt.get(e.seq);
    if (gap) { // changes made while this phone was away, beyond what its moment carried
      const n = gap.before - gap.after - 1;
      list.append(el("li", { class: "earlier gap" }, el("button", { type: "button", onclick: (ev) => fillGap(gap, ev.currentTarget) },
        `${n} earlier change${n === 1 ? "" : "s"} — show`)));
    }
  }
  if (S.logFrom > 0) { // a long game: the phone read only the newest changes; older ones on request
    list.append(el("li", { class: "earlier" }, el("button", { type: "button", onclick: (ev) => earlier(ev.currentTarget) },
      t("Earlier changes ({count} before #{first})", { count: S.logFrom, first: S.logFrom + 1 }))));
  }
}
async function earlier(button) {
  button.disabled = true;
  const from = Math.max(0, S.logFrom - LOG_PAGE);
  const got = await guarded(() => api("GET", `/api/sessions/active/log?after=${from}&limit=${S.logFrom - from}`), t("Earlier changes"));
  if (got) {
    S.log = got.filter((e) => e.seq <= S.logFrom).concat(S.log);
    S.logFrom = from;
  }
  drawTimeline();
}
// The newest page of a gap first (the ones next to what is shown); what is left stays a gap.
async function fillGap(gap, button) {
  button.disabled = true;
  const n = Math.min(gap.before - gap.after - 1, LOG_PAGE), from = gap.before - 1 - n;
  const got = await guarded(() => api("GET", `/api/sessions/active/log?after=${from}&limit=${n}`), t("Earlier changes"));
  if (got) {
    const have = new Set(S.log.map((e) => e.seq));
    S.log = S.log.concat(got.filter((e) => e.seq > from && e.seq < gap.before && !have.has(e.seq))).sort((x, y) => x.seq - y.seq);
    gap.before = from + 1;
    S.gaps = S.gaps.filter((g) => g.before > g.after + 1);
  }
  drawTimeline();
}
function rollsOf(e) {
  const objects = (x) => Array.isArray(x) && x.length && x.every((r) => r && typeof r === "object");
  if (objects(e.rolls)) return e.rolls;
  if (e.result && objects(e.result.rolls)) return e.result.rolls;
  if (e.action && e.action.roll) return [e.action.roll];
  return [];
}
