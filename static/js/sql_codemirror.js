// The SQL editor of every page that writes or shows SQL: CodeMirror 6 (static/js/vendor/codemirror.bundle.js, built
// by `make frontend`) with the database's tables and columns as completions, the SQL core's validation as inline
// diagnostics, Ctrl/Cmd+Enter to run, and a read-only mode for SQL that is shown, not edited (the goal).

import {
  acceptCompletion, autocompletion, bracketMatching, closeBrackets, closeBracketsKeymap, completionKeymap,
  defaultKeymap, drawSelection, EditorState, EditorView, HighlightStyle, highlightSpecialChars, history,
  historyKeymap, indentOnInput, keymap, lintKeymap, placeholder as placeholderText, Prec, setDiagnostics, SQLDialect,
  SQLite, syntaxHighlighting, syntaxTree, tags,
} from "./vendor/codemirror.bundle.js";
import { postSql, showProblems } from "./sql_editor.js";
import { gettext, interpolate } from "./i18n.js";

export { labelRunButton, RUN_SHORTCUT, runErrorText } from "./sql_editor.js";

// The datasets write string values in double quotes ("France") and SQLite reads them so when no column has that
// name; annotation/sql/spider.py reads them the same way. Highlight them as the strings they are.
const SPIDER_SQL = SQLDialect.define({ ...SQLite.spec, doubleQuotedStrings: true, identifierQuotes: "`" });

// Colours with at least 4.5:1 contrast on the editor's white and on the read-only grey (--bg): the default
// highlight style has several below it.
const highlighting = HighlightStyle.define([
  { tag: tags.keyword, color: "#6f2da8" },
  { tag: [tags.string, tags.special(tags.string)], color: "#a61e4d" },
  { tag: [tags.number, tags.bool, tags.null], color: "#0b7285" },
  { tag: tags.comment, color: "#667085", fontStyle: "italic" },
  { tag: tags.typeName, color: "#2b6a3e" },
  { tag: [tags.standard(tags.name), tags.special(tags.name)], color: "#1864ab" },
  { tag: tags.invalid, color: "#c92a2a" },
]);

const MONOSPACE = 'ui-monospace, "SFMono-Regular", Menlo, monospace';

// One theme per mode (two themes setting the same property would depend on the order CodeMirror mounts them in).
// Read-only SQL is shown whole: such an editor cannot take the focus, so a scrolling one could not be scrolled from
// the keyboard.
const themes = Object.fromEntries([false, true].map((readOnly) => [readOnly, EditorView.theme({
  "&": {
    border: "1px solid var(--line, #e4e7ec)", borderRadius: "6px", color: "var(--ink, #1d2433)",
    backgroundColor: readOnly ? "var(--bg, #f6f7fb)" : "#fff",
  },
  "&.cm-focused": { outline: "2px solid var(--accent, #3b5bdb)", outlineOffset: "1px" },
  ".cm-scroller": { fontFamily: MONOSPACE, lineHeight: "1.5", ...(readOnly ? {} : { maxHeight: "24em", overflow: "auto" }) },
  ".cm-content": { padding: ".4rem 0", minHeight: readOnly ? "0" : "5.6em" },
  ".cm-line": { padding: "0 .55rem" },
  ".cm-placeholder": { color: "var(--muted, #667085)" },
  ".cm-tooltip-autocomplete ul li[aria-selected]": { background: "var(--accent, #3b5bdb)", color: "#fff" },
  // Ten options at a time (autocompletion's maxRenderedOptions) and no scrolling list: the arrow keys page on, and
  // no region scrolls that the keyboard cannot reach.
  ".cm-tooltip.cm-tooltip-autocomplete > ul": { fontFamily: MONOSPACE, maxHeight: "none" },
  ".cm-completionDetail": { color: "inherit", opacity: 1 },
  ".cm-diagnosticText": { whiteSpace: "pre-wrap" },
})]));

// --- Completion -----------------------------------------------------------------------------------------------------

