// The worker's room: read the tables, then see the goal and chat. Workers never receive SQL, so none can be shown.

import { ChatLog, ENDED_STATUSES, PresenceBadge } from "./chat_log.js";
import { TablePager } from "./table_view.js";
import { returnToPlatform } from "./crowd_return.js";
import { KeptText, LimitedField } from "./typed_text.js";
import { WsClient } from "./wsclient.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

const root = document.getElementById("room");
const dialogueId = root.dataset.dialogue;
const $ = (id) => document.getElementById(id);
const revealKey = `wozsql:dialogue-${dialogueId}:revealed`;
const LIMITS = JSON.parse($("text-limits").textContent);  // dialogs.room.text_limits: the server refuses beyond them
// The half-typed question, kept in this tab until it is sent (it holds only what the worker typed: never any SQL).
const kept = new KeptText(dialogueId, "worker");
const NEXT_QUESTION = "next";
const pageTitle = document.title;  // the template's, in the page's language

// --- Step 1: the tables ---------------------------------------------------------------------------------------------

const pager = new TablePager(root.dataset.tableUrl, {
  title: $("table-title"),
  content: $("table-content"),
  pager: $("table-pager"),
  info: $("page-info"),
  prev: $("prev-page"),
  next: $("next-page"),
}, {
  titleFor: (data) => interpolate(ngettext("%(table)s · %(count)s row", "%(table)s · %(count)s rows", data.total),
    { table: data.readable_table || data.table, count: formatNumber(data.total) }, true),
  readable: true,
});

function openTable(index) {
  document.querySelectorAll(".table-tab").forEach((tab) => {
    const on = Number(tab.dataset.index) === index;
    tab.classList.toggle("active", on);
    tab.setAttribute("aria-selected", on);
  });
  document.querySelectorAll("[data-links]").forEach((p) => { p.hidden = Number(p.dataset.links) !== index; });
  pager.show(index);
}
// The tabs come disabled from the server and are enabled here, once a click does something.
document.querySelectorAll(".table-tab").forEach((tab) => {
  tab.addEventListener("click", () => openTable(Number(tab.dataset.index)));
  tab.disabled = false;
});
if (document.querySelector(".table-tab")) openTable(0);

let revealed = false;
function reveal() {
  if (revealed) return;
  revealed = true;
  try { sessionStorage.setItem(revealKey, "1"); } catch { /* the log's own utterances reveal it again */ }
  $("step-tables").hidden = true;
  $("step-chat").hidden = false;
  // The same browser moves beside the chat: the worker can look things up while asking.
  $("tables-aside").appendChild($("table-browser"));
  chat.scroll();
  $("message").focus();
}
$("reveal").addEventListener("click", reveal);

$("help-open").addEventListener("click", () => $("related-help").showModal());

// --- The chat -------------------------------------------------------------------------------------------------------

const chat = new ChatLog($("chat-log"), { viewer: "worker", names: { worker: gettext("You"), expert: gettext("Expert") } });
let state = null;
let over = false;
let completionCode = "";

// What the hint says of the bonus: only what the worker's campaign pays, by its own rule (the server says whether
// this dialogue has reached it: dialogs.selectors.bonus_progress); nothing when no bonus was promised.
function canEndText(answered, bonus) {
  const values = { answered: formatNumber(answered), bonus: formatNumber(bonus?.min_questions ?? 0) };
  let text;
  if (!bonus) {
    text = ngettext("%(answered)s question answered with data. You can end now.",
      "%(answered)s questions answered with data. You can end now.", answered);
  } else if (bonus.earned) {
    text = ngettext("%(answered)s question answered with data. You can end now: this dialogue has the %(bonus)s good "
      + "questions the bonus asks for.", "%(answered)s questions answered with data. You can end now: this dialogue "
      + "has the %(bonus)s good questions the bonus asks for.", answered);
  } else {
    text = ngettext("%(answered)s question answered with data. You can end now — or keep going: the bonus asks for at "
      + "least %(bonus)s good related questions.", "%(answered)s questions answered with data. You can end now — or "
      + "keep going: the bonus asks for at least %(bonus)s good related questions.", answered);
  }
  return interpolate(text, values, true);
}

