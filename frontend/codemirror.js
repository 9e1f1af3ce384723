// What static/js/sql_codemirror.js needs from CodeMirror 6, bundled into one ES module by build.mjs
// (`make frontend`). Add an export here, rebuild, and commit the bundle: the pages import the built file, not npm.
export { EditorState, Prec } from "@codemirror/state";
export { drawSelection, EditorView, highlightSpecialChars, keymap, placeholder } from "@codemirror/view";
export { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
export { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting, syntaxTree } from "@codemirror/language";
export { tags } from "@lezer/highlight";
export { acceptCompletion, autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
export { lintKeymap, setDiagnostics } from "@codemirror/lint";
export { SQLDialect, SQLite } from "@codemirror/lang-sql";