// The words of a read-only SELECT in SQLite, rather than the SQL standard's hundreds of keywords (USAGE, DIAGNOSTICS...)
// that would crowd the list while an expert types a column name; below the schema's names in the list.
const SQL_WORDS = [
  ..."SELECT|DISTINCT|FROM|WHERE|GROUP BY|HAVING|ORDER BY|ASC|DESC|LIMIT|OFFSET|JOIN|INNER JOIN|LEFT JOIN|CROSS JOIN|ON|USING|AS|AND|OR|NOT|IN|IS|NULL|LIKE|GLOB|BETWEEN|EXISTS|UNION|UNION ALL|INTERSECT|EXCEPT|CASE|WHEN|THEN|ELSE|END|WITH|CAST"
    .split("|").map((label) => ({ label, type: "keyword", boost: -1 })),
  ..."COUNT|SUM|AVG|MIN|MAX|ABS|ROUND|LENGTH|LOWER|UPPER|SUBSTR|TRIM|REPLACE|INSTR|COALESCE|IFNULL|NULLIF|STRFTIME|DATE|JULIANDAY"
    .split("|").map((label) => ({ label, type: "function", boost: -1 })),
];

const inCodeAt = (context) => !/String|Comment|QuotedIdentifier/.test(syntaxTree(context.state).resolveInner(context.pos, -1).name);

function sqlWordSource(context) {
  if (!inCodeAt(context) || context.matchBefore(/\.[\w$]*$/)) return null;  // after a dot only columns fit
  const word = context.matchBefore(/[A-Za-z_]\w*$/);
  if (!word && !context.explicit) return null;
  return { from: word ? word.from : context.pos, options: SQL_WORDS, validFor: /^\w*$/ };
}

// --- Completion from the Spider schema ------------------------------------------------------------------------------

// Words that may follow a table name without being its alias (FROM student WHERE ..., FROM student JOIN ...).
const NOT_ALIASES = new Set(`all and as asc by case cross desc else end except exists from full group having in inner
  intersect is join left like limit natural not null offset on or order outer right select then union using values
  when where window with`.split(/\s+/));
const PLAIN_NAME = /^[A-Za-z_][\w$]*$/;

// Each table and column with its readable name (`table_names` / `column_names`, given by curation,
// docs/curation.md), or "" where that name only restates the original one (`first_name` and "first name").
function tableCatalogue(schema) {
  const types = schema.column_types || [];
  const readable = schema.column_names || [];
  const tables = (schema.table_names_original || []).map((name, index) => (
    { name, readable: readableName(name, (schema.table_names || [])[index]), columns: [] }));
  (schema.column_names_original || []).forEach(([table, name], index) => {
    if (table >= 0 && tables[table]) {
      tables[table].columns.push({ name, type: types[index] || "", readable: readableName(name, readable[index]?.[1]) });
    }
  });
  return new Map(tables.map((table) => [table.name.toLowerCase(), table]));
}

const plainWords = (name) => name.toLowerCase().replaceAll("_", " ").split(/\s+/).filter(Boolean).join(" ");
const readableName = (original, readable) => (readable && plainWords(readable) !== plainWords(original) ? readable : "");

// The option's detail: the readable name first, where there is one, then what is said of the name today.
function detailWith(readable, said) {
  if (!readable) return said;
  return said ? `\u2014 ${readable} (${said})` : `\u2014 ${readable}`;
}

// Would CodeMirror's own matching offer `label` for `typed`? Its matcher takes a first letter alone only at the start,
// two letters only next to each other, and longer words letter by letter in order: this answers yes a little more
// often than it does, never less (so a name it offers is not offered twice).
function labelMatches(typed, label) {
  const word = typed.toLowerCase();
  const name = label.toLowerCase();
  if (word.length <= 1) return name.startsWith(word);
  if (word.length === 2) return name.includes(word) || inOrder(word, wordStarts(label));
  return inOrder(word, name);
}

function inOrder(word, text) {
  let at = 0;
  for (const letter of text) if (letter === word[at]) at += 1;
  return at >= word.length;
}

// The first letter of each word of a name: at its start, after a character that is not a letter or digit, and at a
// capital after a small letter (camelCase), lower-cased.
const wordStarts = (name) => [...name].filter((letter, index) => index === 0
  || !/[\p{L}\p{N}]/u.test(name[index - 1])
  || (/\p{Lu}/u.test(letter) && /\p{Ll}/u.test(name[index - 1]))).join("").toLowerCase();

