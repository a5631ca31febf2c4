// The shutdown question on every phone (#32): while the chord's question is open, each joined phone shows it with
// Confirm, which switches the table off at once (no wait for the e-paper, which may not show it in time at all).
// Loaded the first time a question opens: most game nights never ask one.
import { $, el, t, api, banner } from "./core.js";

function dialog() {
  let d = $("shutdown-ask");
  if (d) return d;
  d = el("dialog", { id: "shutdown-ask", role: "alertdialog", "aria-labelledby": "shutdown-title", "aria-describedby": "shutdown-text" },
    el("h2", { id: "shutdown-title" }), el("div", { id: "shutdown-text" }),
    el("div", { class: "row" },
      el("button", { type: "button", id: "shutdown-no", onclick: () => d.close() }, t("Not on this phone")),
      el("button", { type: "button", id: "shutdown-yes", class: "primary" }, t("Confirm: switch off"))));
  document.body.append(d);
  $("shutdown-yes").addEventListener("click", async () => {
    const id = Number(d.dataset.id);
    $("shutdown-yes").disabled = true;
    try {
      await api("POST", "/api/prompt/confirm", { id });
    } catch (e) { // lapsed, answered on the device, or refused (a simulated table): nothing happened, said so
      d.close();
      banner(e.message, "error");
    }
  });
  return d;
}

// The prompt the table sends (its "prompt" event): an open shutdown question is asked, "Shutting down" is said
// without a button, and no prompt (lapsed, cancelled) closes the dialog.
export function showPrompt(prompt) {
  const d = $("shutdown-ask");
  if (!prompt || prompt.kind !== "shutdown") { if (d && d.open) d.close(); return; }
  const box = dialog();
  $("shutdown-title").textContent = prompt.title;
  $("shutdown-text").replaceChildren(...prompt.lines.map((line) => el("p", {}, line)));
  const open = prompt.id !== undefined;
  box.dataset.id = open ? String(prompt.id) : "";
  $("shutdown-yes").hidden = !open;
  $("shutdown-yes").disabled = false;
  $("shutdown-no").textContent = open ? t("Not on this phone") : t("Close");
  if (!box.open) box.showModal();
}
