// The play page of `rulebook serve`. Every rule lives on the server: this
// script draws what the API answers (the SVG board, the legal moves with
// their paths) and sends what is clicked.
"use strict";
const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
let games = [];
let state = null;
let picked = []; // the squares clicked so far of the move being made
let busy = false;

async function api(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(url, init);
  let data = {};
  try { data = await r.json(); } catch (e) { data = { error: r.statusText }; }
  return { ok: r.ok, status: r.status, data };
}

async function loadGames() {
  const r = await api("GET", "/api/games");
  games = (r.data.games || []).filter((g) => g.kind === "board");
  const sel = $("game");
  sel.innerHTML = "";
  for (const g of games) {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = `${g.title} (${g.name})`;
    sel.appendChild(o);
  }
  const want = new URLSearchParams(location.search).get("game");
  if (want) sel.value = want;
  showGame();
}

function showGame() {
  const g = games.find((x) => x.name === $("game").value);
  if (!g) return;
  $("game-info").textContent = `${g.kind} game, ${g.players} players`;
  const opts = $("options");
  opts.innerHTML = "";
  for (const o of g.options) {
    const l = document.createElement("label");
    l.textContent = o.name + " ";
    const s = document.createElement("select");
    s.dataset.option = o.name;
    for (const v of o.values) {
      const e = document.createElement("option");
      e.value = v; e.textContent = v; s.appendChild(e);
    }
    l.appendChild(s); opts.appendChild(l);
  }
  const sides = $("side-choice");
  sides.innerHTML = "";
  for (let i = 0; i < g.max_players; i++) {
    const l = document.createElement("label");
    l.textContent = `Side ${i + 1} `;
    const s = document.createElement("select");
    s.dataset.side = i;
    for (const a of ["human", "random", "greedy", "mcts", "alphabeta"]) {
      const e = document.createElement("option");
      e.value = a; e.textContent = a; s.appendChild(e);
    }
    if (i === 1) s.value = "random";
    l.appendChild(s); sides.appendChild(l);
  }
}

async function start() {
  const body = { game: $("game").value, options: {}, sides: [] };
  for (const s of document.querySelectorAll("[data-option]")) body.options[s.dataset.option] = s.value;
  for (const s of document.querySelectorAll("[data-side]")) body.sides.push(s.value);
  if ($("playouts").value) body.playouts = Number($("playouts").value);
  if ($("depth").value) body.depth = Number($("depth").value);
  const text = sessionStorage.getItem("play-text");
  if (text !== null && new URLSearchParams(location.search).get("edited")) body.text = text;
  const r = await api("POST", "/api/games", body);
  if (!r.ok) {
    $("setup-error").textContent = r.data.error + (r.data.check ? "\n" + r.data.check.rendered : "");
    return;
  }
  $("setup").hidden = true;
  $("play").hidden = false;
  show(r.data);
}

function squareXY(name) {
  const q = state.squares.find((s) => s.name === name);
  if (!q) return null;
  const b = state.board;
  return { x: b.margin + q.file * b.cell, y: b.margin + (b.height - 1 - q.rank) * b.cell };
}

function mark(svg, name, cls) {
  const p = squareXY(name);
  if (!p) return;
  const r = document.createElementNS(SVGNS, "rect");
  r.setAttribute("x", p.x); r.setAttribute("y", p.y);
  r.setAttribute("width", state.board.cell); r.setAttribute("height", state.board.cell);
  r.setAttribute("class", cls);
  r.setAttribute("data-square", name);
  r.setAttribute("pointer-events", "none");
  svg.appendChild(r);
}

function squareAt(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const b = state.board;
  const file = Math.floor((p.x - b.margin) / b.cell);
  const rank = b.height - 1 - Math.floor((p.y - b.margin) / b.cell);
  const q = state.squares.find((s) => s.file === file && s.rank === rank);
  return q ? q.name : null;
}

const startsWith = (m, path) => path.every((s, i) => m.squares[i] === s);

