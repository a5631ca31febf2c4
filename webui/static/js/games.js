// New and saved games, the e-paper preview and the tabs.
import { $, S, el, labelOf, when, api, banner, guarded, t } from "./core.js";
import { said } from "./said.js";
import { refresh, acting } from "./moment.js";
import { systemName } from "./board.js";
import { sayAt, unsay, sayForm, readAll, diceNote } from "./forms.js";
import { shownWhen, recheckOn, fieldWidget } from "./fields.js";
import { confirmBox } from "./seats.js";
import { loadHistory } from "./history.js";

export async function loadSystems() {
  S.systems = await api("GET", "/api/systems?brief=1"); // names, options and buttons: no page draws these actions
  if (!S.optionsFollowed) { recheckOn($("option-fields"), () => S.optionsShown && S.optionsShown()); S.optionsFollowed = true; }
  const box = $("system-box");
  box.querySelectorAll("label").forEach((n) => n.remove());
  S.systems.forEach((s, i) => {
    const input = el("input", { type: "radio", name: "system", value: s.id });
    if (i === 0) input.checked = true;
    input.addEventListener("change", showOptions);
    box.append(el("label", {}, input, s.name));
  });
  showOptions();
}
function chosenSystem() { const r = document.querySelector("input[name=system]:checked"); return S.systems.find((s) => s.id === (r && r.value)); }
function showOptions() {
  const sys = chosenSystem();
  const box = $("option-fields");
  S.optionWidgets = (sys ? sys.options : []).map((o) => fieldWidget({ ...o, setup: true }));
  box.replaceChildren(sys && sys.description ? el("p", { class: "hint" }, sys.description) : "", ...S.optionWidgets.map((w) => w.node));
  S.optionsShown = shownWhen(sys ? sys.options : [], S.optionWidgets);
  if (!box.dataset.people) { // the name field last tapped into, for the names seen (nameField)
    box.dataset.people = "1";
    box.addEventListener("focusin", (ev) => { if (ev.target.matches("input[data-person]")) S.personAt = ev.target; });
  }
  const seen = S.peopleSeen || (S.peopleSeen = $("people-seen")), named = box.querySelector("input[data-person]");
  (named ? named.closest(".field") : box).after(seen); // the names seen, under the players' names
}
export async function startGame(ev) {
  ev.preventDefault();
  const form = $("new-game"), err = form.querySelector(".form-error");
  const sys = chosenSystem();
  err.hidden = true;
  unsay(form);
  let options;
  try { options = readAll(sys.options, S.optionWidgets); } catch (e) { if (!sayAt(e.widget, e.message)) sayForm(err, e.message); return; }
  if (S.view && !(await confirmBox(t("Start a new game?"), t("The table switches from {old} (version {version}) to a new {system} game on every phone and the display. The current game stays saved under Saved games.",
    { old: systemName(S.view.system), version: S.view.version, system: sys.name }), t("Start new game")))) return;
  try {
    await acting(async () => { // the new game's event, heard meanwhile, asks nothing more: the moment drawn next is its
      const clock = $("new-clock").checked; // the soft clock per seat: off by default (webui.clock)
      await api("POST", "/api/sessions?brief=1", { system: sys.id, options, ...(clock ? { clock } : {}) });
      said(t("A new {system} game has started.", { system: sys.name }));
      await refresh("session");
    });
    showTab("game");
  } catch (e) {
    if (e.kind === "refused" && optionRefused(sys.options, e.message, e.data.rule)) return;
    sayForm(err, e.kind === "offline" ? t("{why} Your entries are kept.", { why: e.message }) : e.message, undefined, e.data.rule);
  }
}
// The rules refuse an option by its key or its label ("options: first_player Mars is wrong: ...", "options:
// Players needs at least 2 entries"): said under that option, with its label; false when it names none.
function optionRefused(fields, message, rule) {
  const rest = String(message || "").replace(/^options: /, "");
  const i = fields.findIndex((f) => [f.name, labelOf(f)].some((n) => rest.startsWith(`${n} `) || rest.startsWith(`${n}:`)));
  if (i < 0) return false;
  const f = fields[i], named = rest.startsWith(f.name) && !rest.startsWith(labelOf(f)) ? f.name : labelOf(f);
  const why = rest.slice(named.length).replace(/^:?\s*/, "");
  return sayAt(S.optionWidgets[i], `${labelOf(f)}: ${why}`, rule);
}
export async function loadSessions() {
  let list;
  try { list = await api("GET", "/api/panel/sessions"); } catch (err) { banner(t("Saved games: {why}", { why: err.message }), "error", () => loadSessions()); return; }
  const ul = $("sessions");
  ul.replaceChildren();
  if (!list.length) ul.append(el("li", { class: "hint" }, t("No saved games yet.")));
  for (const s of list) {
    const bits = [s.players && s.players.length ? s.players.join(", ") : "", s.round, t("last change {when}", { when: when(s.last_change) })].filter(Boolean);
    const li = el("li", { class: s.active ? "active" : undefined },
      el("div", { class: "who" }, s.active ? t("{system} (playing now)", { system: s.system_name }) : s.system_name),
      el("div", {}, bits.join(" · ")),
      el("div", { class: "hint" }, s.version === 1 ? t("1 action · started {when}", { when: when(s.created_at) })
        : t("{count} actions · started {when}", { count: s.version, when: when(s.created_at) })));
    const row = el("div", { class: "row" });
    if (!s.active) {
      row.append(el("button", { type: "button", onclick: async () => {
        const what = s.players && s.players.length ? t("{system} with {players}", { system: s.system_name, players: s.players.join(", ") }) : s.system_name;
        const how = S.view ? t("Every phone and the display switch to {what}. The game now playing stays saved.", { what })
          : t("Every phone and the display switch to {what}.", { what });
        if (!(await confirmBox(t("Switch the table?"), how, t("Switch")))) return;
        await guarded(() => acting(async () => { await api("POST", "/api/sessions/active/activate?brief=1", { id: s.id }); await refresh("session"); showTab("game"); }), t("Switching"));
      } }, t("Play this game")));
    }
    row.append(el("a", { href: `/api/sessions/${encodeURIComponent(s.id)}/export?format=json`, download: "" }, t("Export JSON")),
      el("a", { href: `/api/sessions/${encodeURIComponent(s.id)}/export?format=csv`, download: "" }, t("Export CSV")));
    li.append(row);
    ul.append(li);
  }
}

