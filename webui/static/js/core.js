// The page's state, the small helpers every part uses (S, $, el, human words, times) and talking to the
// table: one JSON request, its failures in words, the refusal banner.
import { refresh } from "./moment.js";
import { seatLabel } from "./board.js";
import { dropSeat } from "./seats.js";

// The panel's words in the phone's language (#38): the page embeds only this phone's catalog (webui/i18n.py, empty
// for English, whose msgids are the words), and t() looks a msgid up and fills its {name} placeholders. Here, not
// a module of its own, so the first load makes one request fewer.
const wordsNode = document.getElementById("words");
const words = wordsNode ? JSON.parse(wordsNode.textContent) : {};
export const t = (msgid, params = {}) =>
  (words[msgid] || msgid).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));

export const $ = (id) => document.getElementById(id);
export const S = {
  systems: [], view: null, acts: null, log: [], gaps: [], lastSeq: 0, session: null, tab: "game",
  open: new Map(), // action type -> its open form widget, kept across live updates
  down: false, started: false, retry: null, wake: null, frameTag: null,
};
let uid = 0;
export function nextId() { uid += 1; return uid; } // ids for labels and inputs, unique on the page
export const LOG_PAGE = 40; // log entries a phone reads when it opens a game; older ones on request

// Who made a change no seat made (core/table.py SOURCES), in the same words on the last-change line and in the
// History timeline.
export const SOURCE_WORDS = { button: "a table button", phone: "a table phone", cli: "the command line", api: "a script (the HTTP API)", dice: "the smart dice" };

export function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== undefined && kid !== null) node.append(kid);
  return node;
}
// Never show snake_case: a label the API forgot still reads as words.
export function human(x) {
  if (x === null || x === undefined) return "";
  const s = String(x);
  if (!/[_]/.test(s) && !/^[a-z]+[A-Z]/.test(s)) return s;
  const t = s.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}
export const labelOf = (f) => f.label || human(f.name);
export const lowerFirst = (s) => s.charAt(0).toLowerCase() + s.slice(1);
export const choiceList = (f) => (f.choices || []).map((c) => (c !== null && typeof c === "object" && "value" in c
  ? { value: c.value, label: human(c.label ?? c.value) } : { value: c, label: human(c) }));
export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : d.toLocaleString([], { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

class Failure extends Error {
  constructor(kind, message, status, data) { super(message); this.kind = kind; this.status = status; this.data = data || {}; }
}
export function seatKey() { return S.view ? `tableside.seat.${S.view.id}` : null; }
export function mySeat() {
  const key = seatKey();
  try { return key ? JSON.parse(localStorage.getItem(key) || "null") : null; } catch { return null; }
}
export async function api(method, path, body, again = false) {
  const headers = { Accept: "application/json" };
  const seat = mySeat(), key = seatKey();
  if (seat && seat.token) headers["X-Tableside-Seat"] = seat.token;
  // GETs revalidate: an unchanged answer comes back as a 304 with no body.
  const opts = { method, headers, credentials: "same-origin", cache: method === "GET" ? "no-cache" : "no-store" };
  if (body !== undefined) { headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let res;
  S.inflight = (S.inflight || 0) + 1;
  try { res = await fetch(path, opts); } catch {
    throw new Failure("offline", t("Could not reach the table: check the Wi-Fi, or whether the table is switched on."), 0);
  } finally { S.inflight -= 1; }
  if (res.status === 401) { location.href = "/join"; throw new Failure("auth", t("Join code needed"), 401); }
  const data = await res.json().catch(() => null);
  if (res.status === 409 && data && data.seat_gone) { // the seat it held was taken over, or is a game's gone by
    // Never a dead end (#17 F14): a phone reopened after a new game still sends the old game's seat cookie.
    // It drops that seat by itself, shows the table view, and says so once on its last-change line.
    const label = seat ? seatLabel(seat.seat) : data.seat;
    await dropSeat(key, headers["X-Tableside-Seat"]);
    if (label) { S.seatLeft = label; S.saidAt = ""; }
    if (method === "GET" && !again) return api(method, path, body, true);
    if (method !== "GET") guarded(() => refresh(), t("Updating"));
    throw new Failure("stale", t("This phone no longer sits at {seat}'s seat: it shows the table view now. Nothing was changed.", { seat: label || t("a") }), 409, data);
  }
  if (!res.ok) {
    const msg = (data && data.error) || t("The table answered with an error ({status}).", { status: res.status });
    throw new Failure(res.status === 409 ? "stale" : res.status >= 500 ? "server" : "refused", msg, res.status, data);
  }
  return data;
}
export function banner(text, kind = "info", retry = null, fromTable = false, rule = null) {
  S.retry = retry; S.tableBanner = fromTable && !!text; // a button's refusal: every phone's, until the next change
  S.bannerRule = text ? rule : null; // the passage a refusal rests on (#35): its "Rule" button opens it
  $("banner-text").textContent = text || "";
  $("banner").className = `banner ${kind}`;
  $("banner").hidden = !text;
  $("banner-retry").hidden = !retry;
  $("banner-rule").hidden = !S.bannerRule;
}
// Why, one tap away (#35): a refusal's rule (its 422 body's "rule") or a prompt's (its key) opens in a dialog;
// rules.js is fetched then.
export function showRule(rule) {
  import("./rules.js").then((m) => m.showRule(rule)).catch((e) => banner(t("The rule could not be shown: {why}", { why: e.message }), "error"));
}
export const ruleLink = (rule) => el("button", { type: "button", class: "rule-link", onclick: () => showRule(rule) }, t("Rule"));
export function setLink(text, cls) { $("link").textContent = text; $("link").className = `link ${cls || ""}`; }
// Run a change; a failed request keeps what is shown and offers to try again.
export async function guarded(fn, what) {
  try { return await fn(); } catch (err) {
    if (err.kind === "offline" || err.kind === "server") banner(`${what ? what + ": " : ""}${err.message}`, "error", () => guarded(fn, what));
    else banner(err.message, "error", null, false, err.data.rule);
    return undefined;
  }
}
