// The rule editor of `rulebook serve`: a rule file in a CodeMirror editor
// (the bundle /assets/vendor/codemirror.js, the global `CM`) with line
// numbers and highlighting, checked by the server as it is typed (the
// diagnostics of `rulebook check`, and past a syntax error the errors of
// the rest of the file), each diagnostic marked on its line (underlined,
// a mark in the gutter, its message on hover) and listed beside the text
// (a click goes to it); "Play this" starts a game of the edited text
// (players to choose), "Try it" opens one at once; back in the editor, the
// text is as it was left.
//
// The highlighting is read from the TextMate grammar of the editor support
// (editors/vscode/syntaxes/rulebook.tmLanguage.json, served by the binary
// as /assets/rulebook.tmLanguage.json): its patterns and their scopes, so
// the keywords are the grammar's, in one list.
"use strict";
let timer = null;
let lastErrors = 0;
let sequence = 0;
let view = null;

// A scope of the TextMate grammar -> the token name of the tokenizer.
const SCOPES = [
  ["comment", "rbComment"],
  ["string", "rbString"],
  ["keyword.control", "rbStatement"],
  ["keyword.operator", "rbOperator"],
  ["keyword", "rbKeyword"],
  ["constant.other", "rbSquare"],
  ["constant.character", "rbLetter"],
  ["constant", "rbNumber"],
  ["variable", "rbName"],
  ["punctuation", "rbPunctuation"],
];

function styleOf(scope) {
  const hit = SCOPES.find(([prefix]) => (scope || "").startsWith(prefix));
  return hit ? hit[1] : null;
}

// The grammar's top-level patterns, in order, as [regexp, style, end]:
// `end` is the closing pattern of a begin/end rule (a string).
function rulesOf(grammar) {
  const out = [];
  const add = (p) => {
    if (p.include) {
      const r = grammar.repository[p.include.replace(/^#/, "")];
      if (r) add(r);
    } else if (p.match) {
      out.push([new RegExp(p.match, "y"), styleOf(p.name), null]);
    } else if (p.begin && p.end) {
      out.push([new RegExp(p.begin, "y"), styleOf(p.name), new RegExp(p.end, "g")]);
    } else if (p.patterns) {
      p.patterns.forEach(add);
    }
  };
  (grammar.patterns || []).forEach(add);
  return out;
}

function rulesLanguage(grammar) {
  const rules = rulesOf(grammar);
  const { tags } = CM;
  // Reads on to the end of an open string (or of the line): its style.
  const inside = (stream, state) => {
    state.end.lastIndex = stream.pos;
    const m = state.end.exec(stream.string);
    if (m) { stream.pos = m.index + m[0].length; state.end = null; state.style = null; }
    else stream.skipToEnd();
    return state.style || state.last;
  };
  return CM.StreamLanguage.define({
    name: "rulebook",
    startState: () => ({ end: null, style: null, last: null }),
    copyState: (s) => ({ end: s.end, style: s.style, last: s.last }),
    token(stream, state) {
      if (state.end) return inside(stream, state);
      if (stream.eatSpace()) return null;
      for (const [re, style, end] of rules) {
        re.lastIndex = stream.pos;
        const m = re.exec(stream.string);
        if (!m || m[0].length === 0) continue;
        stream.pos += m[0].length;
        if (end) { state.end = end; state.style = style; state.last = style; return inside(stream, state); }
        return style;
      }
      stream.next();
      return null;
    },
    tokenTable: {
      rbComment: tags.comment, rbString: tags.string, rbStatement: tags.controlKeyword,
      rbKeyword: tags.keyword, rbOperator: tags.operator, rbSquare: tags.atom,
      rbLetter: tags.className, rbNumber: tags.number, rbName: tags.variableName,
      rbPunctuation: tags.punctuation,
    },
    languageData: { commentTokens: { line: "//" } },
  });
}

// Fixed class names (editor.html styles them; tests look for them).
function highlightStyle() {
  const { tags } = CM;
  return CM.HighlightStyle.define([
    { tag: tags.controlKeyword, class: "rb-statement" },
    { tag: tags.keyword, class: "rb-keyword" },
    { tag: tags.string, class: "rb-string" },
    { tag: tags.comment, class: "rb-comment" },
    { tag: tags.number, class: "rb-number" },
    { tag: tags.atom, class: "rb-square" },
    { tag: tags.className, class: "rb-letter" },
    { tag: tags.operator, class: "rb-operator" },
    { tag: tags.punctuation, class: "rb-punctuation" },
  ]);
}

async function makeEditor() {
  let language = [];
  try {
    const r = await fetch("/assets/rulebook.tmLanguage.json");
    const grammar = await r.json();
    language = [rulesLanguage(grammar), CM.syntaxHighlighting(highlightStyle())];
  } catch (e) {
    language = []; // The text stays editable, only not highlighted.
  }
  view = new CM.EditorView({
    parent: $("editor"),
    state: CM.EditorState.create({
      doc: "",
      extensions: [
        CM.lineNumbers(),
        CM.lintGutter(),
        CM.highlightActiveLineGutter(),
        CM.highlightSpecialChars(),
        CM.history(),
        CM.drawSelection(),
        CM.highlightActiveLine(),
        CM.bracketMatching(),
        CM.keymap.of([...CM.defaultKeymap, ...CM.historyKeymap, CM.indentWithTab]),
        ...language,
        CM.EditorView.lineWrapping,
        CM.EditorView.contentAttributes.of({ "aria-label": "rule file", spellcheck: "false" }),
        CM.EditorView.updateListener.of((u) => {
          if (u.docChanged) { clearTimeout(timer); timer = setTimeout(check, 300); }
        }),
      ],
    }),
  });
  window.editorView = view;
}

const text = () => view.state.doc.toString();

function setText(t) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t }, selection: { anchor: 0 } });
}

