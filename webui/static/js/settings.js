// The Settings page (#32): the config file's keys, for the table's owner only (a phone that gave the owner PIN
// once). Fetched when the tab is first opened (games.js showTab). A refusal is the config file's own message,
// shown under the form; a change saved says it takes effect at the restart, and offers it under systemd.
import { $, el, api, t } from "./core.js";

const CSS = `
#tab-settings label { display: block; margin: .6rem 0 .15rem; font-weight: 600; }
#tab-settings input, #tab-settings select { width: 100%; box-sizing: border-box; }
#tab-settings .pins { display: grid; grid-template-columns: repeat(4, 1fr); gap: .4rem; }
#tab-settings .pins label { margin: 0; font-weight: 400; }
#tab-settings .saved { color: var(--ok); }
#tab-settings p { overflow-wrap: anywhere; }
`;
const DICE = () => [["auto", t("On (Bluetooth, if this Pi has it)")], ["bluetooth", t("On: Bluetooth dice")],
  ["simulated", t("Simulated dice (testing)")], ["none", t("Off: no smart dice")]];

const field = (label, input) => el("div", {}, el("label", { for: input.id }, label), input);
const input = (id, value, attrs = {}) => el("input", { id, value: value ?? "", autocomplete: "off", ...attrs });

export async function openSettings() {
  const tab = $("tab-settings");
  if (!tab.dataset.ready) { tab.dataset.ready = "1"; document.head.append(el("style", {}, CSS)); }
  let got;
  try { got = await api("GET", "/api/settings"); } catch (err) {
    if (err.status === 403) return askPin(tab, err.message);
    tab.replaceChildren(el("h2", {}, t("Settings")), el("p", { class: "form-error", role: "alert" }, err.message));
    return;
  }
  draw(tab, got);
}

function askPin(tab, why, error = "") {
  const pin = input("owner-pin", "", { inputmode: "numeric", maxlength: "64", type: "password" });
  const err = el("p", { class: "form-error", role: "alert", hidden: !error }, error);
  const form = el("form", { onsubmit: async (ev) => {
    ev.preventDefault();
    try { await api("POST", "/api/settings/owner", { pin: pin.value }); } catch (e) { err.textContent = e.message; err.hidden = false; return; }
    openSettings();
  } }, field(t("Owner PIN"), pin), err, el("button", { type: "submit", class: "primary" }, t("Open the settings")));
  tab.replaceChildren(el("h2", {}, t("Settings")), el("p", { id: "settings-why", class: "hint" }, why.charAt(0).toUpperCase() + why.slice(1) + "."), form);
}

function draw(tab, got) {
  const v = got.values || {}, pins = v["buttons.pins"] || {};
  const defaults = { A: 5, B: 6, C: 16, D: 24 };
  const pinInputs = ["A", "B", "C", "D"].map((k) => input(`pin-${k}`, pins[k] ?? defaults[k], { inputmode: "numeric", maxlength: "3" }));
  const model = el("select", { id: "set-model" }, ["", ...(got.models || [])].map((p) => el("option", { value: p, selected: (v["display.model"] || "") === p }, p || t("Detect (a board with an EEPROM)"))));
  const dice = el("select", { id: "set-dice" }, DICE().map(([k, words]) => el("option", { value: k, selected: (v["dice.kind"] || "auto") === k }, words)));
  const led = input("set-led", v["led.pin"], { inputmode: "numeric", maxlength: "3", placeholder: t("none") });
  const interval = input("set-interval", v["display.min_interval"] ?? 10, { inputmode: "decimal", maxlength: "8" });
  const names = input("set-names", (v["server.names"] || []).join(", "), { maxlength: "400", placeholder: "games-table" });
  const code = input("set-code", got.join_code, { maxlength: "32", disabled: got.join_code_from_environment });
  const err = el("p", { id: "settings-error", class: "form-error", role: "alert", hidden: true });
  const ok = el("p", { id: "settings-said", class: "saved", role: "status" });
  const restart = el("button", { type: "button", hidden: true, onclick: async () => {
    try { ok.textContent = (await api("POST", "/api/settings/restart")).said; restart.hidden = true; } catch (e) { err.textContent = e.message; err.hidden = false; }
  } }, t("Restart now"));
  const number = (s) => (s.trim() === "" ? null : Number(s.trim()));
  // Only what was changed is sent: a key left alone is not written into the file.
  const read = () => ({
    "display.model": model.value, "display.min_interval": number(interval.value),
    "buttons.pins": Object.fromEntries(pinInputs.map((i, n) => [["A", "B", "C", "D"][n], number(i.value)])),
    "led.pin": number(led.value), "server.names": names.value.split(",").map((s) => s.trim()).filter(Boolean),
    "dice.kind": dice.value,
  });
  const form = el("form", { id: "settings-form", onsubmit: async (ev) => {
    ev.preventDefault();
    err.hidden = true; ok.textContent = "";
    const now = read();
    const changes = Object.fromEntries(Object.entries(now).filter(([k, x]) => JSON.stringify(x) !== JSON.stringify(first[k])));
    if (!got.join_code_from_environment && code.value.trim() !== got.join_code) changes.join_code = code.value;
    if (!Object.keys(changes).length) { ok.textContent = t("Nothing changed."); return; }
    let res;
    try { res = await api("POST", "/api/settings", { changes }); } catch (e) { err.textContent = e.message; err.hidden = false; return; }
    ok.textContent = res.said;
    Object.assign(first, now);
    if (changes.join_code) got.join_code = changes.join_code.trim();
    restart.hidden = !(res.restart_needed && res.can_restart);
  } },
  field(t("Board model (only for a board without an EEPROM)"), model),
  el("label", {}, t("Button pins (BCM GPIO)")), el("div", { class: "pins" }, pinInputs.map((i, n) => el("label", {}, ["A", "B", "C", "D"][n], i))),
  field(t("Status LED pin (empty: no LED)"), led),
  field(t("Seconds between e-paper refreshes"), interval),
  field(t("Join code"), code),
  field(t("Host names the panel answers to (comma between)"), names),
  field(t("Smart dice"), dice),
  err, el("button", { type: "submit", class: "primary" }, t("Save")), ok, restart);
  const first = read();
  tab.replaceChildren(el("h2", {}, t("Settings")),
    el("p", { class: "hint" }, got.config ? t("Saved to {file}, its comments kept. Every change takes effect at the next start.", { file: got.config })
      : t("This table runs without a config file: only the join code can be changed here.")),
    form);
}
