// One widget per field kind, and the fields shown only for some choices.
import { $, nextId, el, human, labelOf, choiceList, t } from "./core.js";
import { readAll } from "./forms.js";

// A field with `shown_when` ({"version": ["Enhanced"]}) is drawn only while every named sibling holds one of
// the listed values (docs/api.md). Returns the function that re-checks; recheckOn wires it to a form.
// A field with `for_role` ("gm": Venus 2140's racks) is drawn only while the action's actor is not a seat of
// another role: `actorRole()` gives that role (undefined: not known, e.g. a table phone with no actor chosen).
// A sibling drawn as send buttons (`sends`) holds any value a button offers until one is pressed, so a field
// shown for one of them (a Game token's trump) is drawn beforehand; `sending(read)` reads the form as the pressed
// button leaves it (a trump goes only with the Game token).
export function shownWhen(fields, widgets, actorRole = () => undefined) {
  let pressed = false;
  const valueOf = (name) => {
    const i = fields.findIndex((f) => f.name === name);
    if (i < 0) return { absent: true };
    if (!pressed && widgets[i].offered) return { values: widgets[i].offered() };
    return { values: [valueIn(fields, widgets, i)] };
  };
  const holds = (when) => Object.entries(when).every(([name, allowed]) => {
    const got = valueOf(name);
    return got.absent || (Array.isArray(allowed) && got.values.some((v) => allowed.some((a) => JSON.stringify(a) === JSON.stringify(v))));
  });
  const update = () => {
    const role = actorRole();
    fields.forEach((f, i) => {
      if (!f.shown_when && !f.for_role) return;
      widgets[i].node.hidden = Boolean((f.shown_when && !holds(f.shown_when)) || (f.for_role && role !== undefined && role !== f.for_role));
    });
  };
  update();
  const recheck = () => update();
  recheck.sending = (read) => {
    pressed = true; update();
    try { return read(); } finally { pressed = false; update(); }
  };
  return recheck;
}
// A field's value as the form holds it now: a hidden field holds its default.
export function valueIn(fields, widgets, i) {
  if (widgets[i].node.hidden) return fields[i].default;
  try { return widgets[i].read(); } catch { return undefined; }
}
// A pick with `choices_by` ({"field": "player", "values": {"Jo": ["Game"], "Kim": []}}) offers only the values its
// sibling's value has now (the tokens Jo holds), and is not drawn at all when that is none (docs/api.md).
export function narrowed(fields, widgets) {
  const update = () => fields.forEach((f, i) => {
    if (!f.choices_by || !widgets[i].only) return;
    const j = fields.findIndex((g) => g.name === f.choices_by.field);
    const v = j < 0 ? undefined : valueIn(fields, widgets, j);
    const values = v === undefined || v === null || v === "" ? undefined : (f.choices_by.values || {})[String(v)];
    widgets[i].only(values);
    widgets[i].node.hidden = Array.isArray(values) && !widgets[i].offers();
  });
  update();
  return update;
}
// A pick with `differs_from` ("target" differs from "actor") never offers the value its sibling holds now:
// a seated phone's actor is its seat, so it is not offered as its own target (docs/api.md).
export function differs(fields, widgets) {
  const update = () => fields.forEach((f, i) => {
    const j = f.differs_from ? fields.findIndex((g) => g.name === f.differs_from) : -1;
    if (j < 0 || !widgets[i].hide) return;
    let v;
    if (widgets[j].node.hidden) v = fields[j].default; else { try { v = widgets[j].read(); } catch { v = undefined; } }
    widgets[i].hide(v === "" || v === null ? undefined : v);
  });
  update();
  return update;
}
export function recheckOn(node, update) { for (const kind of ["change", "input", "click"]) node.addEventListener(kind, update); }

