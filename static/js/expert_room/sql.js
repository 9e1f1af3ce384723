// The expert room's SQL panel: the editor (sql_codemirror.js: completion from the schema, inline validation,
// Ctrl/Cmd+Enter runs) holding the shown turn's SQL, starting from the previous question's SQL, running it, and the
// turn's runs, each drawn once as a card with its result and the button that sends it to the user (asking first
// when it is probably not the result meant), marked once sent with whether it matches the goal.

import { resultTable, rowSummary } from "../chat_log.js";
import { createSqlEditor, labelRunButton, runErrorText, showSqlReadOnly } from "../sql_codemirror.js";
import { $, clearErrors, element, placeChildren } from "./dom.js";
import {
  draftOf, keepDraft, looseRuns, room, root, schema, send, sendTracked, sharing, startedOn, turns, typing,
} from "./state.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";

// Set while the editor's text is replaced for another turn, so that this is not taken for the expert typing.
let switchingTurn = false;
export const sqlEditor = createSqlEditor($("sql-editor"), {
  schema,
  validateUrl: root.dataset.validateUrl,
  problems: $("sql-problems"),
  placeholder: "SELECT …",
  label: gettext("SQL"),
  id: "sql-input",
  testId: "sql-input",
  onRun: () => $("run-sql").click(),
  onChange: (text) => {
    if (switchingTurn) return;
    startedOn(room.shownTurn);  // the editor's own change, however the text came (typed, pasted, completed)
    draftOf(room.shownTurn).sql = text;
    keepDraft(room.shownTurn);
    $("start-from-last").hidden = !previousSharedSql(room.shownTurn) || Boolean(text.trim());
    typing();
  },
});
labelRunButton($("run-sql"));
document.querySelectorAll("[data-insert]").forEach((b) => {
  b.addEventListener("click", () => sqlEditor.insert(b.dataset.insert));
});
for (const goal of document.querySelectorAll("[data-sql-display]")) showSqlReadOnly(goal, { label: gettext("Goal SQL") });

// The editor's text for another turn: not the expert typing.
export function loadSql(sql) {
  switchingTurn = true;
  sqlEditor.setValue(sql);
  switchingTurn = false;
}

// The SQL of the newest result sent before this turn: follow-up questions usually start from it.
function previousSharedSql(seq) {
  const earlier = [...turns.values()].filter((t) => t.seq < seq && t.sharedRun).pop();
  return earlier?.runs.find((r) => r.seq === earlier.sharedRun)?.sql || "";
}

export function drawStartFromLast(turn) {
  $("start-from-last").hidden = !turn || !previousSharedSql(turn.seq) || Boolean(sqlEditor.value().trim());
}

$("start-from-last").addEventListener("click", () => {
  const sql = previousSharedSql(room.shownTurn);
  sqlEditor.setValue(sql);
  draftOf(room.shownTurn).sql = sql;
  delete draftOf(room.shownTurn).fromModel;  // no longer the model's draft in the editor
  keepDraft(room.shownTurn);
  $("start-from-last").hidden = true;
  sqlEditor.focus();
});

$("run-sql").addEventListener("click", () => {
  const sql = sqlEditor.value().trim();
  if (!sql) return;
  clearErrors();
  const shownTurn = room.shownTurn;
  // Which model draft the editor was loaded with: the server compares the texts and records kept/edited/replaced.
  const fromModel = shownTurn === null ? null : Number(draftOf(shownTurn).fromModel) || null;
  const fields = shownTurn === null ? { sql } : { sql, turn: shownTurn };
  send("sql_run", fromModel ? { ...fields, from_model: fromModel } : fields);
});

// --- The runs -------------------------------------------------------------------------------------------------------

const runCards = new Map();  // run seq -> its card (tables can be big: draw each once)

