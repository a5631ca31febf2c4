// Tableside phone panel: shows the active game, sends actions, follows the SSE stream.
"use strict";
const $ = (id) => document.getElementById(id);
let systems = [];
let current = null;

async function api(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: `unreadable answer (${res.status})` }));
  if (res.status === 401) { location.href = "/join"; throw new Error("join code needed"); }
  if (!res.ok) throw new Error(data.error || `failed (${res.status})`);
  return data;
}

function say(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function run(fn) {
  try { say(""); await fn(); } catch (err) { say(err.message); }
}

function systemOf(id) { return systems.find((s) => s.id === id); }

function showScreen(view) {
  const screen = view.screen;
  $("title").textContent = screen.title;
  $("status").textContent = screen.status;
  $("alert").hidden = !screen.alert;
  $("alert").textContent = screen.alert || "";
  const box = $("sections");
  box.replaceChildren();
  for (const section of screen.sections) {
    box.append(el("h2", {}, section.title));
    const table = el("table", { class: "rows" });
    for (const row of section.rows) {
      const tr = el("tr", row.accent ? { class: "accent" } : {});
      tr.append(el("td", {}, row.label), el("td", { class: "value" }, row.value));
      table.append(tr);
    }
    box.append(table);
  }
  const roll = $("roll");
  roll.hidden = !screen.roll;
  roll.replaceChildren();
  if (screen.roll) {
    roll.append(el("h2", {}, `${screen.roll.label}${screen.roll.verdict ? ": " + screen.roll.verdict : ""}`));
    screen.roll.faces.forEach((f, i) => roll.append(el("span", { class: screen.roll.hits[i] ? "die hit" : "die" }, String(f))));
  }
  $("undo").disabled = !view.can_undo;
  $("redo").disabled = !view.can_redo;
  $("version").textContent = `version ${view.version}`;
}

function showButtons(system) {
  const box = $("buttons");
  box.replaceChildren();
  for (const b of system.buttons) {
    const button = el("button", { "data-button": b.button, "data-hold": String(b.hold) },
      `${b.hold ? "Hold " : ""}${b.button}: ${b.label}`);
    button.addEventListener("click", () => run(async () => {
      await api("POST", `/api/buttons/${b.button}`, { hold: b.hold });
      await refresh();
    }));
    box.append(button);
  }
}

function fieldInput(field, prefix) {
  const id = `${prefix}-${field.name}`;
  const wrap = el("div");
  wrap.append(el("label", { for: id }, `${field.name}${field.required ? "" : " (optional)"}${field.help ? " — " + field.help : ""}`));
  let input;
  if (field.choices && !field.kind.startsWith("list")) {
    input = el("select", { id });
    if (!field.required) input.append(el("option", { value: "" }, ""));
    for (const c of field.choices) input.append(el("option", { value: JSON.stringify(c) }, String(c)));
    if (field.default !== undefined) input.value = JSON.stringify(field.default);
  } else if (field.kind === "bool") {
    input = el("input", { id, type: "checkbox" });
    input.checked = Boolean(field.default);
  } else {
    const type = field.kind === "int" || field.kind === "float" ? "number" : "text";
    input = el("input", { id, type });
    if (field.kind === "list" || field.kind === "dict") {
      input.placeholder = "JSON";
      if (field.default !== undefined) input.value = JSON.stringify(field.default);
    } else if (field.default !== undefined && field.default !== null) {
      input.value = Array.isArray(field.default) ? field.default.join(", ") : field.default;
    }
    if (field.kind.startsWith("list[")) input.placeholder = "comma separated";
  }
  input.dataset.kind = field.kind;
  input.dataset.name = field.name;
  wrap.append(input);
  return wrap;
}

function readFields(box) {
  const out = {};
  for (const input of box.querySelectorAll("[data-name]")) {
    const kind = input.dataset.kind;
    if (kind === "bool") { out[input.dataset.name] = input.checked; continue; }
    const raw = input.value.trim();
    if (raw === "") continue;
    if (input.tagName === "SELECT") out[input.dataset.name] = JSON.parse(raw);
    else if (kind === "int") out[input.dataset.name] = Number(raw);
    else if (kind === "float") out[input.dataset.name] = Number(raw);
    else if (kind === "list[str]") out[input.dataset.name] = raw.split(",").map((s) => s.trim()).filter(Boolean);
    else if (kind === "list[int]") out[input.dataset.name] = raw.split(",").map((s) => Number(s.trim()));
    else if (kind === "list" || kind === "dict") {
      try { out[input.dataset.name] = JSON.parse(raw); } catch { throw new Error(`${input.dataset.name}: not valid JSON`); }
    } else out[input.dataset.name] = raw;
  }
  return out;
}

function showActionForm(system) {
  const select = $("action-type");
  const keep = select.value;
  select.replaceChildren(...system.actions.map((a) => el("option", { value: a.type }, a.type)));
  if (system.actions.some((a) => a.type === keep)) select.value = keep;
  fillActionFields(system);
}

function fillActionFields(system) {
  const action = system.actions.find((a) => a.type === $("action-type").value);
  const box = $("action-fields");
  box.replaceChildren();
  if (!action) return;
  $("action-doc").textContent = action.doc;
  for (const f of action.fields) box.append(fieldInput(f, "act"));
  if (action.rolls_dice) box.append(fieldInput({ name: "faces", kind: "list[int]", required: false, help: "a physical roll, typed in" }, "act"));
}

function showLog(entries) {
  const list = $("log");
  list.replaceChildren();
  for (const e of entries.slice().reverse()) {
    const li = el("li", {}, `${e.result && e.result.summary ? e.result.summary : e.type} `);
    li.append(el("span", { class: "src" }, `#${e.seq} · ${e.source}`));
    list.append(li);
  }
}

async function showSessions() {
  const list = $("sessions");
  list.replaceChildren();
  for (const s of await api("GET", "/api/sessions")) {
    const li = el("li", {}, `${s.name} (${s.system}, version ${s.version}) `);
    if (!s.active) {
      const b = el("button", {}, "Play this");
      b.addEventListener("click", () => run(async () => {
        await api("POST", "/api/sessions/active/activate", { id: s.id });
        await refresh();
      }));
      li.append(b);
    } else li.append(el("strong", {}, "playing"));
    list.append(li);
  }
}

async function refresh() {
  let view = null;
  try { view = await api("GET", "/api/sessions/active"); } catch (err) { view = null; }
  $("game").hidden = !view;
  $("no-game").hidden = Boolean(view);
  $("new-game-box").open = !view;
  if (view) {
    const system = systemOf(view.system);
    if (!current || current.system !== view.system || current.id !== view.id) {
      showButtons(system);
      showActionForm(system);
    }
    current = view;
    showScreen(view);
    showLog(await api("GET", "/api/sessions/active/log"));
  }
  $("frame").src = `/display.png?v=${view ? view.version : 0}-${Date.now()}`;
  await showSessions();
}

function showOptions() {
  const system = systemOf($("system").value);
  const box = $("option-fields");
  box.replaceChildren(...system.options.map((o) => fieldInput(o, "opt")));
}

function follow() {
  const source = new EventSource("/api/stream");
  source.addEventListener("hello", () => { $("link").textContent = "live"; });
  source.addEventListener("change", () => refresh());
  source.addEventListener("session", () => { current = null; refresh(); });
  // A physical button press the rules refused: say why on every phone.
  source.addEventListener("rejected", (ev) => say(JSON.parse(ev.data).message));
  source.onerror = () => { $("link").textContent = "reconnecting…"; };
}

async function start() {
  systems = await api("GET", "/api/systems");
  $("system").replaceChildren(...systems.map((s) => el("option", { value: s.id }, s.name)));
  $("system").addEventListener("change", showOptions);
  showOptions();
  $("action-type").addEventListener("change", () => fillActionFields(systemOf(current.system)));
  $("new-game").addEventListener("submit", (ev) => { ev.preventDefault(); run(async () => {
    await api("POST", "/api/sessions", { system: $("system").value, options: readFields($("option-fields")) });
    current = null;
    await refresh();
  }); });
  $("action-form").addEventListener("submit", (ev) => { ev.preventDefault(); run(async () => {
    const body = { type: $("action-type").value, ...readFields($("action-fields")) };
    if (current) body.expected_version = current.version;
    await api("POST", "/api/sessions/active/actions", body);
    await refresh();
  }); });
  $("undo").addEventListener("click", () => run(async () => { await api("POST", "/api/sessions/active/undo", {}); await refresh(); }));
  $("redo").addEventListener("click", () => run(async () => { await api("POST", "/api/sessions/active/redo", {}); await refresh(); }));
  await refresh();
  follow();
}

run(start);