async function loadList() {
  const r = await api("GET", "/api/games");
  const sel = $("file");
  for (const g of r.data.games || []) {
    const o = document.createElement("option");
    o.value = g.name; o.textContent = g.name; sel.appendChild(o);
  }
  const known = (n) => [...sel.options].some((o) => o.value === n);
  const left = draft();
  if (left && known(left.name)) {
    sel.value = left.name;
    setText(left.text);
    clearTimeout(timer);
    $("save-name").value = left.name.endsWith(".rules") ? left.name : left.name + ".rules";
    check();
    return;
  }
  const asked = new URLSearchParams(location.search).get("name");
  if (asked && known(asked)) sel.value = asked;
  await open();
}

async function open() {
  const r = await api("GET", "/api/rules?name=" + encodeURIComponent($("file").value));
  if (!r.ok) { $("diagnostics").textContent = r.data.error; return; }
  setText(r.data.text);
  clearTimeout(timer);
  const name = $("file").value;
  $("save-name").value = name.endsWith(".rules") ? name : name + ".rules";
  $("save-result").textContent = "";
  check();
}

// The offset in the editor of a diagnostic's line and column (1-based, in
// characters as the server counts them), kept inside the text.
function offsetOf(doc, line, column) {
  if (line < 1) return 0;
  if (line > doc.lines) return doc.length;
  const l = doc.line(line);
  let o = 0;
  let chars = 1;
  for (const ch of l.text) {
    if (chars >= column) break;
    o += ch.length; chars += 1;
  }
  return l.from + o;
}