export function fieldWidget(f) {
  const id = `f${nextId()}`;
  const label = labelOf(f);
  const help = f.help ? el("span", { class: "help" }, f.help) : null;
  const kinds = { count, pick, seat: pick, picks, text, texts, flag, faces, rows, json: loose };
  const w = (kinds[f.kind] || text)(f, id, label, help);
  if (!w.problem) { // where a problem found on sending is said (a number field says its own as it is typed)
    w.problem = el("p", { class: "field-error", role: "alert", hidden: true, "data-sent": "1" });
    w.node.append(w.problem);
    for (const kind of ["input", "change"]) w.node.addEventListener(kind, () => { w.problem.hidden = true; });
    w.node.addEventListener("click", (ev) => { if (ev.target.closest("button")) w.problem.hidden = true; });
  }
  return w;
}
// A free-form field from the first interface: drawn as names or rows from its default, never as JSON.
function loose(f, id, label, help) {
  const d = f.default;
  if (Array.isArray(d) && d.every((x) => typeof x === "string")) return texts({ ...f, kind: "texts" }, id, label, null);
  if (Array.isArray(d) && d.length && d.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
    const sub = Object.keys(d[0]).map((k) => ({ name: k, kind: typeof d[0][k] === "number" ? "count" : Array.isArray(d[0][k]) ? "texts" : "text", required: false }));
    return rows({ ...f, kind: "rows", fields: sub }, id, label, null);
  }
  return { node: el("span", { hidden: true }), read: () => undefined }; // optional, left at the rules' default
}
function need(f, label, v) {
  if ((v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) && f.required) throw new Error(t("{label}: please fill this in.", { label }));
}
// Numbers a person cannot get wrong: a small range is a row of values to tap; a stepper on an empty field starts
// from the field's value (or its minimum), a signed change from 0; a value out of range is refused here, in words.
function count(f, id, label, help) {
  const lo = f.minimum ?? undefined, hi = f.maximum ?? undefined;
  const signed = lo === undefined || lo < 0; // a change by some amount: empty is 0
  const clamp = (n) => Math.min(hi ?? Infinity, Math.max(lo ?? -Infinity, n));
  const input = el("input", { id, type: "number", inputmode: "numeric", step: "1", min: lo, max: hi, "aria-describedby": `${id}-e` });
  if (f.default !== undefined && f.default !== null) input.value = f.default;
  const problem = el("p", { class: "field-error", id: `${id}-e`, hidden: true });
  const exact = () => {
    const raw = input.value.trim();
    if (raw === "") return undefined;
    const n = Number(raw);
    if (Number.isNaN(n) || (Number.isFinite(n) && !Number.isInteger(n))) throw new Error(t("{label}: a whole number, please.", { label }));
    if ((lo !== undefined && n < lo) || (hi !== undefined && n > hi) || !Number.isFinite(n)) throw new Error(outOfRange(f, label, raw, n));
    return n;
  };
  const chips = [];
  const check = () => {
    let bad = "";
    try { exact(); } catch (e) { bad = e.message; }
    problem.textContent = bad; problem.hidden = !bad;
    if (bad) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    for (const c of chips) c.setAttribute("aria-pressed", String(input.value.trim() !== "" && Number(input.value) === Number(c.dataset.v)));
  };
  const set = (n) => { input.value = String(n); check(); };
  const bump = (d) => {
    const raw = input.value.trim();
    if (raw === "" || Number.isNaN(Number(raw))) set(signed ? clamp(d) : clamp(f.default ?? lo ?? 0));
    else set(clamp(Number(raw) + d));
  };
  input.addEventListener("input", check);
  const small = lo !== undefined && hi !== undefined && hi - lo <= 12;
  const values = [];
  if (small) for (let n = lo; n <= hi; n++) values.push(n);
  else if (signed) for (const n of [-3, -2, -1, 1, 2, 3]) { if (clamp(n) === n) values.push(n); }
  else for (let n = lo ?? 0; n <= Math.min(hi ?? Infinity, (lo ?? 0) + 5); n++) values.push(n);
  for (const n of values) {
    chips.push(el("button", { type: "button", class: "chip-n", "data-v": n, "aria-label": `${label}: ${n}`, "aria-pressed": "false", onclick: () => set(n) },
      signed && n > 0 ? `+${n}` : String(n)));
  }
  // A small range is said one way: its values to tap (the value is kept in the hidden box; a second way to type the
  // same number, "1 to 13" under the 13 buttons, only took the room of the questions under it).
  input.hidden = small;
  const node = el("div", { class: "field" }, small ? el("span", { class: "flabel", id: `${id}-l` }, label, help) : el("label", { for: id }, label, help),
    chips.length ? el("div", { class: small ? `chips all${values.length === 8 ? " eight" : ""}` : "chips", role: small ? "group" : undefined, "aria-labelledby": small ? `${id}-l` : undefined }, chips) : null,
    small ? input : el("div", { class: "stepper" }, el("button", { type: "button", "aria-label": t("{label}: one less", { label }), onclick: () => bump(-1) }, "−"),
      input, el("button", { type: "button", "aria-label": t("{label}: one more", { label }), onclick: () => bump(1) }, "+"),
      lo !== undefined || hi !== undefined ? el("span", { class: "hint" }, rangeText(f)) : null),
    problem);
  check();
  return {
    node, problem, read() {
      need(f, label, input.value.trim());
      return exact();
    },
  };
}
// Out of range, said with what was typed ("not 101"), never a number rounded from it: a long one is "too large".
const TYPED_ECHO = 12;
export function outOfRange(f, label, raw, n) {
  const range = f.minimum != null || f.maximum != null ? rangeText(f) : "";
  if (raw.length <= TYPED_ECHO) return range ? t("{label}: {range}, not {typed}.", { label, range, typed: raw }) : t("{label}: not {typed}.", { label, typed: raw });
  if (range) return n < 0 ? t("{label}: {range}; that number is too small.", { label, range }) : t("{label}: {range}; that number is too large.", { label, range });
  return n < 0 ? t("{label}: that number is too small.", { label }) : t("{label}: that number is too large.", { label });
}
function rangeText(f) {
  if (f.minimum != null && f.maximum != null) return t("{min} to {max}", { min: f.minimum, max: f.maximum });
  return f.minimum != null ? t("at least {min}", { min: f.minimum }) : t("at most {max}", { max: f.maximum });
}
// An optional pick's empty choice sends nothing (the rules decide); it reads as words, never "None". A setup
// option whose default is one of its choices has none: left alone, it is that default (Normal, Basic Game); nor
// has an action's pick that the table starts at one of its choices (VNM's target area: space, or the declared one).
// A function, not a constant: this module is evaluated before core.js (an import cycle), so t() is not there yet.
const notChosen = () => t("— not chosen —");
function blank(f, list) {
  return !f.required && !((f.setup || f.startsAt) && list.some((c) => f.default !== undefined && JSON.stringify(f.default) === JSON.stringify(c.value)));
}
function pick(f, id, label, help) {
  const list = choiceList(f);
  const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
  // What the form rules out: the value of a differs_from sibling (the actor as its own target), and
  // outside the values a choices_by sibling allows (the tokens this player holds); null allows all.
  let excluded, allowed = null;
  const offered = (i) => !(excluded !== undefined && same(excluded, list[i].value)) && (!allowed || allowed.some((v) => same(v, list[i].value)));
  let show = () => {};
  const limits = {
    hide(v) { excluded = v; show(); },
    only(values) { allowed = Array.isArray(values) ? values : null; show(); },
    offers: () => list.some((c, i) => offered(i)),
  };
  if (f.tap) { // one of the action's tap questions: a tap answers it (again: clears it), the last one sends
    let chosen = list.some((c) => f.default !== undefined && f.default !== "" && same(f.default, c.value)) ? f.default : undefined;
    const buttons = list.map((c) => el("button", { type: "button", "aria-pressed": String(chosen !== undefined && same(chosen, c.value)),
      onclick: () => {
        chosen = chosen !== undefined && same(chosen, c.value) ? undefined : c.value;
        buttons.forEach((b, i) => b.setAttribute("aria-pressed", String(chosen !== undefined && same(chosen, list[i].value))));
        f.tap();
      } }, c.label));
    show = () => buttons.forEach((b, i) => {
      b.hidden = !offered(i);
      if (b.hidden && chosen !== undefined && same(chosen, list[i].value)) { chosen = undefined; b.setAttribute("aria-pressed", "false"); }
    });
    return { ...limits, node: el("fieldset", { class: "choices field taps" }, el("legend", {}, label, help), buttons),
      chosen: () => chosen, read() { need(f, label, chosen); return chosen; } };
  }
  if (typeof f.sends === "function") { // the form's send buttons: the plain one leaves it unchosen, each other sends its choice
    let chosen;
    const answers = []; // what each asked question's button said (one at most is pressed)
    const press = (value, k, answer) => { chosen = value; answers.fill(undefined); if (k !== undefined) answers[k] = answer; f.sends(); };
    const plain = el("button", { type: "button", class: "primary", onclick: () => press(undefined) }, f.sendLabel);
    // "+ Bot" beside "Play a card" is what shows (the send row stays one line on a phone); the button's words are whole.
    const buttons = list.map((c) => el("button", { type: "button", class: "send-with", onclick: () => press(c.value) },
      el("span", { class: "vh" }, `${f.sendLabel} `), `+ ${c.label}`));
    // A sibling asked by one value (f.asks: a Game token's trump): a group of buttons that send that value with the answer.
    // The group is that field's widget: shown_when shows and hides it like any field.
    const asked = (f.asks || []).map((q, k) => {
      const v = list.find((c) => same(c.value, q.value));
      const head = `${f.sendLabel} + ${v ? v.label : q.value}, ${(q.field.label || human(q.field.name)).toLowerCase()}`;
      answers.push(undefined);
      const node = el("div", { class: "asks", role: "group", "aria-label": head }, el("p", {}, `${head}:`),
        choiceList(q.field).map((c) => el("button", { type: "button", class: "send-with", "aria-label": `${head} ${c.label}`,
          onclick: () => press(q.value, k, c.value) }, c.label)));
      return { node, value: q.value, read: () => answers[k] };
    });
    // `ready`: the form's other questions are answered. Till then the groups wait, folded, and the plain buttons stand
    // (sending says what is missing); then a value's plain button gives way to its group while the group is shown (the
    // rules need the answer: a Game token's trump); a group not shown (the token played only to block) leaves it.
    const node = el("span", { class: "sends", role: "group", "aria-label": label }, plain, buttons, asked.map((q) => q.node));
    let ready = true;
    const tidy = (now = ready) => {
      ready = now;
      node.classList.toggle("waiting", !ready);
      buttons.forEach((b, i) => {
        b.hidden = !offered(i) || (ready && asked.some((q) => !q.node.hidden && same(q.value, list[i].value)));
      });
    };
    show = () => tidy();
    return { ...limits, offers: () => true, offered: () => list.filter((c, i) => offered(i)).map((c) => c.value), asked, tidy,
      node, read: () => chosen };
  }
  if (f.quick) { // the form's last open question: each choice sends it
    let chosen;
    const buttons = list.map((c) => el("button", { type: "button", class: "primary", onclick: () => { chosen = c.value; f.quick(); } }, c.label));
    const box = el("fieldset", { class: "choices field quick" }, el("legend", {}, label, help), buttons);
    show = () => buttons.forEach((b, i) => { b.hidden = !offered(i); });
    return { ...limits, node: box, read() { need(f, label, chosen); return chosen; } };
  }
  if (list.length && list.length <= 6 && list.every((c) => c.label.length <= 22)) {
    const box = el("fieldset", { class: "choices field" }, el("legend", {}, label, help));
    const inputs = list.map((c, i) => {
      const input = el("input", { type: "radio", name: id, value: String(i) });
      if (f.default !== undefined && same(f.default, c.value)) input.checked = true;
      box.append(el("label", {}, input, c.label));
      return input;
    });
    let none = null;
    if (blank(f, list)) { // a choice made by mistake is cleared with one tap
      none = el("input", { type: "radio", name: id, value: "" });
      if (!inputs.some((x) => x.checked)) none.checked = true;
      box.append(el("label", { class: "unset" }, none, notChosen()));
    }
    if (list.length === 1 && f.required) inputs[0].checked = true;
    show = () => { // a choice the form rules out is not offered; one left of a required pick is chosen
      inputs.forEach((x, i) => {
        x.parentNode.hidden = !offered(i);
        if (x.parentNode.hidden) x.checked = false;
      });
      if (none && !inputs.some((x) => x.checked)) none.checked = true;
      const left = inputs.filter((x) => !x.parentNode.hidden);
      if (f.required && left.length === 1) left[0].checked = true;
    };
    return {
      ...limits, node: box, read() {
        const i = inputs.findIndex((x) => x.checked);
        need(f, label, i < 0 ? undefined : list[i].value);
        return i < 0 ? undefined : list[i].value;
      },
    };
  }
  const select = el("select", { id }, f.required || blank(f, list) ? el("option", { value: "" }, f.required ? t("Choose…") : notChosen()) : null,
    list.map((c, i) => el("option", { value: String(i) }, c.label)));
  const first = select.options.length - list.length; // 1 with the empty choice, else 0
  const d = list.findIndex((c) => f.default !== undefined && same(f.default, c.value));
  if (d >= 0) select.value = String(d);
  if (!list.length) select.append(el("option", { value: "", disabled: true }, t("nothing to choose right now")));
  show = () => list.forEach((c, i) => {
    const option = select.options[i + first];
    option.hidden = option.disabled = !offered(i);
    if (option.disabled && select.value === String(i)) select.value = "";
  });
  return {
    ...limits,
    node: el("div", { class: "field" }, el("label", { for: id }, label, help), select),
    read() { const v = select.value === "" ? undefined : list[Number(select.value)].value; need(f, label, v); return v; },
  };
}
function picks(f, id, label, help) {
  const list = choiceList(f);
  const box = el("fieldset", { class: "choices field", "data-min": f.minimum ?? undefined },
    el("legend", {}, label, f.minimum && f.minimum === f.maximum ? ` ${t("(choose {count})", { count: f.minimum })}` : "", help));
  const inputs = list.map((c) => {
    const input = el("input", { type: "checkbox" });
    if (Array.isArray(f.default) && f.default.some((d) => JSON.stringify(d) === JSON.stringify(c.value))) input.checked = true;
    box.append(el("label", {}, input, c.label));
    return input;
  });
  return {
    node: box, read() {
      const v = list.filter((_, i) => inputs[i].checked).map((c) => c.value);
      if (f.minimum !== undefined && v.length < f.minimum) throw new Error(t("{label}: choose at least {count}.", { label, count: f.minimum }));
      if (f.maximum !== undefined && v.length > f.maximum) throw new Error(t("{label}: choose at most {count}.", { label, count: f.maximum }));
      return v.length || f.required ? v : undefined;
    },
  };
}
function text(f, id, label, help) {
  const input = el("input", { id, type: "text", maxlength: f.max_length || 60, autocomplete: "off", placeholder: f.placeholder,
    // a person's name: a player's ("1", the names seen go there first) or another role's (the GM, a Commander)
    "data-person": f.people ? "1" : f.setup && ["gm", "commander"].includes(f.name) ? "role" : undefined });
  if (typeof f.default === "string") input.value = f.default;
  return {
    node: el("div", { class: "field" }, el("label", { for: id }, label, help), input),
    read() { const v = input.value.trim(); need(f, label, v); return v === "" ? undefined : v; },
  };
}
// A players' list's "Add a player" button, marked for the names seen (games.js): it adds a row for a name tapped
// with every row full, up to the game's most players.
const addsPerson = (players, f) => (players ? { "data-add-person": "1", "data-max": f.maximum || undefined } : {});
// "Add a player", "Add an effect": the article is English's, so each is its own phrase to translate.
const addOne = (noun) => (/^[aeiou]/i.test(noun) ? t("Add an {item}", { item: noun }) : t("Add a {item}", { item: noun }));
// "Land areas" -> "Land area", "Tokens played" -> "Token played": the last word, else the first, is the noun.
function singular(label) {
  const one = (w) => w.replace(/(ie)?s$/i, (m, ie) => (ie ? "y" : ""));
  const words = label.split(" ");
  const at = /s$/i.test(words[words.length - 1]) ? words.length - 1 : /s$/i.test(words[0]) ? 0 : -1;
  if (at >= 0) words[at] = one(words[at]);
  return words.join(" ");
}
function texts(f, id, label, help) {
  const list = el("div");
  const one = singular(label);
  const items = [];
  const names = f.name === "players"; // example names are hints, never values someone has to delete
  const add = (value) => {
    const n = items.length + 1;
    const iid = `${id}-${n}`;
    const input = el("input", { id: iid, type: "text", maxlength: f.max_length || 60, autocomplete: "off",
      placeholder: names && value ? value : undefined, "data-person": names ? "1" : undefined });
    input.value = names ? "" : value || "";
    const row = el("div", { class: "list-row" }, el("div", { class: "cells" }, el("label", { for: iid, class: "help" }, `${one} ${n}`), input),
      el("button", { type: "button", "aria-label": t("Remove {item} {n}", { item: one, n }), onclick: () => { row.remove(); items.splice(items.indexOf(input), 1); } }, "✕"));
    items.push(input); list.append(row);
  };
  const start = Array.isArray(f.default) ? f.default : [];
  start.forEach((v) => add(v));
  while (items.length < Math.max(1, f.minimum || 0)) add("");
  const node = el("fieldset", { class: "field" }, el("legend", {}, label, help), list,
    el("button", { type: "button", ...addsPerson(names, f), onclick: () => { add(""); items[items.length - 1].focus(); } }, addOne(one.toLowerCase())));
  return {
    node, read() {
      const v = items.map((i) => i.value.trim()).filter(Boolean);
      need(f, label, v);
      if (f.minimum !== undefined && v.length < f.minimum) throw new Error(t("{label}: at least {count}.", { label, count: f.minimum }));
      if (f.maximum !== undefined && v.length > f.maximum) throw new Error(t("{label}: at most {count}.", { label, count: f.maximum }));
      return v.length ? v : undefined;
    },
  };
}
function flag(f, id, label, help) {
  const input = el("input", { id, type: "checkbox" });
  input.checked = Boolean(f.default);
  return { node: el("div", { class: "field" }, el("label", { class: "switch", for: id }, input, label), help), read: () => input.checked };
}
// A seat's own dice (a Venus 2140 scene pool) are tapped as they are: the dice chosen are the faces sent.
function poolDice(f, id, label, help) {
  const picked = new Set(f.required && f.offer.length === 1 ? [0] : []); // the only die: nothing else to choose
  const dice = f.offer.map((face, i) => el("button", { type: "button", class: "die", "aria-pressed": String(picked.has(i)),
    "aria-label": t("Die {n} showing {face}", { n: i + 1, face }), onclick: (ev) => {
      if (picked.has(i)) picked.delete(i); else picked.add(i);
      ev.currentTarget.setAttribute("aria-pressed", String(picked.has(i)));
    } }, String(face)));
  return {
    node: el("fieldset", { class: "field" }, el("legend", {}, t("{label} from your pool", { label }), help), el("div", { class: "tapped pool" }, dice)),
    read() { const v = [...picked].sort((x, y) => x - y).map((i) => f.offer[i]); need(f, label, v); return v.length ? v : undefined; },
  };
}
function faces(f, id, label, help) {
  if (Array.isArray(f.offer) && f.offer.length && !$("by-hand").checked) return poolDice(f, id, label, help);
  const sides = f.sides || 6;
  const tapped = [];
  const shown = el("div", { class: "tapped", "aria-live": "polite" });
  const redraw = () => {
    shown.replaceChildren(...tapped.map((x, i) => el("button", { type: "button", class: "die", "aria-label": t("Remove die {n} showing {face}", { n: i + 1, face: x }),
      onclick: () => { tapped.splice(i, 1); redraw(); } }, String(x))));
    if (!tapped.length) shown.append(el("span", { class: "hint" }, t("Tap a face for each die, in the order rolled.")));
  };
  (Array.isArray(f.default) ? f.default : []).forEach((x) => tapped.push(x));
  const pad = el("div", { class: "dicepad" });
  for (let n = 1; n <= sides; n++) pad.append(el("button", { type: "button", "aria-label": t("Add a {n}", { n }), onclick: () => { tapped.push(n); redraw(); } }, String(n)));
  redraw();
  return {
    node: el("fieldset", { class: "field" }, el("legend", {}, label, help), shown, pad),
    read() { need(f, label, tapped); return tapped.length ? tapped.slice() : f.required ? [] : undefined; },
  };
}
function rows(f, id, label, help) {
  const list = el("div");
  const items = [];
  const sub = f.fields || [];
  const noun = singular(label).split(" ").map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase())).join(" "); // "VENOM" stays
  const add = (value) => {
    // A player's example name is a hint to type over, never a value someone has to delete first.
    const hint = (sf) => f.name === "players" && sf.kind === "text" && value && typeof value[sf.name] === "string";
    const own = sub.map((sf) => (hint(sf) ? { ...sf, placeholder: value[sf.name] }
      : { ...sf, default: value && value[sf.name] !== undefined ? value[sf.name] : sf.default })); // this row's
    if (f.name === "players") own.forEach((sf) => { sf.people = sf.name === "name"; }); // a player's name: the names seen
    const ws = own.map((sf) => fieldWidget(sf));
    const item = { ws };
    // A row given its player (a trick, one row per player in lead order): the name heads the row, the
    // card is two taps, and the rarer extras (a token) fold away.
    const seatAt = sub.findIndex((sf) => sf.kind === "seat" && value && value[sf.name] !== undefined);
    // A choice the row's player has (a token they hold) is asked in the row, one tap (#36: it sat under a closed
    // "Token (optional)", 11 taps for a trick of four with one token); only flags and words fold away.
    const folded = seatAt < 0 ? [] : sub.map((sf, i) => i).filter((i) => i !== seatAt && !sub[i].required && !["pick", "seat"].includes(sub[i].kind));
    if (seatAt >= 0) ws[seatAt].node.hidden = true;
    const shown = ws.filter((w, i) => !folded.includes(i)).map((w) => w.node);
    const extras = folded.length ? el("details", { class: "more" }, el("summary", {}, t("{label} (optional)", { label: human(sub[folded[0]].label || sub[folded[0]].name) })),
      folded.map((i) => ws[i].node)) : null;
    const box = el("div", { class: seatAt >= 0 ? "rows-item seated" : "rows-item" }, seatAt >= 0 ? el("h4", {}, String(value[sub[seatAt].name])) : null,
      shown, extras,
      el("button", { type: "button", onclick: () => { box.remove(); items.splice(items.indexOf(item), 1); renumber(); } }, t("Remove this {item}", { item: noun })));
    item.box = box;
    recheckOn(box, narrowed(own, ws));
    recheckOn(box, shownWhen(own, ws));
    if (extras) { // nothing left to fold (the player holds no token): no optional Token fold either
      const fold = () => { extras.hidden = folded.every((i) => ws[i].node.hidden); };
      fold(); recheckOn(box, fold);
    }
    items.push(item); list.append(box); renumber();
  };
  const renumber = () => items.forEach((it, i) => it.box.setAttribute("aria-label", `${label} ${i + 1}`));
  const start = Array.isArray(f.default) ? f.default : [];
  start.forEach((v) => add(v));
  // Optional rows with no default start empty: the rules' own values apply unless someone adds one.
  if (f.required) while (items.length < (f.minimum || 1)) add(null);
  const node = el("fieldset", { class: "field" }, el("legend", {}, label, help), list,
    el("button", { type: "button", ...addsPerson(f.name === "players", f), onclick: () => add(null) }, addOne(noun)));
  return {
    node, read() {
      if (!items.length && !f.required) return undefined;
      const v = items.map((it) => readAll(sub, it.ws));
      if (f.minimum !== undefined && v.length < f.minimum) throw new Error(t("{label}: at least {count}.", { label, count: f.minimum }));
      if (f.maximum !== undefined && v.length > f.maximum) throw new Error(t("{label}: at most {count}.", { label, count: f.maximum }));
      need(f, label, v);
      return v;
    },
  };
}
