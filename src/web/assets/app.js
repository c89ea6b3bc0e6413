// The play page of `rulebook serve`. Every rule lives on the server: this
// script draws what the API answers (the SVG board, the legal moves with
// their paths) and sends what is clicked.
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
let games = [];
let state = null;
let picked = []; // the squares clicked so far of the move being made
let busy = false;
// How this page shows the board: turned round or not, the square numbers
// drawn or not (null: as the game suggests), the hinted move, and the body
// of the last game started (for a rematch).
let view = { id: null, flip: null, numbers: null };
let hinted = null;
let started = null;
// Messages: an explanation of a refusal (error) or information (a hint).
function say(text, kind) {
  const m = $("message");
  m.textContent = text;
  m.className = kind === "info" ? "info" : "error";
}

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
  // The game named in the address, else the bundled game the others
  // extend, else the first.
  const has = (n) => n && games.some((g) => g.name === n);
  const want = new URLSearchParams(location.search).get("game");
  const first = games.find((g) => g.first);
  if (has(want)) sel.value = want;
  else if (first) sel.value = first.name;
  showGame();
}

function showGame() {
  const g = games.find((x) => x.name === $("game").value);
  if (!g) return;
  $("game-info").textContent = `${g.kind === "race" ? "A race game" : "A board game"}, ${g.players} players.`;
  $("game-description").textContent = g.description || "";
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
    // The first seat a person's, the others the computer's.
    if (i >= 1) s.value = "random";
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
  started = body;
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
  stream.addEventListener("problem", (e) => say(e.data));
}


// Whether the board is drawn turned round (the side moving down at the
// bottom), and whether the square numbers are drawn on it.
const flipped = () => (view.flip !== null ? view.flip : !!state.flip);
const numbersShown = () => !!state.numbered && (view.numbers !== null ? view.numbers : true);

// The top left corner of a square where it is drawn.
function squareXY(name) {
  const q = state.squares.find((s) => s.name === name);
  if (!q) return null;
  const b = state.board;
  const f = flipped() ? b.width - 1 - q.file : q.file;
  const r = flipped() ? q.rank : b.height - 1 - q.rank;
  return { x: b.margin + f * b.cell, y: b.margin + r * b.cell };
}

// A square as the game writes it: its number in a numbered game, else its
// letter and rank.
function written(name) {
  if (!state.numbered) return name;
  const q = state.squares.find((s) => s.name === name);
  return q ? String(q.number) : name;
}

// The server's picture turned round its centre: squares and pieces turn,
// the letters of kings stay upright, the coordinates read from the other
// end.
function turnRound(svg) {
  const b = state.board;
  const cx = b.margin + (b.width * b.cell) / 2;
  const cy = b.margin + (b.height * b.cell) / 2;
  for (const id of ["squares", "pieces"]) {
    const g = svg.querySelector(`g#${id}`);
    if (g) g.setAttribute("transform", `rotate(180 ${cx} ${cy})`);
  }
  for (const t of svg.querySelectorAll("g#pieces text")) {
    const x = Number(t.getAttribute("x"));
    const y = Number(t.getAttribute("y")) - 5;
    t.setAttribute("transform", `rotate(180 ${x} ${y})`);
  }
  const coords = [...svg.querySelectorAll("g#coordinates text")];
  const ranks = coords.filter((t) => Number(t.getAttribute("x")) < b.margin);
  const files = coords.filter((t) => Number(t.getAttribute("x")) >= b.margin);
  for (const list of [ranks, files]) {
    const words = list.map((t) => t.textContent).reverse();
    list.forEach((t, i) => { t.textContent = words[i]; });
  }
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
  if (!svg) return;
  if (flipped()) turnRound(svg);
  // One notation on the page: a numbered game's squares by their numbers
  // (drawn on the board, as on a numbered diagram), no letters.
  if (state.numbered) {
    const c = svg.querySelector("g#coordinates");
    if (c) c.remove();
  }
  if (numbersShown()) {
    for (const q of state.squares) {
      const p = squareXY(q.name);
      const t = document.createElementNS(SVGNS, "text");
      t.setAttribute("x", p.x + 3); t.setAttribute("y", p.y + 12);
      t.setAttribute("class", "square-number");
      t.textContent = q.number;
      svg.appendChild(t);
    }
  }
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
  // The hint: where the piece goes from and to, outlined as information.
  if (hinted) {
    mark(svg, hinted.squares[0], "mark-hint");
    mark(svg, hinted.squares[hinted.squares.length - 1], "mark-hint");
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
    r.setAttribute("data-number", q.number);
    r.addEventListener("click", () => click(q.name));
    svg.appendChild(r);
  }
}

