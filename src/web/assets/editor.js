// The rule editor of `rulebook serve`: a rule file as text, checked by the
// server as it is typed (the same diagnostics as `rulebook check`), and
// "play this" to start a game of the edited text.
"use strict";
let timer = null;
let lastErrors = 0;

async function loadList() {
  const r = await api("GET", "/api/games");
  const sel = $("file");
  for (const g of r.data.games || []) {
    const o = document.createElement("option");
    o.value = g.name; o.textContent = g.name; sel.appendChild(o);
  }
  await open();
}

async function open() {
  const r = await api("GET", "/api/rules?name=" + encodeURIComponent($("file").value));
  if (!r.ok) { $("diagnostics").textContent = r.data.error; return; }
  $("text").value = r.data.text;
  const name = $("file").value;
  $("save-name").value = name.endsWith(".rules") ? name : name + ".rules";
  $("save-result").textContent = "";
  check();
}

function select(d) {
  // Selects the span of a diagnostic in the text area.
  const text = $("text").value;
  const lines = text.split("\n");
  const at = (line, col) => {
    let o = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) o += lines[i].length + 1;
    return o + col - 1;
  };
  const ta = $("text");
  ta.focus();
  ta.setSelectionRange(at(d.at.line, d.at.column), at(d.at.end_line, d.at.end_column));
}

async function check() {
  const r = await api("POST", "/api/check", { text: $("text").value, name: $("file").value });
  const box = $("diagnostics");
  box.innerHTML = "";
  if (!r.ok) { box.textContent = r.data.error; return; }
  lastErrors = r.data.errors;
  $("summary").textContent = r.data.errors + r.data.warnings === 0 ? "no problems" : `${r.data.errors} errors, ${r.data.warnings} warnings`;
  $("summary").className = r.data.errors ? "error" : "ok";
  for (const d of r.data.diagnostics) {
    const div = document.createElement("div");
    div.className = "diag";
    const where = d.at ? `${d.at.file}:${d.at.line}:${d.at.column}: ` : "";
    div.textContent = `${where}${d.severity}[${d.code}]: ${d.message}` + (d.hint ? `\nhelp: ${d.hint}` : "");
    if (d.at) div.addEventListener("click", () => select(d));
    box.appendChild(div);
  }
  if (r.data.rendered) {
    const pre = document.createElement("pre");
    pre.className = "diag";
    pre.textContent = r.data.rendered;
    box.appendChild(pre);
  }
  $("play").disabled = lastErrors > 0;
}

$("text").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 300); });
$("file").addEventListener("change", open);
$("play").addEventListener("click", () => {
  sessionStorage.setItem("play-text", $("text").value);
  location.href = "/?edited=1&game=" + encodeURIComponent($("file").value);
});
$("save").addEventListener("click", async () => {
  const r = await api("POST", "/api/save", { name: $("save-name").value, text: $("text").value });
  $("save-result").className = r.ok ? "ok" : "error";
  $("save-result").textContent = r.ok ? `saved ${r.data.saved} (${r.data.bytes} bytes)` : r.data.error;
});
loadList();