function runCard(run, number) {
  let card = runCards.get(run.seq);
  if (card) return card;
  card = element("div", "run");
  const result = run.result || {};
  card.append(runHead(run, number), element("pre", "mono sql-block", run.sql));
  if (result.ok) {
    if (result.spider_error) card.append(spiderWarning(result.spider_error));
    card.append(resultTable(result), runFoot(run, card));
  } else {
    card.append(element("p", "problem", runErrorText(result.error)));
    card.classList.add("failed");
  }
  card.dataset.run = run.seq;
  runCards.set(run.seq, card);
  return card;
}

function runHead(run, number) {
  const head = element("div", "run-head");
  const result = run.result || {};
  head.append(element("strong", "", interpolate(gettext("Run %(number)s"), { number }, true)));
  head.append(element("span", "muted", result.ok
    ? interpolate(gettext(" · %(rows)s · %(ms)s ms"),
      { rows: rowSummary(result), ms: formatNumber(Math.round(result.elapsed_ms ?? 0)) }, true)
    : gettext(" · failed")));
  head.append(element("span", "sent-mark", gettext("✓ Sent to the user — this turn's SQL")));
  return head;
}

// Not a failure: the result is real and may be sent. But the dataset stores SQL in Spider's encoding, and review's
// final validation refuses what cannot be encoded: better to hear it now than at review.
function spiderWarning(error) {
  const warning = element("p", "notice warn spider-warning",
    interpolate(gettext("Runs, but cannot be encoded under the Spider protocol: %(error)s. Final validation will "
      + "refuse it; rewrite it if you can."), { error }, true));
  warning.setAttribute("role", "status");
  return warning;
}

// The share button, and beside it the room kept for whether the sent result is the goal's (a badge landing after the
// share): the card keeps its height when the badge comes.
function runFoot(run, card) {
  const foot = element("div", "run-foot");
  const status = element("span", "run-status");
  foot.append(shareButton(run, card), status);
  return foot;
}

function shareButton(run, card) {
  const button = element("button", "share", gettext("Send this result to the user"));
  button.type = "button";
  const share = () => {
    clearErrors();
    card.querySelector(".share-guard")?.remove();
    sendTracked("share_result", { turn: run.turn, run: run.seq });
    button.disabled = true;
    button.textContent = gettext("Sending…");
  };
  button.addEventListener("click", () => {
    const warnings = shareWarnings(run);
    if (!warnings.length) {
      share();
      return;
    }
    // A result that is probably not the one meant is sent only when the expert says so (it ships in the release).
    card.querySelector(".share-guard")?.remove();
    const { guard, anyway } = shareGuard(warnings, share);
    card.append(guard);
    anyway.focus();
  });
  return button;
}

function shareGuard(warnings, share) {
  const guard = element("div", "notice warn share-guard");
  guard.setAttribute("role", "alertdialog");
  guard.dataset.testid = "share-guard";
  guard.append(element("strong", "", gettext("Send this result anyway?")));
  const list = element("ul");
  for (const warning of warnings) list.append(element("li", "", warning));
  const anyway = element("button", "danger", gettext("Send anyway"));
  anyway.type = "button";
  anyway.addEventListener("click", share);
  const cancel = element("button", "", gettext("Cancel"));
  cancel.type = "button";
  cancel.addEventListener("click", () => guard.remove());
  guard.append(list, anyway, document.createTextNode(" "), cancel);
  return { guard, anyway };
}

// Why sharing this run may be a mistake: nothing in it, a newer successful run of the same turn, or SQL that the
// release's Spider encoding (and so review's final validation) will refuse.
function shareWarnings(run) {
  const warnings = [];
  const result = run.result || {};
  if (result.ok && (result.total_rows ?? result.row_count) === 0) {
    warnings.push(gettext("The result has no rows: the user will see an empty table."));
  }
  const turn = turns.get(run.turn);
  const newer = (turn ? turn.runs : looseRuns).filter((other) => other.seq > run.seq && other.result?.ok);
  if (newer.length) warnings.push(gettext("This is not the latest successful run of this question: a newer one exists."));
  if (result.spider_error) {
    warnings.push(interpolate(gettext("It cannot be encoded under the Spider protocol: %(error)s."),
      { error: result.spider_error }, true));
  }
  return warnings;
}

