// The parts of CodeMirror 6 the rule editor of `rulebook serve` uses,
// bundled by build.sh into src/web/assets/vendor/codemirror.js as the
// global `CM`.
export { EditorState } from "@codemirror/state";
export {
  EditorView, keymap, lineNumbers, highlightActiveLine,
  highlightActiveLineGutter, drawSelection, highlightSpecialChars,
} from "@codemirror/view";
export { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
export {
  StreamLanguage, HighlightStyle, syntaxHighlighting, bracketMatching,
} from "@codemirror/language";
export { setDiagnostics, lintGutter, diagnosticCount } from "@codemirror/lint";
export { tags } from "@lezer/highlight";
