// The rulebooks on the phone (#35): the Rules tab searches the four books (GET /api/rules/search), the book of the
// game on the table and its phase's rules first. Fetched only when the tab is first opened (games.js showTab).
// The passages come as parts, each word found marked: drawn as text nodes and <mark>, never as HTML.
import { $, el, api, t } from "./core.js";

let asked = 0; // the newest search: an older answer that lands late is not drawn over it

function parts(list) {
  return list.map((p) => (p.mark ? el("mark", {}, p.text) : document.createTextNode(p.text)));
}

function passage(r) {
  return el("li", { class: "rule" },
    el("p", { class: "rule-place" }, el("b", {}, r.title), // before a book's first heading, its title is the heading
      ...(r.heading === r.title ? [] : [" · ", ...parts(r.heading_parts)]), ` · ${t("line {line}", { line: r.line })}`),
    el("p", { class: "rule-text" }, ...parts(r.parts)));
}

async function find(query) {
  const mine = ++asked, note = $("rules-note"), list = $("rules-found");
  note.textContent = t("Searching…");
  try {
    const found = await api("GET", `/api/rules/search?q=${encodeURIComponent(query)}`);
    if (mine !== asked) return;
    list.replaceChildren(...found.results.map(passage));
    note.textContent = found.results.length === 1 ? t("1 passage")
      : found.results.length ? t("{count} passages, best first", { count: found.results.length }) : t("Nothing in the rulebooks for “{query}”", { query });
  } catch (err) {
    if (mine !== asked) return;
    list.replaceChildren();
    note.textContent = err.message;
  }
}

export function openRules() {
  const tab = $("tab-rules");
  if (tab.dataset.ready) return;
  tab.dataset.ready = "1";
  const input = el("input", { id: "rules-q", type: "search", maxlength: "100", autocomplete: "off", enterkeyhint: "search" });
  tab.replaceChildren(
    el("h2", {}, t("Rulebooks")),
    el("form", { id: "rules-search", role: "search", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) find(input.value); } },
      el("label", { for: "rules-q" }, t("Search the rulebooks")),
      el("div", { class: "row" }, input, el("button", { type: "submit", class: "primary" }, t("Search")))),
    el("p", { id: "rules-note", class: "hint", role: "status" }, t("Words in quotes are found as a phrase. The game on the table comes first.")),
    el("ol", { id: "rules-found", class: "rules-found" }));
}

// Why, one tap away (#35): the passage a refusal rests on, from its 422 body (book, heading, line, the paragraph
// with the quoted sentence marked), in a dialog; or, where the book leaves it to the table, the setting that holds it.
// A prompt's rule comes as its key alone ("vnm:attack", the moment stays small): its passage is asked for here.
export async function showRule(rule) {
  if (typeof rule === "string") rule = await api("GET", `/api/rules/ref/${encodeURIComponent(rule)}`);
  let box = $("rule-dialog");
  if (!box) {
    box = el("dialog", { id: "rule-dialog", class: "rule-dialog", "aria-labelledby": "rule-title" });
    document.body.append(box);
  }
  const own = rule.own_choice;
  const place = own ? rule.title : [rule.title, ...(rule.heading === rule.title ? [] : [rule.heading]), ...(rule.line ? [t("line {line}", { line: rule.line })] : [])].join(" · ");
  box.replaceChildren(el("form", { method: "dialog" },
    el("h2", { id: "rule-title" }, own ? t("The table's own choice") : t("The rule")),
    el("p", { class: "rule-place" }, place),
    own ? el("p", { class: "rule-text" }, rule.note)
      : el("blockquote", { class: "rule-text" }, ...parts(rule.parts || [{ text: rule.quote, mark: true }])),
    own && rule.setting ? el("p", { class: "hint" }, t("Set at New game: {setting}.", { setting: rule.setting })) : null,
    el("div", { class: "row" }, el("button", { type: "submit", class: "primary" }, t("Close")))));
  box.showModal();
  const marked = box.querySelector("mark");
  if (marked) marked.scrollIntoView({ block: "nearest" });
}
