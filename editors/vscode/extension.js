// Starts `rulebook lsp` for .rules files: diagnostics as you type, hover,
// completion, go to definition, references, outline, formatting and quick
// fixes all come from the server.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("rulebook").get("path") || "rulebook";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "rulebook",
    "rulebook",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "rulebook" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