function updateEnd() {
  const button = $("end");
  const hint = $("end-hint");
  // Stopping early is offered while ending is not: a worker who may end is asked to end (and is paid as such).
  $("stop").hidden = !state || over || state.can_end;
  if (!state || over) {
    button.disabled = true;
    hint.textContent = "";
    return;
  }
  const remaining = Math.max(0, state.min_questions - state.answered_questions);
  button.disabled = !state.can_end;
  hint.textContent = state.can_end
    ? canEndText(state.answered_questions, state.bonus)
    : interpolate(ngettext("Ask %(remaining)s more question about the data before you can end (%(answered)s of "
      + "%(least)s answered with a table; other messages do not count).", "Ask %(remaining)s more questions about the "
      + "data before you can end (%(answered)s of %(least)s answered with a table; other messages do not count).",
    remaining), { remaining: formatNumber(remaining), answered: formatNumber(state.answered_questions),
      least: formatNumber(state.min_questions) }, true);
}

let endedBySupervisor = false;  // kept: the state that follows the end event does not say who ended it
let stoppedEarly = false;  // likewise: the worker's own "Stop early"

function finish(code, status, reason, by = "") {
  over = true;
  kept.clear();
  endedBySupervisor ||= by === "supervisor";
  const bySupervisor = endedBySupervisor;
  if (reason && (status === "terminated" || bySupervisor)) {
    $("end-reason").textContent = interpolate(bySupervisor ? gettext("The supervisor's reason: %(reason)s")
      : gettext("The expert's reason: %(reason)s"), { reason }, true);
    $("end-reason").hidden = false;
  }
  if (code) completionCode = code;
  $("message").disabled = true;
  $("send").disabled = true;
  $("message").placeholder = gettext("The dialogue has ended.");
  updateEnd();
  const titles = {
    completed: gettext("Thank you — the dialogue is complete"),
    terminated: gettext("The expert ended the dialogue"),
    abandoned: gettext("The dialogue ended because a participant left"),
    dropped: gettext("The dialogue has ended"),
  };
  stoppedEarly ||= status === "abandoned" && by === "worker";  // their own "Stop early"
  const stopped = stoppedEarly;
  $("finished-title").textContent = bySupervisor ? gettext("A supervisor ended the dialogue")
    : stopped ? gettext("You stopped the dialogue early") : titles[status] || gettext("The dialogue has ended");
  $("completion-code").textContent = completionCode || "…";
  $("finished").hidden = false;
  returnToPlatform(root, $("return-note"), completionCode);  // a worker from a crowd platform goes back with the code
  $("partner").hidden = true;
}

// --- Sent back to the queue -----------------------------------------------------------------------------------------

// The pairing is cancelled and the worker waits again in the place they had. The page stays until they press the
// button: the reason is theirs to read, and the place is kept meanwhile, because this page holds a lobby socket (an
// entry with none is closed after LOBBY_RECONNECT_GRACE_SECONDS, docs/protocol.md). It says when an expert is paired
// with them, and the button then opens the new room.
let lobbyWatch = null;
function sentBack(reason = "") {
  over = true;
  kept.clear();
  $("message").disabled = true;
  $("send").disabled = true;
  $("message").placeholder = gettext("This pairing was cancelled.");
  $("partner").hidden = true;
  updateEnd();
  if (reason) $("requeued-reason").textContent = reason;
  $("requeued").hidden = false;
  if (lobbyWatch) return;
  $("requeued").scrollIntoView({ block: "nearest" });
  const button = $("back-to-queue");
  const newRoom = (url) => {
    $("requeued-place").textContent = gettext("An expert is ready for you now.");
    button.href = url;
    button.textContent = gettext("Go to your new dialogue");
  };
  lobbyWatch = new WsClient("/ws/lobby/", {
    handlers: {
      message: (message) => {
        if (message.type === "paired") newRoom(message.url);
        else if (message.type === "status" && message.dialogue) newRoom(message.url);
        else if (message.type === "status" && message.position) {
          $("requeued-place").textContent = interpolate(gettext("Your place in the queue: %(position)s of %(total)s."),
            { position: formatNumber(message.position), total: formatNumber(message.waiting_workers) }, true);
        } else if (message.type === "released") {
          lobbyWatch.stop();
          $("requeued-title").textContent = gettext("Your wait has ended");
          $("requeued-place").textContent = interpolate(gettext("%(message)s Your completion code: %(code)s"),
            { message: message.message, code: message.completion_code }, true);
          button.hidden = true;
        }
      },
    },
  }).start();
}

