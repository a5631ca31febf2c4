// Seats: taking, leaving and dropping this phone's seat; the confirmation box.
import { $, S, el, seatKey, mySeat, api, banner, guarded, t } from "./core.js";
import { said } from "./said.js";
import { refresh } from "./moment.js";
import { seatsNow, seatLabel } from "./board.js";
import { restream } from "./live.js";

// Seat changes one at a time (#17 F15): a stale seat dropped while a claim is out must not delete the new seat's
// cookie, nor a claim go out before a drop's answer is in.
function seatStep(fn) {
  const next = (S.seatOp || Promise.resolve()).then(fn, fn);
  S.seatOp = next.catch(() => null);
  return next;
}
async function leaveSeat() {
  const key = seatKey();
  if (key) localStorage.removeItem(key);
  await seatStep(() => fetch("/api/panel/seat", { method: "DELETE", credentials: "same-origin" }).catch(() => null));
}
// The table said this seat is gone: forget it here (only the entry that held that token) and its cookie, unless
// the cookie holds a seat in the game on the table by now (a claim that won the race keeps it).
export async function dropSeat(key, token) {
  let kept = null;
  try { kept = key && JSON.parse(localStorage.getItem(key) || "null"); } catch { kept = { token }; }
  if (kept && (!token || kept.token === token)) localStorage.removeItem(key);
  const headers = token ? { "X-Tableside-Seat": token } : {};
  await seatStep(() => fetch("/api/panel/seat?gone=1", { method: "DELETE", headers, credentials: "same-origin" }).catch(() => null));
}
// The table's word on this phone's seat, from the view it answered (#17 F10): a seat carried into a new game with
// the same name is kept (said once), and the seat shown is the one the table acts as, whatever was stored.
export function keepSeat(before, switched) {
  const key = seatKey(), kept = mySeat(), now = S.view.seat || null;
  if (now && !(kept && kept.seat === now)) {
    localStorage.setItem(key, JSON.stringify({ seat: now, token: before && before.seat === now ? before.token : null }));
    if (switched && before && before.seat === now) S.seatKept = now;
  } else if (!now && kept) { // held no more (taken over while this phone was away): said once, with its name
    localStorage.removeItem(key);
    if (!S.seatLeft) { S.seatLeft = seatLabel(kept.seat); S.saidAt = ""; }
  }
}
// The seat dialog says up front when a held seat frees (#18: only when its phone releases it, or after
// SEAT_GONE_AFTER away with no request and no stream), and counts down; the seat is offered once it has.
export async function openSeats() {
  const list = $("seat-list");
  const mine = mySeat();
  let seats = seatsNow(), goneAfter = 120;
  const got = await api("GET", "/api/sessions/active/seats").catch(() => null);
  if (got) { seats = got.seats; goneAfter = got.gone_after; }
  const asked = Date.now();
  const away = goneAfter % 60 ? `${goneAfter} seconds` : `${goneAfter / 60} minute${goneAfter === 60 ? "" : "s"}`;
  const choose = async (name, takeover = false, locked = false) => {
    const key = seatKey();
    if (!name) { await leaveSeat(); restream(); $("seat-dialog").close(); said(t("This phone shows the table view.")); await guarded(() => refresh(), t("Changing seat")); return; }
    // A PIN typed in the sheet is chosen for the seat claimed; a take-over of a seat with one asks for it (#33).
    let pin = takeover ? "" : $("seat-pin").value.trim();
    if (takeover) {
      const text = locked
        ? t("{name}'s phone has been away for {away}. Type {name}'s seat PIN to take the seat with its private dice and cards; without it this phone sits there but sees only what the table sees.", { name, away })
        : t("{name}'s phone has been away for {away}. It becomes a table phone; this one sits at {name}'s seat.", { name, away });
      if (!(await confirmBox(t("Take over {name}'s seat?", { name }), text, t("Take over"), locked))) return;
      if (locked) pin = $("confirm-pin").value.trim();
    }
    let res;
    const body = { seat: name, ...(takeover ? { takeover: true } : {}), ...(pin ? { pin } : {}) };
    try { res = await seatStep(() => api("POST", "/api/sessions/active/seats", body)); } catch (err) {
      banner(err.message, "error");
    }
    if (!res) return;
    // Kept for the game the seat is in (a new game may have started while the dialog was open).
    localStorage.setItem(res.session ? `tableside.seat.${res.session}` : key, JSON.stringify({ seat: res.seat, token: res.token }));
    restream(); // the stream is opened again with the seat's cookie: the table counts this phone as here
    S.open.clear();
    $("seat-dialog").close();
    $("seat-pin").value = "";
    said(res.public ? publicWords(res.seat) : t("This phone now sits at {seat}'s seat.", { seat: seatLabel(res.seat) }));
    await guarded(() => refresh(), t("Changing seat"));
  };
  const ticks = [];
  list.replaceChildren(el("button", { type: "button", class: !mine ? "primary" : "", onclick: () => choose(null) }, t("Table (a shared phone)")));
  for (const seat of seats) {
    const s = typeof seat === "string" ? { name: seat, role: "player" } : seat;
    const name = `${s.label || s.name}${s.role === "gm" ? " (game master)" : ""}`, who = s.label || s.name;
    const held = s.claimed && !(mine && mine.seat === s.name);
    if (!held) {
      list.append(el("button", { type: "button", class: mine && mine.seat === s.name ? "primary" : "", onclick: () => choose(s.name) }, name));
      continue;
    }
    const button = el("button", { type: "button", disabled: true, onclick: () => choose(s.name, true, !!s.pin) }, `${name} (taken)`);
    const note = el("p", { class: "hint seat-note" });
    const frees = s.frees_in === undefined || s.frees_in === null ? null : asked + s.frees_in * 1000;
    const tick = () => {
      const left = frees === null ? null : Math.max(0, Math.ceil((frees - Date.now()) / 1000));
      const free = left === 0;
      button.disabled = !free;
      button.textContent = free ? t("Take over {who}'s seat", { who }) : t("{name} (taken)", { name });
      const rule = `${who}'s phone holds this seat; it frees when ${who} releases it or after ${away} away.`;
      if (s.here || (frees === null && s.here === undefined)) note.textContent = `${rule}${s.here ? " That phone is here now." : ""}`;
      else if (free) note.textContent = `${who}'s phone has been away for ${away}: this phone may take the seat over.`;
      else {
        const at = new Date(frees).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
        note.textContent = `${rule} It frees at ${at} (in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}) unless that phone comes back.`;
      }
    };
    tick(); ticks.push(tick);
    list.append(el("div", { class: "seat-held" }, button, note));
  }
  clearInterval(S.seatTimer);
  S.seatTimer = ticks.length ? setInterval(() => ticks.forEach((t) => t()), 1000) : null;
  const dialog = $("seat-dialog");
  dialog.addEventListener("close", () => { clearInterval(S.seatTimer); S.seatTimer = null; }, { once: true });
  if (!dialog.open) { dialog.showModal(); list.querySelector("button").focus(); } // never the PIN's keyboard unasked
}

// What a phone seated without the seat's PIN is told (#33): it reads that seat as the table does.
export function publicWords(seat) {
  return t("Seated without the PIN: this phone sees what the table sees of {name}'s pool or hand.", { name: seatLabel(seat) });
}

export function confirmBox(title, textBody, yes, pin = false) {
  const d = $("confirm");
  $("confirm-pin-row").hidden = !pin; $("confirm-pin").value = "";
  $("confirm-title").textContent = title; $("confirm-text").textContent = textBody; $("confirm-yes").textContent = yes;
  d.returnValue = "";
  d.showModal();
  return new Promise((resolve) => d.addEventListener("close", () => resolve(d.returnValue === "yes"), { once: true }));
}