// The words of a readable name that the typed word starts ("first" of "first name"), as one label to match against.
const readableLabel = (readable) => readable.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join("_");
const readableWordStarts = (readable, typed) => {
  const word = typed.toLowerCase();
  return Boolean(word) && (readableLabel(readable).startsWith(word)
    || readable.toLowerCase().split(/[^\p{L}\p{N}]+/u).some((part) => part.startsWith(word)));
};

// For each option with a readable name that the typed word starts but the original name does not match: the same
// option under the readable words, still showing and inserting the original name (SQL is written in real names).
function readableMatches(options, typed) {
  if (!typed) return [];
  return options
    .filter((option) => option.readable && readableWordStarts(option.readable, typed) && !labelMatches(typed, option.label))
    .map(({ readable, ...option }) => ({ ...option, label: readableLabel(readable), displayLabel: option.label }));
}

// The options as CodeMirror takes them (without the readable name each was made with), and those found by readable
// name. Where the schema has readable names the list is made again at each letter, since which of them fit changes.
function withReadable(options, typed, from, curated) {
  return {
    from,
    options: [...options.map(({ readable, ...option }) => option), ...readableMatches(options, typed)],
    validFor: curated ? undefined : /^[\w$]*$/,
  };
}

const quoteName = (name) => (PLAIN_NAME.test(name) ? name : `\`${name.replaceAll("`", "``")}\``);

// The query with its strings and comments blanked out (same length), so that words inside them are not read as names.
function codeOnly(text) {
  return text.replace(/'(?:[^']|'')*'?|"(?:[^"]|"")*"?|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, (part) => " ".repeat(part.length));
}