// The names the table has seen, one tap each into the New game form (fields.js data-person): the empty name
// field last tapped into (the GM's, emptied), else the next empty player's name, else a new player's row while
// the game takes more players, else another empty name (a Commander chosen by hand). A third friend's name
// once went into VENOM's optional Commander field with the two player rows full (a playthrough, #34).
async function loadPeople() {
  const people = await api("GET", "/api/people").catch(() => []), box = $("people-seen");
  box.hidden = !people.length;
  box.replaceChildren(el("span", { class: "hint" }, t("Names seen here:")), ...people.map((p) => el("button", { type: "button", onclick: () => {
    const named = [...$("option-fields").querySelectorAll("input[data-person]")].find((i) => i.value.trim().toLowerCase() === p.name.toLowerCase());
    if (named) { named.focus(); return; } // already in the form: never a second player of the same name
    const into = nameField();
    if (into) { into.value = p.name; into.dispatchEvent(new Event("input", { bubbles: true })); into.focus(); }
  } }, p.name)));
}
function nameField() {
  const form = $("option-fields"), empty = (sel) => [...form.querySelectorAll(sel)].find((i) => !i.value.trim());
  const last = S.personAt;
  if (last && form.contains(last) && !last.value.trim()) return last;
  const player = empty('input[data-person="1"]');
  if (player) return player;
  const add = form.querySelector("button[data-add-person]"), list = add && add.closest("fieldset");
  if (add && (!add.dataset.max || list.querySelectorAll('input[data-person="1"]').length < Number(add.dataset.max))) {
    add.click();
    return empty('input[data-person="1"]');
  }
  return empty("input[data-person]");
}

export async function loadFrame() {
  try {
    const res = await fetch("/display.png", { credentials: "same-origin", cache: "no-cache" });
    if (!res.ok) return;
    const tag = res.headers.get("ETag");
    if (tag && tag === S.frameTag) return;
    S.frameTag = tag;
    const img = $("frame");
    if (img.dataset.url) URL.revokeObjectURL(img.dataset.url);
    img.dataset.url = URL.createObjectURL(await res.blob());
    img.src = img.dataset.url;
  } catch { /* the banner already says when the table is unreachable */ }
  if (!S.hw || S.hw.display === "starting" || S.hw.buttons === "starting") {
    S.hw = await api("GET", "/api/hardware").catch(() => null);
    if (S.hw) $("hardware").textContent = `${S.hw.display_note || S.hw.display}. ${S.hw.buttons_note ? t("Buttons: {note}", { note: S.hw.buttons_note }) : ""}${diceNote(S.hw.smart_dice)}`;
  }
}

export function showTab(name) {
  S.tab = name;
  for (const b of document.querySelectorAll(".tabs button")) {
    if (b.dataset.tab === name) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
  }
  for (const tab of ["game", "history", "games", "display", "rules", "stats", "settings"]) $(`tab-${tab}`).hidden = tab !== name;
  if (name === "history") loadHistory();
  if (name === "games") { loadSessions(); loadPeople(); }
  if (name === "display") loadFrame();
  // The rules search (rules.js) is fetched on the tab's first opening: most first loads never need it.
  if (name === "rules") import("./rules.js").then((m) => m.openRules(), (e) => banner(t("The rules search could not be opened: {why}. Reload the page.", { why: e.message })));
  if (name === "stats") import("./stats.js").then((m) => m.openStats(), (e) => banner(t("The stats could not be opened: {why}. Reload the page.", { why: e.message })));
  if (name === "settings") import("./settings.js").then((m) => m.openSettings(), (e) => banner(t("The settings could not be opened: {why}. Reload the page.", { why: e.message })));
  window.scrollTo(0, 0);
}