function draw() {
  $("board").innerHTML = state.svg;
  const svg = $("board").querySelector("svg");
  if (state.last_move) {
    for (const s of state.last_move.squares) mark(svg, s, "mark-last");
    for (const s of state.last_move.captured) mark(svg, s, "mark-captured");
  }
  if (picked.length > 0) {
    mark(svg, picked[0], "mark-from");
    for (const s of picked.slice(1)) mark(svg, s, "mark-via");
    for (const m of state.legal.filter((m) => startsWith(m, picked))) {
      const next = m.squares[picked.length];
      const last = m.squares[m.squares.length - 1];
      if (next && next !== last) mark(svg, next, "mark-via");
      mark(svg, last, "mark-to");
    }
  }
  svg.addEventListener("click", (ev) => click(squareAt(svg, ev)));
}

async function send(text) {
  picked = [];
  const r = await api("POST", `/api/games/${state.id}/move`, { move: text });
  if (!r.ok) {
    $("message").textContent = r.data.error;
    draw();
    return;
  }
  $("message").textContent = "";
  show(r.data);
}

function click(name) {
  if (!name || !state.human_to_move || busy) return;
  $("message").textContent = "";
  const legal = state.legal;
  if (picked.length === 0) {
    if (legal.some((m) => m.squares[0] === name)) { picked = [name]; draw(); return; }
    // Not a piece that can move: ask the server why, as the prompt would.
    send(name);
    return;
  }
  if (name === picked[picked.length - 1] && picked.length === 1) { picked = []; draw(); return; }
  const here = legal.filter((m) => startsWith(m, picked));
  const ending = here.filter((m) => m.squares[m.squares.length - 1] === name);
  if (ending.length === 1) { send(ending[0].notation); return; }
  const through = here.filter((m) => m.squares[picked.length] === name);
  if (through.length > 0) {
    picked.push(name);
    const done = through.filter((m) => m.squares.length === picked.length);
    if (done.length === 1 && through.length === 1) { send(done[0].notation); return; }
    draw();
    return;
  }
  if (ending.length > 1) {
    $("message").textContent = "several captures end there: click the squares they land on in between";
    draw();
    return;
  }
  if (legal.some((m) => m.squares[0] === name)) { picked = [name]; draw(); return; }
  // An illegal attempt: the server explains it.
  send(picked.join("-") + "-" + name);
}

function show(s) {
  state = s;
  picked = [];
  $("title").textContent = s.title + (s.options.length ? " (" + s.options.join(", ") + ")" : "");
  const who = s.sides.map((x) => `${x.name}: ${x.agent}`).join(", ");
  $("status").textContent = s.result ? `Game over: ${s.result}. ${who}` : `${s.side_to_move} to move. ${who}`;
  const ol = $("moves");
  ol.innerHTML = "";
  s.moves.forEach((m) => { const li = document.createElement("li"); li.textContent = m; ol.appendChild(li); });
  $("events").textContent = s.events.join("; ");
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  $("record").href = `/api/games/${s.id}/record`;
  $("pdn").href = `/api/games/${s.id}/pdn`;
  history.replaceState(null, "", `?id=${s.id}`);
  draw();
  if (s.computer_to_move) setTimeout(computer, 250);
}

async function computer() {
  if (busy || !state || !state.computer_to_move) return;
  busy = true;
  $("message").textContent = "the computer is thinking…";
  const r = await api("POST", `/api/games/${state.id}/computer`);
  busy = false;
  if (!r.ok) { $("message").textContent = r.data.error; return; }
  $("message").textContent = "";
  show(r.data);
}

async function action(name) {
  const r = await api("POST", `/api/games/${state.id}/${name}`);
  if (!r.ok) { $("message").textContent = r.data.error; return; }
  if (name === "hint") {
    $("message").textContent = "hint: " + r.data.hint.notation;
    picked = [r.data.hint.squares[0]];
    draw();
    return;
  }
  $("message").textContent = "";
  show(r.data);
}

$("game").addEventListener("change", showGame);
$("start").addEventListener("click", start);
for (const b of ["undo", "redo", "hint", "resign"]) $(b).addEventListener("click", () => action(b));

(async () => {
  const id = new URLSearchParams(location.search).get("id");
  if (id) {
    const r = await api("GET", `/api/games/${id}`);
    if (r.ok) { $("setup").hidden = true; $("play").hidden = false; show(r.data); return; }
  }
  loadGames();
})();