$("copy-code").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(completionCode);
    $("copy-code").textContent = gettext("Copied");
  } catch {
    $("copy-code").textContent = gettext("Select the code and copy it");
  }
});

// --- Presence -------------------------------------------------------------------------------------------------------

const partner = new PresenceBadge($("partner"), $("typing-line"), "expert");

// --- The socket -----------------------------------------------------------------------------------------------------

// Questions sent but not yet shown back by the server (offline, or on their way): drawn greyed so nothing seems lost.
// One stays until the event its ack names has been drawn, so it never blinks out before its real bubble appears.
const sending = new Map();  // client id -> {text, seq}
function drawPending() {
  $("pending").replaceChildren(...[...sending.values()].map(({ text }) => {
    const bubble = document.createElement("div");
    bubble.className = "bubble worker mine sending";
    const note = document.createElement("div");
    note.className = "meta";
    note.textContent = gettext("sending…");
    const body = document.createElement("div");
    body.className = "text";
    body.textContent = text;
    bubble.append(note, body);
    return bubble;
  }));
}

const errorBox = $("composer-error");
function showError(text) {
  errorBox.textContent = text;
  errorBox.hidden = !text;
}

const CONNECTION_TEXT = { connecting: gettext("Connecting…"), open: gettext("Connected"), failed: gettext("Disconnected") };

const client = new WsClient(`/ws/dialogues/${dialogueId}/`, {
  resumeKey: `dialogue-${dialogueId}`,
  handlers: {
    ack: (ack) => {
      const item = sending.get(ack.id);
      if (!item) return;
      if (ack.seq <= client.lastSeq) sending.delete(ack.id);
      else item.seq = ack.seq;
      drawPending();
    },
    connection: ({ state: s, delayMs }) => {
      const badge = $("connection");
      badge.textContent = s === "retrying"
        ? interpolate(gettext("Connection lost — retrying in %(seconds)s s"), { seconds: Math.ceil(delayMs / 1000) }, true)
        : CONNECTION_TEXT[s];
      badge.className = `connection ${s}`;
    },
    state: (message) => {
      state = message;
      $("goal-question").textContent = message.goal_question;
      if (!over) {
        partner.fromState(message);
      }
      if (ENDED_STATUSES.includes(message.status) && message.requeued) sentBack();
      else if (ENDED_STATUSES.includes(message.status)) {
        reveal();
        finish(message.completion_code, message.status);
      }
      updateEnd();
    },
    event: (event, { history }) => {
      for (const [id, item] of sending) if (item.seq && item.seq <= event.seq) sending.delete(id);
      drawPending();
      if (event.kind === "utterance") reveal();  // the worker already asked: step 1 is behind them
      if (event.author_role === "expert") $("typing-line").textContent = "";  // what they typed has arrived
      chat.add(event);
      onSuggestion(event);
      if (event.kind === "end" && event.payload.requeued) {
        // The expert never came, or a supervisor sent the worker back: they keep their place in the queue, read why,
        // and go back when they choose to.
        sentBack(event.author_role === "supervisor"
          ? interpolate(gettext("A supervisor sent you back to the queue, in the place you had. Their reason: %(reason)s"),
            { reason: event.payload.reason }, true)
          : event.payload.reason || gettext("The expert did not join. You are back in the queue, first in line."));
      } else if (event.kind === "end") {
        reveal();
        finish(event.payload.completion_code, event.payload.status, event.payload.reason, event.author_role);
      }
      if (!history && event.author_role === "expert" && document.hidden) {
        document.title = interpolate(gettext("(new) %(title)s"), { title: pageTitle }, true);
      }
    },
    presence: (message) => !over && partner.update(message),
    error: (error) => {
      if (error.id && error.id === askedAnother) {
        askedAnother = null;
        $("suggestion-hint").textContent = error.message;
        $("suggestion-another").hidden = error.code === "too_many";
        $("suggestion-another").disabled = false;
        return;
      }
      showError(error.message);
      if (error.code === "too_early") $("end").disabled = !state?.can_end;
      if (error.id && sending.delete(error.id)) drawPending();
    },
    fatal: (_code, text) => {
      $("fatal").textContent = text;
      $("fatal").hidden = false;
      $("message").disabled = true;
      $("send").disabled = true;
    },
  },
});