// The goal-match label says where it was checked (docs/protocol.md): the goal's own SQL written again, the test
// suite (then a search for a database that tells the two apart, which runs after the share and arrives as a later
// label), the original database alone while the suite is not built, or (a label from before suites) the shared rows
// against the goal's.
function goalMatchText(turn) {
  if (turn.goalMatchOn === "same query") return gettext("the goal SQL itself");
  if (turn.goalMatchOn === "suite") {
    // A match is only that no database told them apart (the suite's, and those searched for this pair).
    const count = turn.goalMatchDatabases;
    const values = { count: formatNumber(count), searched: formatNumber(turn.goalMatchSearched || 0) };
    if (!turn.goalMatch) {
      return interpolate(ngettext("not the goal SQL's meaning (checked on %(count)s database of the test suite)",
        "not the goal SQL's meaning (checked on %(count)s databases of the test suite)", count), values, true);
    }
    if (turn.goalMatchSearch === "due") {
      return interpolate(ngettext(
        "no difference from the goal SQL found (checked on %(count)s database of the test suite; searching further…)",
        "no difference from the goal SQL found (checked on %(count)s databases of the test suite; searching further…)",
        count), values, true);
    }
    if (turn.goalMatchSearched) {
      return interpolate(ngettext(
        "no difference from the goal SQL found (checked on %(count)s database of the test suite and %(searched)s made for this pair)",
        "no difference from the goal SQL found (checked on %(count)s databases of the test suite and %(searched)s made for this pair)",
        count), values, true);
    }
    return interpolate(ngettext("no difference from the goal SQL found (checked on %(count)s database of the test suite)",
      "no difference from the goal SQL found (checked on %(count)s databases of the test suite)", count), values, true);
  }
  if (turn.goalMatchOn === "original") {
    return turn.goalMatch ? gettext("same result as the goal SQL (original database only: no test suite yet)")
      : gettext("not the goal SQL's result (original database only: no test suite yet)");
  }
  return turn.goalMatch ? gettext("same result as the goal SQL") : gettext("not the goal SQL's result");
}

export function drawRuns(turn) {
  const runs = turn ? turn.runs : looseRuns;
  const cards = runs.map((run, i) => runCard(run, i + 1)).reverse();  // newest first: the one just run is on top
  for (const card of cards) drawRunState(card, turn);
  placeChildren($("runs"), cards);
  $("runs-empty").hidden = cards.length > 0;
}

// Whether the card's run is the one sent for the turn (and then whether it is the goal's result), and its button.
function drawRunState(card, turn) {
  const sent = turn && Number(card.dataset.run) === turn.sharedRun;
  card.classList.toggle("sent", Boolean(sent));
  const status = card.querySelector(".run-status");
  status?.replaceChildren();
  if (status && sent && turn.goalMatch !== undefined && turn.goalMatch !== null) {
    // Whether this question's result is already the goal's: the dialogue may be near its end.
    const text = goalMatchText(turn);
    const badge = element("span", `pill goal-badge ${turn.goalMatch ? "ok" : ""}`, text);
    badge.dataset.testid = "goal-badge";
    badge.title = text;  // at most two lines are shown
    status.append(badge);
  }
  const share = card.querySelector("button.share");
  if (share) {
    // A share on its way stays "Sending…" through every redraw until it lands or is refused: pressed again, it would
    // send the table twice.
    const sending = !sent && sharing(Number(card.dataset.run));
    share.disabled = Boolean(sent) || !turn || sending;
    share.textContent = sent ? gettext("Sent") : sending ? gettext("Sending…") : gettext("Send this result to the user");
  }
}