async function send(text) {
  picked = [];
  // Exactly the squares clicked: `2` is the square 2, never a move
  // beginning with 2.
  const r = await api("POST", `/api/games/${state.id}/move`, { move: text, exact: true });
  if (!r.ok) {
    say(r.data.error);
    draw();
    return;
  }
  say("");
  show(r.data);
}

function click(name) {
  if (!name || !state.human_to_move || busy) return;
  say("");
  const legal = state.legal;
  if (picked.length === 0) {
    // A move of one square (a placement, a removal) is made by its click.
    const from = legal.filter((m) => m.squares[0] === name);
    if (from.length === 1 && from[0].squares.length === 1) { send(from[0].notation); return; }
    if (from.length > 0) { picked = [name]; draw(); return; }
    // Not a piece that can move: ask the server why, as the prompt would
    // (in the game's own notation).
    send(written(name));
    return;
  }
  if (name === picked[picked.length - 1] && picked.length === 1) { picked = []; draw(); return; }
  // The square a capture has reached, clicked again: the person means to
  // stop there. The server says whether the capture may stop (and which
  // rule makes it go on).
  if (name === picked[picked.length - 1]) { send(picked.map(written).join("x")); return; }
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
    say("several captures end there: click the squares they land on in between");
    draw();
    return;
  }
  if (legal.some((m) => m.squares[0] === name)) { picked = [name]; draw(); return; }
  // An illegal attempt: the server explains it.
  send(picked.map(written).join("-") + "-" + written(name));
}