// --- The suggestion for the next question (an intent recommended after each answered question) ------------------

let suggestedFor = null;  // the answered question the suggestion builds on
let askedAnother = null;  // the client id of a pending "suggest something else"
let newestQuestion = 0;  // the seq of the worker's newest question
function onSuggestion(event) {
  // A suggestion follows its answer a moment later: one that comes after the next question has been asked is stale.
  if (event.kind === "recommendation" && event.payload.turn >= newestQuestion) {
    suggestedFor = event.payload.turn;
    askedAnother = null;
    $("suggestion-text").textContent = event.payload.text;
    $("suggestion-another").disabled = false;
    $("suggestion-another").hidden = false;
    $("suggestion-hint").textContent = gettext("Follow it in your own words, or ask whatever you like.");
    $("suggestion").hidden = over;
  } else if (event.kind === "utterance" || event.kind === "end") {
    if (event.kind === "utterance") newestQuestion = event.seq;
    $("suggestion").hidden = true;  // asked (or over): the suggestion has done its work
  }
}
$("suggestion-another").addEventListener("click", () => {
  if (suggestedFor === null || over) return;
  $("suggestion-another").disabled = true;
  askedAnother = client.send("recommend", { turn: suggestedFor });
});

document.addEventListener("visibilitychange", () => { if (!document.hidden) document.title = pageTitle; });

const question = new LimitedField($("message"), $("message-count"), { limit: LIMITS.text, what: gettext("Your question") });
let refusedForLength = false;  // the error shown is the length refusal: it goes once the text fits

$("composer").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("message").value.trim();
  if (!text || over) return;
  const refusal = question.refusal();
  if (refusal) {
    showError(refusal);  // refused whole, never cut: the text stays in the box to be shortened
    refusedForLength = true;
    return;
  }
  showError("");
  sending.set(client.send("utterance", { text }), { text, seq: null });
  drawPending();
  $("message").value = "";
  question.draw();
  kept.drop(NEXT_QUESTION);  // the outbox holds it now, until the server has it
  $("message").focus();
});
$("message").addEventListener("keydown", (e) => {
  // Enter sends, Shift+Enter breaks the line: the usual chat convention.
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    $("composer").requestSubmit();
  }
});
$("message").addEventListener("input", () => {
  kept.set(NEXT_QUESTION, { text: $("message").value });
  if (refusedForLength && !question.refusal()) {
    refusedForLength = false;
    showError("");
  }
  client.typing();
});
$("end").addEventListener("click", () => {
  if (!state?.can_end || over) return;
  $("end-dialog").showModal();  // ending is for good: asked once more
});
$("end-dialog").addEventListener("close", () => {
  if ($("end-dialog").returnValue !== "confirm" || !state?.can_end || over) return;
  showError("");
  $("end").disabled = true;
  client.send("end");
});

$("stop").addEventListener("click", () => {
  if (!state || state.can_end || over) return;
  const bonus = state.bonus && !state.bonus.earned ? gettext(" This dialogue has not earned the bonus.") : "";
  $("stop-dialog-text").textContent = gettext("The dialogue ends here, with fewer questions than it asks for, and you "
    + "get your completion code at once. Whatever you asked so far is kept.") + bonus;
  $("stop-dialog").showModal();  // stopping is for good: asked once more
});
$("stop-dialog").addEventListener("close", () => {
  if ($("stop-dialog").returnValue !== "confirm" || !state || state.can_end || over) return;
  showError("");
  $("stop").hidden = true;
  const reason = $("stop-reason").value.trim();
  client.send("stop", reason ? { reason } : {});
});

if (sessionStorage.getItem(revealKey) === "1") reveal();
// What was typed before a reload or Back, and not sent.
if (kept.get(NEXT_QUESTION).text && !$("message").value) {
  $("message").value = kept.get(NEXT_QUESTION).text;
  question.draw();
}
// Questions this tab sent before a reload and that were never acked: the client resends them; show them meanwhile.
for (const message of client.pending()) if (message.type === "utterance") sending.set(message.id, { text: message.text });
drawPending();
client.start();