// The editor's range of a diagnostic: at least one character (the line's
// last when it points at its end), so that it can be underlined.
function rangeOf(doc, at) {
  let from = offsetOf(doc, at.line, at.column);
  let to = Math.max(from, offsetOf(doc, at.end_line, at.end_column));
  if (to === from) {
    const line = doc.lineAt(from);
    if (from < line.to) to = from + 1;
    else if (from > line.from) from -= 1;
  }
  return { from, to };
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function describe(d) {
  const where = d.at ? `${d.at.file}:${d.at.line}:${d.at.column}: ` : "";
  return `${where}${d.severity}[${d.code}]: ${d.message}` + (d.hint ? `\nhelp: ${d.hint}` : "");
}

function goTo(range) {
  view.dispatch({ selection: { anchor: range.from, head: range.to }, scrollIntoView: true });
  view.focus();
}

async function check() {
  const sent = text();
  const name = $("file").value;
  const mine = ++sequence;
  const r = await api("POST", "/api/check", { text: sent, name });
  if (mine !== sequence) return; // a later check is on its way
  const box = $("diagnostics");
  box.innerHTML = "";
  if (!r.ok) { box.textContent = r.data.error; return; }
  const doc = view.state.doc;
  const same = doc.toString() === sent;
  lastErrors = r.data.errors;
  $("summary").textContent = r.data.errors + r.data.warnings === 0
    ? "no problems"
    : [r.data.errors ? plural(r.data.errors, "error") : "", r.data.warnings ? plural(r.data.warnings, "warning") : ""]
        .filter(Boolean).join(", ");
  $("summary").className = r.data.errors ? "error" : "ok";
  const marks = [];
  const listed = r.data.diagnostics.map((d) => {
    const here = same && d.at && d.at.file === name;
    const range = here ? rangeOf(doc, d.at) : null;
    if (range) {
      const message = (d.at.label ? `${d.message}: ${d.at.label}` : d.message) + (d.hint ? `\nhelp: ${d.hint}` : "");
      marks.push({ from: range.from, to: range.to, severity: d.severity, source: d.code, message });
    }
    return { d, range };
  });
  listed.sort((a, b) => (a.range ? a.range.from : Infinity) - (b.range ? b.range.from : Infinity));
  for (const { d, range } of listed) {
    const div = document.createElement("div");
    div.className = `diag ${d.severity}` + (range ? "" : " elsewhere");
    div.textContent = describe(d);
    if (range) {
      div.tabIndex = 0;
      div.dataset.line = String(d.at.line);
      div.title = `go to line ${d.at.line}`;
      div.addEventListener("click", () => goTo(range));
      div.addEventListener("keydown", (e) => { if (e.key === "Enter") goTo(range); });
    }
    box.appendChild(div);
  }
  view.dispatch(CM.setDiagnostics(view.state, marks));
  $("rendered").textContent = r.data.rendered || "";
  $("rendered-box").hidden = !r.data.rendered;
  $("play").disabled = lastErrors > 0;
  $("try").disabled = lastErrors > 0;
  document.body.dataset.checked = String(mine);
}

$("file").addEventListener("change", open);
function keepDraft() {
  sessionStorage.setItem("editor-draft", JSON.stringify({ name: $("file").value, text: text() }));
}

// The text left in this tab, when the page is come back to (Back).
function draft() {
  const nav = performance.getEntriesByType("navigation")[0];
  if (!nav || nav.type !== "back_forward") return null;
  try {
    const d = JSON.parse(sessionStorage.getItem("editor-draft") || "null");
    return d && typeof d.name === "string" && typeof d.text === "string" ? d : null;
  } catch (e) {
    return null;
  }
}

$("play").addEventListener("click", () => {
  keepDraft();
  sessionStorage.setItem("play-text", text());
  location.href = "/?edited=1&game=" + encodeURIComponent($("file").value);
});
// One click: a game of the text with every side a person's. The text is
// kept for this tab: back in the editor (the browser's Back), it is there
// as it was left.
$("try").addEventListener("click", async () => {
  const r = await api("POST", "/api/games", { game: $("file").value, text: text() });
  if (!r.ok) {
    $("summary").className = "error";
    $("summary").textContent = r.data.error;
    return;
  }
  keepDraft();
  location.href = "/?id=" + encodeURIComponent(r.data.id);
});
$("save").addEventListener("click", async () => {
  const r = await api("POST", "/api/save", { name: $("save-name").value, text: text() });
  $("save-result").className = r.ok ? "ok" : "error";
  $("save-result").textContent = r.ok ? `saved ${r.data.saved} (${r.data.bytes} bytes)` : r.data.error;
});
makeEditor().then(loadList);