// alias (lower case) -> table, for every "table AS alias" and "table alias" in the query, subqueries included:
// the editor offers a table's columns after its alias without parsing a query that is, while typed, mostly invalid.
function aliasesIn(code, catalogue) {
  const aliases = new Map();
  const pattern = /(?<![.\w$`])(`[^`]+`|[A-Za-z_][\w$]*)\s+(?:as\s+)?([A-Za-z_][\w$]*)/gi;
  for (let match; (match = pattern.exec(code));) {
    const table = catalogue.get(match[1].replace(/^`|`$/g, "").toLowerCase());
    const alias = match[2].toLowerCase();
    if (table && !NOT_ALIASES.has(alias)) {
      aliases.set(alias, { name: match[2], table });
    } else {
      pattern.lastIndex = match.index + match[0].length - match[2].length;  // the second word may start a pair
    }
  }
  return aliases;
}

function tablesNamedIn(code, catalogue) {
  const words = new Set(code.toLowerCase().match(/[a-z_][\w$]*/g) || []);
  return [...catalogue.values()].filter((table) => words.has(table.name.toLowerCase()));
}

function schemaCompletionSource(schema) {
  const catalogue = tableCatalogue(schema);
  const curated = [...catalogue.values()].some((table) => table.readable || table.columns.some((column) => column.readable));
  const columnOption = (column, detail, readable = column.readable) => ({
    label: column.name, apply: quoteName(column.name), type: "property", detail: detailWith(readable, detail), boost: 3, readable,
  });
  return (context) => {
    if (!inCodeAt(context)) return null;
    const code = codeOnly(context.state.doc.toString());

    // After "name.": the columns of that table, or of the table that name is an alias of.
    const qualified = context.matchBefore(/(?:`[^`]+`|[A-Za-z_][\w$]*)\.[\w$]*$/);
    if (qualified) {
      const dot = qualified.text.lastIndexOf(".");
      const qualifier = qualified.text.slice(0, dot).replace(/^`|`$/g, "").toLowerCase();
      const table = aliasesIn(code, catalogue).get(qualifier)?.table || catalogue.get(qualifier);
      if (!table) return null;
      const options = table.columns.map((column) => columnOption(column, column.type));
      return withReadable(options, qualified.text.slice(dot + 1), qualified.from + dot + 1, curated);
    }

    // A bare word: tables, the query's aliases, and the columns of the tables it names (all when it names none yet).
    const word = context.matchBefore(/[A-Za-z_][\w$]*$/);
    if (!word && !context.explicit) return null;
    const aliases = aliasesIn(code, catalogue);
    const named = tablesNamedIn(code, catalogue);
    const columns = new Map();  // column name -> tables that have it, and their readable names for it
    for (const table of named.length ? named : catalogue.values()) {
      for (const column of table.columns) {
        const entry = columns.get(column.name) || { column, tables: [], readable: [] };
        entry.tables.push(table.name);
        if (column.readable && !entry.readable.includes(column.readable)) entry.readable.push(column.readable);
        columns.set(column.name, entry);
      }
    }
    const options = [
      ...[...catalogue.values()].map((table) => (
        { label: table.name, apply: quoteName(table.name), type: "class", detail: detailWith(table.readable, gettext("table")), boost: 2, readable: table.readable })),
      ...[...aliases.values()].map((alias) => ({
        label: alias.name, type: "variable", boost: 4,
        detail: interpolate(gettext("alias of %(table)s"), { table: alias.table.name }, true),
      })),
      ...[...columns.values()].map(({ column, tables, readable }) => columnOption(column, tables.join(", "), readable.join(" / "))),
    ];
    return withReadable(options, word ? word.text : "", word ? word.from : context.pos, curated);
  };
}

// --- Validation as inline diagnostics -------------------------------------------------------------------------------

// The server counts positions in code points, CodeMirror in UTF-16 units: they differ only after an astral character.
function codePointOffsets(text) {
  if (!/[\uD800-\uDFFF]/.test(text)) return (offset) => offset;
  const units = [];
  for (let index = 0; index < text.length;) {
    units.push(index);
    index += text.codePointAt(index) > 0xffff ? 2 : 1;
  }
  units.push(text.length);
  return (offset) => units[Math.min(offset, units.length - 1)];
}

function diagnosticsFor(validation, text, doc) {
  const toUnits = codePointOffsets(text);
  const diagnostic = (problem, severity) => {
    let from = 0;
    let to = doc.length;
    if (Number.isInteger(problem.start)) {
      from = toUnits(problem.start);
      to = Math.max(from, toUnits(problem.end ?? problem.start));
    } else if (problem.line && problem.line <= doc.lines) {
      from = Math.min(doc.line(problem.line).from + Math.max((problem.col || 1) - 1, 0), doc.length);
      to = from;
    }
    return {
      from: Math.min(from, doc.length),
      to: Math.min(to, doc.length),
      severity,
      message: problem.message,
      // "did you mean first_name?" as buttons that put the name in place of the unknown one
      actions: (problem.suggestions || []).map((name) => ({
        name,
        apply: (view, start, end) => view.dispatch({ changes: { from: start, to: end, insert: name }, userEvent: "input" }),
      })),
    };
  };
  return [
    ...(validation?.errors || []).map((problem) => diagnostic(problem, "error")),
    ...(validation?.warnings || []).map((problem) => diagnostic(problem, "warning")),
  ];
}

// --- The editor ----------------------------------------------------------------------------------------------------

/**
 * Make an SQL editor inside `parent` (an empty element) and return its handle.
 *
 * options:
 *   schema        the database's Spider tables.json entry (the pages embed it with json_script): completes its
 *                 tables, their columns after `table.` or after an alias of the query (`T1.` for `student AS T1`),
 *                 and the columns of the tables the query names. Without it only SQL keywords are completed.
 *   value         the text to start with ("").
 *   readOnly      show SQL rather than edit it: no completion, no validation, not a stop in the Tab order.
 *   validateUrl   the page's validate URL (POST {sql} -> {errors, warnings}, annotation.views.sql_validate): the
 *                 answers are shown as inline diagnostics while typing, debounced by `delay` ms (250), and only
 *                 the answer to the newest request is shown.
 *   problems      an element that also lists the errors as text (sql_editor.js showProblems), e.g. an aria-live box.
 *   onValidation  (validation) => ...   each newest answer; null when the editor is emptied.
 *   onChange      (text) => ...         after each edit by the person (typing, completion, paste, undo, insert());
 *                                       not after setValue().
 *   onRun         (text) => ...         Ctrl+Enter (Cmd+Enter on a Mac).
 *   placeholder   text shown while empty.
 *   label         the accessible name of the editable element ("SQL").
 *   id, testId    put on the editable element (.cm-content) as id and data-testid, for labels and tests.
 *
 * The handle: {view, value(), setValue(text), insert(text), focus(), validate(), destroy()}. setValue starts
 * afresh (a new undo history, no stale diagnostics) and validates at once; validate() returns a promise of the
 * validation (null when empty or superseded).
 */
export function createSqlEditor(parent, {
  schema = null, value = "", readOnly = false, validateUrl = null, problems = null, onValidation = null,
  onChange = null, onRun = null, placeholder = "", label = "SQL", id = null, testId = null, delay = 250,
} = {}) {
  const validating = Boolean(validateUrl) && !readOnly;
  let timer = null;
  let ticket = 0;

  const attributes = { "aria-label": label, spellcheck: "false", autocapitalize: "off", autocorrect: "off" };
  if (id) attributes.id = id;
  if (testId) attributes["data-testid"] = testId;
  if (readOnly) attributes["aria-readonly"] = "true";

  const extensions = [
    EditorView.contentAttributes.of(attributes),
    EditorView.lineWrapping,
    SPIDER_SQL.language,
    syntaxHighlighting(highlighting),
    themes[readOnly],
  ];
  if (readOnly) {
    extensions.push(EditorState.readOnly.of(true), EditorView.editable.of(false));
  } else {
    extensions.push(
      history(),
      drawSelection(),
      highlightSpecialChars(),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      autocompletion({ icons: false, maxRenderedOptions: 10 }),
      SPIDER_SQL.language.data.of({ autocomplete: sqlWordSource }),
      // Tab accepts an open completion and otherwise moves the focus on, as in any form: the editor is no trap.
      keymap.of([{ key: "Tab", run: acceptCompletion }, ...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap,
        ...completionKeymap, ...lintKeymap]),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        if (validating) schedule(delay);
        onChange?.(update.state.doc.toString());
      }),
    );
    if (schema) extensions.push(SPIDER_SQL.language.data.of({ autocomplete: schemaCompletionSource(schema) }));
    if (placeholder) extensions.push(placeholderText(placeholder));
    if (onRun) {
      // Above the default keymap, whose Mod-Enter inserts a blank line.
      extensions.push(Prec.highest(keymap.of([{ key: "Mod-Enter", preventDefault: true, run: (view) => {
        onRun(view.state.doc.toString());
        return true;
      } }])));
    }
  }

  // The caret starts at the end: an expert who is given a query goes on from there.
  const stateOf = (text) => EditorState.create({ doc: text, selection: { anchor: text.length }, extensions });
  const view = new EditorView({ parent, state: stateOf(value ?? "") });

  function schedule(wait) {
    clearTimeout(timer);
    timer = setTimeout(validate, wait);
  }

  function show(validation, diagnostics) {
    view.dispatch(setDiagnostics(view.state, diagnostics));
    if (problems) {
      if (validation) showProblems(problems, validation);
      else problems.replaceChildren();
    }
    onValidation?.(validation);
  }

  async function validate() {
    clearTimeout(timer);
    if (!validating) return null;
    const mine = ++ticket;
    const text = view.state.doc.toString();
    if (!text.trim()) {
      show(null, []);
      return null;
    }
    let validation;
    try {
      validation = await postSql(validateUrl, text);
    } catch {
      return null;  // offline for a moment: the next keystroke tries again
    }
    // A newer request is under way (answers can overtake each other), or the text moved on: its answer will come.
    if (mine !== ticket || view.state.doc.toString() !== text) return null;
    show(validation, diagnosticsFor(validation, text, view.state.doc));
    return validation;
  }

  if (validating && view.state.doc.length) schedule(0);

  return {
    view,
    value: () => view.state.doc.toString(),
    setValue(text) {
      view.setState(stateOf(text ?? ""));
      if (validating) schedule(0);
    },
    insert(text) {
      view.dispatch(view.state.replaceSelection(text), { userEvent: "input", scrollIntoView: true });
      view.focus();
    },
    focus: () => view.focus(),
    validate,
    destroy() {
      clearTimeout(timer);
      ticket += 1;
      view.destroy();
    },
  };
}

/**
 * Replace an element that shows SQL as text (a <pre>, server-rendered and pretty-printed) by a read-only editor with
 * the same text, highlighted; its id and data-testid move to the editor's outer element. Returns the handle.
 */
export function showSqlReadOnly(element, { label = "SQL" } = {}) {
  const host = document.createElement("div");
  host.className = "sql-display";
  if (element.id) host.id = element.id;
  if (element.dataset.testid) host.dataset.testid = element.dataset.testid;
  const editor = createSqlEditor(host, { value: element.textContent.trim(), readOnly: true, label });
  element.replaceWith(host);
  return editor;
}
