// An action's form: its questions in reach, then sent; smart dice and typed faces.
import { $, S, el, human, labelOf, choiceList, mySeat, api, banner, guarded, ruleLink, t } from "./core.js";
import { said, saidNow } from "./said.js";
import { refresh, changing, acting } from "./moment.js";
import { seatsNow, seatLabel } from "./board.js";
import { phonesOnly, tableMay, seatFor, quickField, asks, ownSeatField, closeSheet } from "./moves.js";
import { shownWhen, valueIn, narrowed, differs, recheckOn, fieldWidget } from "./fields.js";
import { confirmBox } from "./seats.js";

export function actionForm(a, close, big = false, kept = {}) {
  const who = seatFor(a);
  // A table phone makes a seat's own move only for a seat no phone holds: the seat field offers those alone, and
  // no blank (left out, it means whose move it is, whose phone may hold it).
  const here = !mySeat() && phonesOnly(a) ? tableMay(a, (S.acts && S.acts.pending) || []) : null;
  const drawn = (a.fields || []).map((f) => {
    if (here && f.name === a.seat_field) {
      const choices = choiceList(f).filter((c) => here.includes(c.value));
      // (no "default: whose move it is" under it: nothing is left out here)
      return { ...f, choices, required: true, default: here.includes(who) ? who : here[0], help: "" };
    }
    const canBe = (f.kind === "seat" || f.kind === "pick") && who !== undefined && choiceList(f).some((c) => c.value === who);
    // A pick is the phone's own seat only where the action says so (a.seat_field): "Settle the tie: Player" names anyone;
    // one played for a seat (of_seats: VNM's "Played for") starts at this phone's own seat's choice.
    const own = mySeat() && f.of_seats && f.default === undefined ? f.of_seats[mySeat().seat] : undefined;
    if (own !== undefined) return { ...f, default: own };
    return canBe && f.default === undefined && ownSeatField(a, f) ? { ...f, default: who } : f;
  });
  const fields = drawn.map((f, i) => {
    const server = (a.fields || [])[i]; // the table's own start (not one entered, nor the seat) leaves no blank choice
    const g = f.kind === "pick" && server.default !== undefined && server.default !== "" ? { ...f, startsAt: true } : f;
    return kept && Object.hasOwn(kept, f.name) ? { ...g, default: kept[f.name] } : g;
  });
  const quick = ($("by-hand").checked && a.rolls_dice) || (fields[0] && (a.taps || []).includes(fields[0].name)) ? -1 : quickField(fields);
  const err = el("p", { class: "form-error", role: "alert", hidden: true });
  const dice = { box: el("div"), pad: null };
  const go = el("button", { type: "submit", class: "primary" }, a.label || human(a.type));
  let form;
  // The action's tap questions (a.taps: a Leader card, then its Zone): buttons, one tap each; the form sends
  // itself once every one is answered. Answered in part, the form still sends with its button.
  const taps = (a.taps || []).map((n) => fields.findIndex((f) => f.name === n)).filter((i) => i >= 0 && i !== quick);
  const answered = () => taps.length > 0 && taps.every((i) => widgets[i].chosen() !== undefined);
  // A field that `sends` (a card's token) is drawn as the send buttons themselves: "Play a card", "Play a card + Bot".
  const sendsAt = fields.findIndex((f, i) => f.sends === true && f.kind === "pick" && !f.required && i !== quick && !taps.includes(i));
  // A pick shown for just one value of those buttons (a Game token's trump) is what that value asks: its choices are
  // that value's send buttons ("Play a card + Game, trump to:" No Trump, Team, ...), so it costs no tap of its own.
  const asked = sendsAt < 0 ? [] : fields.map((f, i) => i).filter((i) => i !== quick && !taps.includes(i) && asks(fields[sendsAt], fields[i]));
  const widgets = fields.map((f, i) => (asked.includes(i) ? null : fieldWidget(i === quick ? { ...f, quick: () => form.requestSubmit() }
    : taps.includes(i) ? { ...f, tap: () => nextTap() }
    : i === sendsAt ? { ...f, sends: () => form.requestSubmit(), sendLabel: a.label || human(a.type),
      asks: asked.map((j) => ({ field: fields[j], value: fields[j].shown_when[f.name][0] })) } : f)));
  asked.forEach((j, k) => { widgets[j] = widgets[sendsAt].asked[k]; });
  widgets.forEach((w, i) => { w.node.dataset.field = fields[i].name; }); // a form drawn anew takes its values over by name
  function nextTap() { // all answered: send; else the next question comes into reach, clear of the send button
    // A seat that may play a token with it (a Vegas card tapped from the hand) sends with the send buttons instead:
    // "Play a card" or "Play a card + Game" is the second tap.
    if (answered() && sendsAt >= 0 && widgets[sendsAt].offered().length) { tidy(); return; }
    if (answered()) { form.requestSubmit(); return; }
    const next = taps.find((i) => widgets[i].chosen() === undefined);
    if (next !== undefined) widgets[next].node.scrollIntoView({ block: "center", behavior: "instant" });
  }
  // A seated phone acts as its seat: "who does it" is said by the seat, not asked again (still sent).
  const mine = mySeat();
  fields.forEach((f, i) => {
    if (mine && f.default === mine.seat && ownSeatField(a, a.fields[i]) && !f.shown_when) widgets[i].node.hidden = true;
  });
  // Notes for the log (optional words) fold away under "More", so the send button stays on the first screen.
  // A required last choice comes after the values it sends with, and is the send; an optional one (a Leader
  // entered before, a target) stays first, and the form can still be sent with the values typed instead.
  const sends = quick >= 0 && fields[quick].required;
  // So do the rare switches of a form that one tap sends ("Discarded at once by a card effect" beside the
  // Event card drawn): the choice is the first thing under its button.
  // A switch that changes what a send button does, shown only with those buttons' values (a token played "Only to
  // block"), folds away too: rare, and the send buttons stay close under the questions.
  const alters = (f) => sendsAt >= 0 && f.kind === "flag" && f.shown_when && Object.keys(f.shown_when).every((k) => k === fields[sendsAt].name);
  const note = (f) => big && !f.required && (["text", "texts"].includes(f.kind) || (sends && f.kind === "flag" && !f.shown_when) || alters(f));
  const order = widgets.map((w, i) => i).filter((i) => (i !== quick || !sends) && i !== sendsAt && !asked.includes(i) && !note(fields[i]));
  if (sends) order.push(quick);
  const notes = fields.map((f, i) => i).filter((i) => i !== quick && note(fields[i]));
  const more = notes.length ? el("details", { class: "more" }, el("summary", {}, t("More: {fields}", { fields: notes.map((i) => labelOf(fields[i])).join(", ") })),
    notes.map((i) => widgets[i].node)) : null;
  form = el("form", { novalidate: true, class: quick >= 0 ? "quick-form" : undefined }, a.doc && !big ? el("p", { class: "hint doc" }, a.doc) : null,
    order.map((i) => widgets[i].node), more, dice.box, err,
    el("div", { class: "submit-row" }, el("button", { type: "button", onclick: close }, t("Cancel")),
      sends ? null : sendsAt >= 0 ? widgets[sendsAt].node : go));
  // The actor's seat role, for fields meant for one role (the GM's racks): the seat field's value, else the seat
  // the form is for (this phone's, or whose move it is).
  const actorRole = () => {
    const j = a.seat_field ? fields.findIndex((f) => f.name === a.seat_field) : -1;
    let who = j < 0 ? undefined : valueIn(fields, widgets, j);
    if (who === undefined || who === null || who === "") who = seatFor(a);
    const s = seatsNow().find((x) => x.name === who);
    return s ? s.role : undefined;
  };
  recheckOn(form, narrowed(fields, widgets));
  const shownNow = shownWhen(fields, widgets, actorRole);
  recheckOn(form, shownNow);
  recheckOn(form, differs(fields, widgets));
  // After the fields above are drawn or hidden: a value's question comes up once the questions above are answered
  // (till then the send buttons take one line, clear of them), and "More" shows only while something in it is.
  // A required question on the form not yet answered (the card's suit or number).
  const open = (i) => {
    if (!fields[i].required || widgets[i].node.hidden) return false;
    try { const v = widgets[i].read(); return v === undefined || v === ""; } catch { return true; }
  };
  let ready = false;
  const tidy = () => {
    const was = ready;
    ready = !order.some(open);
    if (sendsAt >= 0) widgets[sendsAt].tidy(ready);
    if (more) more.hidden = notes.every((i) => widgets[i].node.hidden);
    // The last answer brings a value's question into the send row (a Game token's trump): the row grows, so the
    // form's end comes into view instead, the row resting under the questions rather than over the card chosen.
    if (sendsAt >= 0 && ready && !was && form.isConnected && widgets[sendsAt].asked.some((q) => !q.node.hidden)) {
      requestAnimationFrame(() => {
        if (form.getBoundingClientRect().bottom > innerHeight) form.scrollIntoView({ block: "end", behavior: "instant" });
      });
    }
  };
  tidy();
  recheckOn(form, tidy);
  // The send buttons stick to the screen's bottom over the form's end: an answer brings the next open question
  // into reach above them (scrolled only as far as needed), as the tap questions do.
  if (sendsAt >= 0) form.addEventListener("click", (ev) => setTimeout(() => reach(ev.target)));
  function reach(target) {
    const at = order.findIndex((i) => widgets[i].node.contains(target));
    if (at < 0 || open(order[at])) return;
    const next = order.slice(at + 1).find(open);
    if (next === undefined) return;
    const row = form.querySelector(".submit-row");
    widgets[next].node.style.scrollMarginBottom = `${row.offsetHeight + 8}px`;
    widgets[next].node.scrollIntoView({ block: "nearest", behavior: "instant" });
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    showErr("");
    let body;
    try { body = shownNow.sending(() => readAll(fields, widgets)); } catch (e) { showErr(e.message, e.widget); return; }
    if (dice.pad) body.faces = dice.pad.read();
    else if ($("by-hand").checked && (a.rolls_dice || a.rolls)) body.faces = [];
    send(a, body, { showErr, refused, close, dice }, go);
  });
  // Each problem is said once, next to what it is about: a field's under that field, the form's above its send.
  function showErr(text, widget, retry, rule) {
    unsay(form);
    if (sayAt(widget, text, rule)) { err.hidden = true; return; }
    sayForm(err, text, retry, rule);
  }
  // A refusal from the rules names the field by its key ("area: China has only 27 ..."): said at that field.
  function refused(message, rule) {
    const m = /^([a-z_]+): /.exec(message || "");
    const i = m ? fields.findIndex((f) => f.name === m[1]) : -1;
    showErr(labelled(a, message), i >= 0 ? widgets[i] : undefined, undefined, rule);
  }
  // What someone entered: each shown field whose value reads and differs from what the form was drawn with.
  const entered = () => Object.fromEntries(fields.flatMap((f, i) => {
    if (widgets[i].node.hidden) return [];
    let v;
    try { v = widgets[i].read(); } catch { return []; }
    return v === undefined || JSON.stringify(v) === JSON.stringify(drawn[i].default) ? [] : [[f.name, v]];
  }));
  return { node: form, entered };
}
// A field's problem, under the field (opening a fold it sits in): false when the field is not on screen.
export function sayAt(w, text, rule) {
  if (!w || !text || !w.problem) return false;
  for (let d = w.node.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
  if (!w.node.getClientRects().length) return false; // hidden (this phone's own seat): said for the form
  w.problem.textContent = text; w.problem.hidden = false;
  if (rule) w.problem.append(" ", ruleLink(rule)); // the passage it rests on, one tap away (#35)
  w.node.scrollIntoView({ block: "center", behavior: "instant" });
  return true;
}
export function unsay(box) { box.querySelectorAll(".field-error[data-sent]").forEach((p) => { p.hidden = true; }); }
// The form's own problem (no field to say it at: the table away, someone else's change first), with a retry.
export function sayForm(err, text, retry, rule) {
  err.replaceChildren(text || "");
  if (text && rule) err.append(" ", ruleLink(rule));
  if (text && retry) err.append(" ", el("button", { type: "button", onclick: () => { err.hidden = true; retry(); } }, t("Retry")));
  err.hidden = !text;
  if (!text) return;
  // Where the phone sees it: above the form's sticky send row and below the sticky header, never under either.
  const row = err.closest("form") && err.closest("form").querySelector(".submit-row");
  err.style.scrollMarginBottom = `${(row ? row.offsetHeight : 0) + 8}px`;
  err.style.scrollMarginTop = `${document.querySelector("header.top").getBoundingClientRect().height + 8}px`;
  err.scrollIntoView({ block: "nearest", behavior: "instant" });
}

export function readAll(fields, widgets) {
  const out = {};
  fields.forEach((f, i) => {
    // Not shown (shown_when, another seat role's field, nothing to choose): left out, so the system's default applies.
    if ((f.shown_when || f.for_role || f.choices_by) && widgets[i].node.hidden) return;
    let v;
    try { v = widgets[i].read(); } catch (e) { e.widget = e.widget || widgets[i]; throw e; } // the innermost field
    if (v !== undefined) out[f.name] = v;
  });
  return out;
}

// The rules name the field a refusal is about by its key ("area: China has only 27 ..."): said with
// the label the form shows ("Land area: China has only 27 ...").
function labelled(a, message) {
  const m = /^([a-z_]+): /.exec(message || "");
  const f = m && (a.fields || []).find((x) => x.name === m[1]);
  return f ? `${labelOf(f)}: ${message.slice(m[0].length)}` : message;
}
// The GM's seat (Venus 2140) runs the table: its phone acts for anyone and in any turn, as a table phone does.
export function runsTable() {
  const mine = mySeat();
  return Boolean(mine) && (seatsNow().find((s) => s.name === mine.seat) || {}).role === "gm";
}
// A seated phone acting in another seat's turn (or for another seat) asks first.
async function othersTurn(a, body) {
  const mine = mySeat();
  if (!mine || runsTable()) return true;
  const what = a.label || human(a.type), me = seatLabel(mine.seat);
  // Every seat's state at once (a follow-up conflict): said with whom it changes, asked first.
  if (a.every_seat) {
    const all = seatsNow().map((x) => x.label || x.name).join(", ");
    return confirmBox(t("{action}: every seat", { action: what }), t("{doc} This changes {seats}. Send it from {me}'s phone?", { doc: a.doc || what, seats: all, me }),
      t("Yes, for everyone"));
  }
  // Played for another seat (of_seats: a Zap card played for Cy's planet from Ann's phone): asked first, naming them.
  const f = (a.fields || []).find((x) => x.of_seats && body[x.name] !== undefined && body[x.name] !== x.of_seats[mine.seat]);
  const owner = f && Object.keys(f.of_seats).find((k) => f.of_seats[k] === body[f.name]);
  if (f) {
    const them = owner ? seatLabel(owner) : (choiceList(f).find((c) => c.value === body[f.name]) || {}).label || body[f.name];
    return confirmBox(t("For {them}?", { them }), t("This phone sits at {me}'s seat. {action} for {them}?", { me, action: what, them }), t("Yes, for {them}", { them }));
  }
  const answering = ((S.acts && S.acts.pending) || []).filter((p) => [p.type, ...(p.also || [])].includes(a.type) && p.seat);
  const seats = [...new Set(answering.map((p) => p.seat))];
  const forSeat = [body.player, body.actor, body.participant, body.seat].find((x) => typeof x === "string");
  if (forSeat === mine.seat) {
    // Its own move in its turn, one no prompt waits for, or one the moment waits for from several seats at once
    // (each seat draws its own pool: no one seat's turn): sent. Out of turn (the moment names one other seat for
    // it, and the rules may take it: Venus 2140's exchange), it asks first.
    if (!seats.length || seats.includes(mine.seat) || seats.length > 1) return true;
    const them = seatLabel(seats[0]);
    return confirmBox(t("{them}'s move", { them }), t("It is {them}'s move. {action} as {me} anyway?", { them, action: what, me }), t("Yes, as {me}", { me }));
  }
  const other = forSeat && seats.includes(forSeat) ? forSeat : seats.length && !seats.includes(mine.seat) ? seats[0] : null;
  if (!other) return true;
  const them = seatLabel(other);
  return confirmBox(t("{them}'s move", { them }), t("This phone sits at {me}'s seat. {action} for {them}?", { me: seatLabel(mine.seat), action: what, them }),
    t("Yes, for {them}", { them }));
}
export async function send(a, body, form, button) {
  const expected = S.view.version;
  if (!(await othersTurn(a, body))) return;
  if (button) button.disabled = true;
  await acting(async () => { try {
    const res = await changing("/api/sessions/active/actions", { type: a.type, ...body, expected_version: expected });
    saidNow(res.result || { summary: t("Done: {action}", { action: a.label || human(a.type) }) });
    banner("");
    if (form) form.close();
    closeSheet(); // sent from All actions: the phone shows the moment the change made
    window.scrollTo(0, 0);
    if (!S.view || res.version !== S.view.version) await res.drawn();
  } catch (err) {
    if (err.kind === "stale") {
      const msg = t("Someone changed this first. The table now shows their change: check it, then send again.");
      if (form) form.showErr(msg); else banner(msg, "error");
      await guarded(() => refresh());
    } else if (err.kind === "offline" || err.kind === "server") {
      const again = () => send(a, body, form, button);
      if (form) form.showErr(t("{why} Your entries are kept.", { why: err.message }), undefined, again); // said once, in the form
      else banner(err.message, "error", again);
    } else if (form && err.data && err.data.needs_dice) {
      showDicePad(form.dice, err.data.needs_dice, body.faces || []);
      form.showErr(t("Roll these dice and tap the faces, in the order rolled."));
      offerSmartDice(form.dice, a, body);
    } else if (form) form.refused(err.message, err.data.rule);
    else banner(labelled(a, err.message), "error", null, false, err.data.rule);
  } finally { if (button) button.disabled = false; } });
}

// What the smart dice are filling, on the game tab's last-change line (the dice page has the detail).
export async function showDice() {
  const st = await api("GET", "/api/dice");
  const w = st.waiting;
  const text = w ? `${w.text}${w.faces.length ? ": " + w.faces.map((f) => `${f.name} ${f.face}`).join(", ") : ""}` : st.message;
  if (text && text !== S.diceSaid) said(text);
  S.diceSaid = text;
}

// Smart dice in the hardware line: each paired die's connection and battery (docs/smart-dice.md).
export function diceNote(sd) {
  if (!sd || !sd.dice.length) return "";
  return ` ${t("Smart dice: {dice}.", { dice: sd.dice.map((d) => `${d.label} ${d.connection}${d.battery === null ? "" : ` ${d.battery}%`}`).join(", ") })}`;
}

// Smart dice (docs/smart-dice.md): the same roll, filled die by die by paired dice on the dice page.
async function offerSmartDice(dice, a, body) {
  const st = await api("GET", "/api/dice").catch(() => null);
  if (!st || st.kind === "none" || !st.dice.some((d) => d.paired)) return;
  const go = document.createElement("button");
  go.type = "button"; go.textContent = t("Roll with smart dice");
  go.onclick = () => guarded(async () => {
    const { faces, ...fields } = body;
    await api("POST", "/api/dice/wait", { action: { type: a.type, ...fields } });
    location.href = "/dice";
  }, t("Smart dice"));
  dice.box.append(go);
}

function showDicePad(dice, needs, given) {
  const sides = Math.max(...needs.map((n) => { const m = /d(\d+)/i.exec(n.expr || ""); return m ? Number(m[1]) : 6; }));
  const f = { name: "faces", label: t("Dice to roll: {dice}", { dice: needs.map((n) => t("{expr} for {what}", { expr: n.expr, what: n.shown || n.label })).join(", ") }), kind: "faces", sides, default: given };
  dice.pad = fieldWidget(f);
  dice.box.replaceChildren(dice.pad.node);
}
