// Tokenises rule files with the extension's TextMate grammar, as VS Code
// does (vscode-textmate with the Oniguruma regular expressions), and fails
// if any text outside white space gets no scope of its own.
// Usage: node tokenize.js FILE...
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const grammarPath = path.join(__dirname, "..", "syntaxes", "rulebook.tmLanguage.json");
const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) =>
    scope === "source.rulebook"
      ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath)
      : null,
});

registry.loadGrammar("source.rulebook").then((grammar) => {
  let tokens = 0;
  const unknown = [];
  const scopes = new Set();
  for (const file of process.argv.slice(2)) {
    let stack = vsctm.INITIAL;
    fs.readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      const r = grammar.tokenizeLine(line, stack);
      for (const t of r.tokens) {
        const text = line.substring(t.startIndex, t.endIndex);
        if (text.trim() === "") continue;
        tokens++;
        const scope = t.scopes[t.scopes.length - 1];
        scopes.add(scope);
        if (t.scopes.length < 2) {
          unknown.push(`${file}:${i + 1}:${t.startIndex + 1}: \`${text}\` has no scope`);
        }
      }
      stack = r.ruleStack;
    });
  }
  for (const u of unknown) console.log(u);
  console.log(`files ${process.argv.length - 2}, tokens ${tokens}, scopes ${scopes.size}, unknown ${unknown.length}`);
  process.exit(unknown.length === 0 && tokens > 0 ? 0 : 1);
});
