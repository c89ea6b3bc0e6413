// The play page of `rulebook serve`. Every rule lives on the server: this
// script draws what the API answers (the SVG board, the legal moves with
// their paths) and sends what is clicked.
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
let games = [];
let state = null;
let picked = []; // the squares clicked so far of the move being made
let busy = false;

async function loadGames() {
  const r = await api("GET", "/api/games");
  games = (r.data.games || []).filter((g) => g.kind);
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
  const players = $("players");
  players.innerHTML = "";
  for (let n = g.min_players; n <= g.max_players; n++) {
    const e = document.createElement("option");
    e.value = n; e.textContent = n; players.appendChild(e);
  }
  $("players-label").hidden = g.min_players === g.max_players;
  players.onchange = () => seats(g);
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
  seats(g);
}

// One choice of player per side (board) or seat (race), named as the rule
// file names them.
function seats(g) {
  const n = Number($("players").value) || g.min_players;
  const agents = g.agents;
  const sides = $("side-choice");
  sides.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const l = document.createElement("label");
    l.textContent = `${(g.sides && g.sides[i]) || "Side " + (i + 1)} `;
    const s = document.createElement("select");
    s.dataset.side = i;
    for (const a of agents) {
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
  if ($("seed").value) body.seed = Number($("seed").value);
  const g = games.find((x) => x.name === body.game);
  if (g && g.kind === "race") body.players = Number($("players").value);
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
  listen(r.data.id);
}

// The game's event stream: each new state, the computer's moves among
// them, arrives without asking.
let stream = null;
function listen(id) {
  if (stream) stream.close();
  stream = new EventSource(`/api/games/${id}/events`);
  stream.addEventListener("state", (e) => {
    // The state already shown (the answer to a click came first) is not
    // drawn again.
    if (state && JSON.stringify(state) === e.data) return;
    show(JSON.parse(e.data));
  });
  stream.addEventListener("problem", (e) => { $("message").textContent = e.data; });
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
  // A transparent target over each square: what a click (or a test's
  // WebDriver click) lands on.
  for (const q of state.squares) {
    const p = squareXY(q.name);
    const r = document.createElementNS(SVGNS, "rect");
    r.setAttribute("x", p.x); r.setAttribute("y", p.y);
    r.setAttribute("width", state.board.cell); r.setAttribute("height", state.board.cell);
    r.setAttribute("class", "hit");
    r.setAttribute("data-square", q.name);
    r.addEventListener("click", () => click(q.name));
    svg.appendChild(r);
  }
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
  // States come from answers and from the event stream, not always in
  // order: an older one never replaces a newer one.
  if (state && state.id === s.id && s.version < state.version) return;
  if (s.kind === "race") { showRace(s); return; }
  state = s;
  picked = [];
  $("board").hidden = false; $("race").hidden = true;
  $("resign").hidden = false; $("race-controls").hidden = true;
  // Who is to act, for people and for the browser tests.
  document.body.dataset.turn = s.result ? "over" : s.human_to_move ? "human" : "computer";
  document.body.dataset.ply = s.moves.length;
  $("title").textContent = s.title + (s.options.length ? " (" + s.options.join(", ") + ")" : "");
  const who = s.sides.map((x) => `${x.name}: ${x.agent}`).join(", ");
  $("status").textContent = s.result ? `Game over: ${s.result}. ${who}` : `${s.side_to_move} to move. ${who}`;
  const ol = $("moves");
  ol.innerHTML = "";
  // Numbered as players number them: `1. 22-18 9-13`, a move a line.
  for (const line of s.move_list) {
    const li = document.createElement("li");
    const m = /^(\d+)\.\s+(.*)$/.exec(line);
    if (m) { li.value = Number(m[1]); li.textContent = m[2]; } else li.textContent = line;
    ol.appendChild(li);
  }
  $("events").textContent = s.events.join("; ");
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  $("hint").disabled = !s.human_to_move;
  $("record").href = `/api/games/${s.id}/record`;
  $("pdn").href = `/api/games/${s.id}/pdn`;
  $("pdn-link").hidden = false;
  history.replaceState(null, "", `?id=${s.id}`);
  draw();
  if (s.computer_to_move) $("message").textContent = "the computer is thinking…";
  else if ($("message").textContent.startsWith("the computer")) $("message").textContent = "";
}

// A race game: the track, the dice, the choices as buttons, the turns.
function showRace(s) {
  state = s;
  $("board").hidden = true; $("race").hidden = false;
  $("resign").hidden = true; $("race-controls").hidden = false;
  document.body.dataset.turn = s.result ? "over" : s.human_to_roll ? "roll" : s.human_to_choose ? "choose" : "computer";
  document.body.dataset.ply = s.turns.length ? s.turns[s.turns.length - 1].number : 0;
  $("title").textContent = s.title + (s.options.length ? " (" + s.options.join(", ") + ")" : "");
  // Each seat's name on its pieces' colour, as on the track.
  const seat = (i) => {
    const x = s.seats[i];
    return x ? `<span class="seat" style="background:${esc(x.colour)};color:${esc(x.ink)}">${esc(x.name)}</span>` : "";
  };
  const who = s.seats.map((x, i) => `${seat(i)}: ${esc(x.agent)}`).join(", ");
  $("status").innerHTML = (s.result ? `Game over: ${esc(s.result)}. ` : `${seat(s.to_roll)} to ${s.human_to_choose ? "choose" : "roll"}. `) + who;
  drawTrack(s);
  $("positions").textContent = s.positions;
  $("seed-shown").textContent = `dice: ${s.dice} × d${s.faces}, seed ${s.seed}`;
  $("roll").disabled = !s.human_to_roll;
  $("dice").textContent = s.rolled ? "rolled " + s.rolled.join(" ") : "";
  const box = $("choices");
  box.innerHTML = "";
  if (s.human_to_choose) {
    for (const c of s.choices) {
      const b = document.createElement("button");
      b.className = "choice";
      b.dataset.choice = c.text;
      b.textContent = c.says;
      b.addEventListener("click", () => choose(c.text));
      // Pointing at a button lights its cells on the track.
      b.addEventListener("mouseenter", () => focusChoice(c.text, true));
      b.addEventListener("mouseleave", () => focusChoice(c.text, false));
      box.appendChild(b);
    }
  }
  const ol = $("moves");
  ol.innerHTML = "";
  for (const t of s.turns) {
    const li = document.createElement("li");
    li.value = t.number;
    const c = s.seats[t.seat];
    if (c) li.style.borderLeft = `6px solid ${c.colour}`;
    li.textContent = `${t.player} rolls ${t.dice.join(" ")}: ${t.choice}` + (t.events.length ? " — " + t.events.join("; ") : "");
    if (t.events.some((e) => /again|miss/i.test(e))) li.classList.add("notable");
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
  const last = s.turns[s.turns.length - 1];
  $("events").textContent = last ? `${last.player}: ${last.events.join("; ")}` : "";
  // Missed turns and extra rolls, in words, apart from the other events.
  $("notes").textContent = last ? last.notes.join(". ") : "";
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  $("hint").disabled = !s.human_to_choose;
  $("record").href = `/api/games/${s.id}/record`;
  $("pdn-link").hidden = true;
  history.replaceState(null, "", `?id=${s.id}`);
  if (s.computer_to_move) $("message").textContent = "the computer is playing…";
  else if ($("message").textContent.startsWith("the computer")) $("message").textContent = "";
}

// The track as the server draws it (`show --svg`'s picture); while the
// person chooses, the cells each choice moves from (dashed) and to (green)
// are outlined, and a click on one plays the choice: a piece's cell plays
// its move, a cell only reached by one choice plays that one.
function drawTrack(s) {
  const box = $("track-svg");
  box.innerHTML = s.svg;
  const svg = box.querySelector("svg");
  if (!svg || !s.human_to_choose) return;
  const cellRect = (cell) => svg.querySelector(`rect.cell[data-cell="${cell}"]`);
  const overlay = (cell, cls, choice) => {
    const r = cellRect(cell);
    if (!r) return null;
    const o = document.createElementNS(SVGNS, "rect");
    for (const a of ["x", "y", "width", "height"]) o.setAttribute(a, r.getAttribute(a));
    o.setAttribute("class", cls);
    o.setAttribute("data-cell", cell);
    if (choice !== undefined) o.setAttribute("data-choice", choice);
    svg.appendChild(o);
    return o;
  };
  for (const c of s.choices) {
    for (const [cell, cls] of [[c.cell, "choice-from"], [c.to, "choice-to"]]) {
      if (cell === null) continue;
      const o = overlay(cell, cls, c.text);
      if (o) o.setAttribute("pointer-events", "none");
    }
  }
  // What a click on a cell plays: the move of the piece standing there,
  // else the one choice landing there.
  const byCell = new Map();
  for (const c of s.choices) if (c.cell !== null) byCell.set(c.cell, c.text);
  for (const c of s.choices) {
    if (c.to === null || byCell.has(c.to)) continue;
    const landing = s.choices.filter((d) => d.to === c.to);
    if (landing.length === 1) byCell.set(c.to, c.text);
  }
  for (const [cell, text] of byCell) {
    const hit = overlay(cell, "hit", text);
    if (!hit) continue;
    hit.addEventListener("click", () => choose(text));
    hit.addEventListener("mouseenter", () => focusChoice(text, true));
    hit.addEventListener("mouseleave", () => focusChoice(text, false));
    const t = document.createElementNS(SVGNS, "title");
    t.textContent = text === "enter" ? "enter a piece" : "move " + text;
    hit.appendChild(t);
  }
}

function focusChoice(text, on) {
  for (const e of document.querySelectorAll(`#track-svg .choice-from, #track-svg .choice-to`)) {
    if (e.dataset.choice === text) e.classList.toggle("focus", on);
  }
}

function esc(t) {
  return String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

async function roll() {
  const r = await api("POST", `/api/games/${state.id}/roll`);
  if (!r.ok) { $("message").textContent = r.data.error; return; }
  $("message").textContent = "";
  show(r.data);
}

async function choose(text) {
  const r = await api("POST", `/api/games/${state.id}/choose`, { choice: text });
  if (!r.ok) { $("message").textContent = r.data.error; return; }
  $("message").textContent = "";
  show(r.data);
}

async function action(name) {
  const r = await api("POST", `/api/games/${state.id}/${name}`);
  if (!r.ok) { $("message").textContent = r.data.error; return; }
  if (name === "hint" && state.kind === "race") {
    const h = r.data.hint;
    $("message").textContent = "hint: " + (h.cell === null ? h.text : "move " + h.text) + (h.to !== null && h.to !== h.cell ? " \u2192 " + h.to : "");
    focusChoice(h.text, true);
    for (const b of document.querySelectorAll("#choices .choice")) b.classList.toggle("hinted", b.dataset.choice === h.text);
    return;
  }
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
$("roll").addEventListener("click", roll);
$("load").addEventListener("click", load);

// Opens a game from a record or a PDN file: the server reads and checks it.
async function load() {
  const f = $("load-file").files[0];
  if (!f) { $("setup-error").textContent = "choose a file first"; return; }
  const text = await f.text();
  const pdn = /\.pdn$/i.test(f.name) || !text.trimStart().startsWith("{");
  const body = { format: pdn ? "pdn" : "record", text, sides: [] };
  if (pdn) {
    body.game = $("game").value;
    body.options = {};
    for (const s of document.querySelectorAll("[data-option]")) body.options[s.dataset.option] = s.value;
  }
  for (const s of document.querySelectorAll("[data-side]")) body.sides.push(s.value);
  body.at = document.querySelector("input[name=load-at]:checked").value;
  let r = await api("POST", "/api/games/load", body);
  // A PDN file of several games: the server names them; the person picks one.
  const several = !r.ok && /holds (\d+) games \(/.exec(r.data.error || "");
  if (several) {
    const k = window.prompt(`${r.data.error}\nWhich game (1 to ${several[1]})?`, "1");
    if (k === null) { $("setup-error").textContent = r.data.error; return; }
    body.pdn_game = Number(k);
    r = await api("POST", "/api/games/load", body);
  }
  if (!r.ok) { $("setup-error").textContent = r.data.error; return; }
  $("setup").hidden = true;
  $("play").hidden = false;
  show(r.data);
  listen(r.data.id);
}

(async () => {
  const id = new URLSearchParams(location.search).get("id");
  if (id) {
    const r = await api("GET", `/api/games/${id}`);
    if (r.ok) { $("setup").hidden = true; $("play").hidden = false; show(r.data); listen(id); return; }
  }
  loadGames();
})();