function show(s) {
  // States come from answers and from the event stream, not always in
  // order: an older one never replaces a newer one.
  if (state && state.id === s.id && s.version < state.version) return;
  if (!state || state.id !== s.id) { view = { id: s.id, flip: null, numbers: null }; }
  hinted = null;
  if (s.kind === "race") { showRace(s); return; }
  state = s;
  picked = [];
  $("board").hidden = false; $("race").hidden = true;
  $("resign").hidden = false; $("race-controls").hidden = true;
  $("flip").hidden = false; $("auto-label").hidden = true;
  $("numbers").hidden = !s.numbered;
  $("flip").classList.toggle("on", flipped());
  $("numbers").classList.toggle("on", numbersShown());
  // Who is to act, for people and for the browser tests.
  document.body.dataset.turn = s.result ? "over" : s.human_to_move ? "human" : "computer";
  document.body.dataset.ply = s.moves.length;
  $("title").textContent = s.title + (s.options.length ? " (" + s.options.join(", ") + ")" : "");
  const who = s.sides.map((x) => `${x.name}: ${x.agent}`).join(", ");
  $("status").textContent = s.result ? `Game over: ${sentence(s.result)} ${who}` : `${s.side_to_move} to move. ${who}`;
  const ol = $("moves");
  ol.innerHTML = "";
  // Numbered as players number them: `1. 22-18 9-13`, a move a line.
  for (const line of s.move_list) {
    const li = document.createElement("li");
    const m = /^(\d+)\.\s+(.*)$/.exec(line);
    if (m) { li.value = Number(m[1]); li.textContent = m[2]; } else li.textContent = line;
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
  $("events").textContent = s.events.join("; ");
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  $("hint").disabled = !s.human_to_move;
  $("resign").disabled = !!s.result;
  $("after-buttons").classList.toggle("over", !!s.result);
  $("record").href = `/api/games/${s.id}/record`;
  $("pdn").href = `/api/games/${s.id}/pdn`;
  $("pdn-link").hidden = false;
  history.replaceState(null, "", `?id=${s.id}`);
  draw();
  if (s.computer_to_move) say("the computer is thinking…", "info");
  else if ($("message").textContent.startsWith("the computer")) say("");
}

// A result as a sentence of its own: `result: red wins after 40 rolls`
// becomes `red wins after 40 rolls.`
function sentence(result) {
  const t = String(result).replace(/^result:\s*/, "").trim();
  return /[.!]$/.test(t) ? t : t + ".";
}

// A race game: the track, the dice, the choices as buttons, the turns.
function showRace(s) {
  state = s;
  $("board").hidden = true; $("race").hidden = false;
  $("resign").hidden = true; $("race-controls").hidden = false;
  $("flip").hidden = true; $("numbers").hidden = true; $("auto-label").hidden = false;
  $("after-buttons").classList.toggle("over", !!s.result);
  // A roll that leaves one choice (a pass, the only move, the only entry)
  // is played without a click, as at the terminal; not a turn given back
  // by undo (it is there to be chosen again).
  const only = s.human_to_choose && s.choices.length === 1 && !s.can_redo && $("auto-forced").checked;
  document.body.dataset.turn = s.result ? "over" : s.human_to_roll ? "roll" : only ? "forced" : s.human_to_choose ? "choose" : "computer";
  document.body.dataset.ply = s.turns.length ? s.turns[s.turns.length - 1].number : 0;
  $("title").textContent = s.title + (s.options.length ? " (" + s.options.join(", ") + ")" : "");
  // Each seat's name on its pieces' colour, as on the track.
  const seat = (i) => {
    const x = s.seats[i];
    return x ? `<span class="seat" style="background:${esc(x.colour)};color:${esc(x.ink)}">${esc(x.name)}</span>` : "";
  };
  const who = s.seats.map((x, i) => `${seat(i)}: ${esc(x.agent)}`).join(", ");
  $("status").innerHTML = (s.result ? `Game over: ${esc(sentence(s.result))} ` : `${seat(s.to_roll)} to ${s.human_to_choose ? "choose" : "roll"}. `) + who;
  drawTrack(s);
  $("positions").textContent = s.positions;
  $("seed-shown").textContent = `dice: ${s.dice} × d${s.faces}, seed ${s.seed}`;
  $("roll").disabled = !s.human_to_roll;
  // With a table of values for the dice, what each die rolled is worth.
  const worth = (w) => (w ? ` (worth ${w.join(" ")})` : "");
  $("dice").textContent = s.rolled ? "rolled " + s.rolled.join(" ") + worth(s.rolled_worth) : "";
  const box = $("choices");
  box.innerHTML = "";
  if (s.human_to_choose && !only) {
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
    li.textContent = `${t.player} rolls ${t.dice.join(" ")}${worth(t.worth)}: ${t.choice}`;
    // A person's turn of one choice, played by itself: said so.
    if (t.forced && s.seats[t.seat] && s.seats[t.seat].agent === "human") {
      const o = document.createElement("span");
      o.className = "only";
      o.textContent = " (the only choice)";
      li.appendChild(o);
    }
    if (t.events.length) li.appendChild(document.createTextNode(" — " + t.events.join("; ")));
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
  $("hint").disabled = !s.human_to_choose || only;
  $("record").href = `/api/games/${s.id}/record`;
  $("pdn-link").hidden = true;
  history.replaceState(null, "", `?id=${s.id}`);
  if (s.computer_to_move) say("the computer is playing…", "info");
  else if ($("message").textContent.startsWith("the computer")) say("");
  if (only) playForced(s);
}

// Plays the one choice of the roll shown, once, after a moment to see the
// dice.
let forcedFor = null;
function playForced(s) {
  const key = `${s.id}:${s.turns.length}:${s.rolled}`;
  if (forcedFor === key) return;
  forcedFor = key;
  const text = s.choices[0].text;
  setTimeout(() => {
    if (state && state.id === s.id && state.human_to_choose && state.turns.length === s.turns.length) choose(text);
  }, 350);
}

// The track as the server draws it (`show --svg`'s picture); while the
// person chooses, the cells each choice moves from (dashed) and to (green)
// are outlined, and a click on one plays the choice: a piece's cell plays
// its move, a cell only reached by one choice plays that one.
function drawTrack(s) {
  const box = $("track-svg");
  box.innerHTML = s.svg;
  const svg = box.querySelector("svg");
  if (!svg) return;
  // The start cells of seats nobody plays are not outlined.
  const playing = new Set(s.seats.map((x) => String(x.name).toLowerCase()));
  const starts = [...svg.querySelectorAll("rect.start[data-seat]")];
  if (starts.some((r) => playing.has(r.dataset.seat.toLowerCase()))) {
    for (const r of starts) r.classList.toggle("idle", !playing.has(r.dataset.seat.toLowerCase()));
  }
  // The caption says what the status says: to roll, or to choose.
  const turn = svg.querySelector("text.turn");
  if (turn && s.human_to_choose) turn.textContent = turn.textContent.replace(/ to roll$/, " to choose");
  if (!s.human_to_choose) return;
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
  if (!r.ok) { say(r.data.error); return; }
  say("");
  show(r.data);
}

async function choose(text) {
  const r = await api("POST", `/api/games/${state.id}/choose`, { choice: text });
  if (!r.ok) { say(r.data.error); return; }
  say("");
  show(r.data);
}

async function action(name) {
  const r = await api("POST", `/api/games/${state.id}/${name}`);
  if (!r.ok) { say(r.data.error); return; }
  if (name === "hint" && state.kind === "race") {
    const h = r.data.hint;
    say("hint: " + (h.cell === null ? h.text : "move " + h.text) + (h.to !== null && h.to !== h.cell ? " \u2192 " + h.to : ""), "info");
    focusChoice(h.text, true);
    for (const b of document.querySelectorAll("#choices .choice")) b.classList.toggle("hinted", b.dataset.choice === h.text);
    return;
  }
  if (name === "hint") {
    const h = r.data.hint;
    const from = written(h.squares[0]);
    const to = written(h.squares[h.squares.length - 1]);
    say(`hint: ${h.notation} (from ${from} to ${to})`, "info");
    picked = [h.squares[0]];
    hinted = h;
    draw();
    return;
  }
  say("");
  show(r.data);
}

// The same game and players again (the next seed for a race game's dice).
async function rematch() {
  let body = started && started.game === state.game ? { ...started } : null;
  if (!body) {
    body = { game: state.game, options: {}, sides: [] };
    for (const o of state.options) {
      const i = o.indexOf("=");
      if (i > 0) body.options[o.slice(0, i)] = o.slice(i + 1);
    }
    if (state.kind === "race") { body.sides = state.seats.map((x) => x.agent); body.players = state.seats.length; }
    else body.sides = state.sides.map((x) => x.agent);
  }
  if (state.kind === "race") {
    const next = Number(state.seed) + 1;
    if (Number.isSafeInteger(next)) body.seed = next;
  }
  const r = await api("POST", "/api/games", body);
  if (!r.ok) { say(r.data.error); return; }
  started = body;
  show(r.data);
  listen(r.data.id);
}

$("game").addEventListener("change", showGame);
$("start").addEventListener("click", start);
for (const b of ["undo", "redo", "hint", "resign"]) $(b).addEventListener("click", () => action(b));
$("roll").addEventListener("click", roll);
$("flip").addEventListener("click", () => { view.flip = !flipped(); show({ ...state, version: state.version }); });
$("numbers").addEventListener("click", () => { view.numbers = !numbersShown(); show({ ...state }); });
$("rematch").addEventListener("click", rematch);
$("new-game").addEventListener("click", () => { location.href = "/?game=" + encodeURIComponent(state.game); });
$("auto-forced").checked = localStorage.getItem("rulebook-auto-forced") !== "off";
$("auto-forced").addEventListener("change", () => {
  localStorage.setItem("rulebook-auto-forced", $("auto-forced").checked ? "on" : "off");
  if (state && state.kind === "race") show({ ...state });
});
$("load").addEventListener("click", load);

// Opens a game from a record or a PDN file: the server reads and checks it.
async function load() {
  const f = $("load-file").files[0];
  if (!f) { $("setup-error").textContent = "choose a file first"; return; }
  started = null;
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
