// The chat as both rooms show it: one block per user turn, with the expert's result tables, response and any drop
// warning under the question they answer (a late answer still lands under its own question, not at the bottom).

import { renderTable } from "./table_view.js";
import { formatNumber, formatTime, gettext, interpolate, ngettext } from "./i18n.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function clock(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : formatTime(date);
}

// "showing N of M" when the sandbox cut the result; the plain count otherwise.
export function rowSummary({ row_count: shown, truncated, total_rows: total }) {
  const values = { shown: formatNumber(shown), total: formatNumber(total ?? 0) };
  if (!truncated) return interpolate(ngettext("%(shown)s row", "%(shown)s rows", shown), values, true);
  if (total == null) {
    return interpolate(ngettext("showing the first %(shown)s row (total unknown)",
      "showing the first %(shown)s rows (total unknown)", shown), values, true);
  }
  return interpolate(ngettext("showing %(shown)s of %(total)s row", "showing %(shown)s of %(total)s rows", total), values,
    true);
}

export function resultTable(payload) {
  const box = element("div", "result-table");
  renderTable(box, payload.columns || [], payload.rows || []);
  return box;
}

// The statuses a dialogue never leaves (dialogs.models.ENDED_STATUSES): both room screens stop taking input there.
export const ENDED_STATUSES = ["completed", "abandoned", "terminated", "dropped"];

const END_TEXT = {
  completed: { worker: gettext("You ended the dialogue."), expert: gettext("The worker ended the dialogue.") },
  terminated: { worker: gettext("The expert ended the dialogue."), expert: gettext("You ended the dialogue.") },
  abandoned: { worker: gettext("The dialogue ended because a participant left."),
    expert: gettext("The dialogue ended because a participant left.") },
};

// What a presence badge or typing line says of one side ("worker" or "expert"): both rooms and a supervisor's watch.
// `state`: connected, joining, typing, reconnecting (with the seconds left before the dialogue ends) or anything else
// (not connected).
export function presenceText(side, state, secondsLeft = 0) {
  const worker = side === "worker";
  switch (state) {
    case "connected":
      return worker ? gettext("Worker: connected") : gettext("Expert: connected");
    case "joining":
      return worker ? gettext("Worker: joining…") : gettext("Expert: joining…");
    case "typing":
      return worker ? gettext("The worker is typing…") : gettext("The expert is typing…");
    case "reconnecting":
      return interpolate(worker
        ? gettext("Worker: reconnecting… (the dialogue ends in %(seconds)s s if they do not return)")
        : gettext("Expert: reconnecting… (the dialogue ends in %(seconds)s s if they do not return)"),
      { seconds: formatNumber(secondsLeft) }, true);
    default:
      return worker ? gettext("Worker: not connected") : gettext("Expert: not connected");
  }
}

export class ChatLog {
  /**
   * viewer: "worker" or "expert" (whose messages are drawn on the right).
   * names: {worker, expert} labels. onTurnClick(seq): optional, makes questions clickable.
   */
  constructor(container, { viewer, names, onTurnClick = null }) {
    this.container = container;
    this.viewer = viewer;
    this.names = names;
    this.onTurnClick = onTurnClick;
    this.turns = new Map();
    this.seen = new Set();
    this.empty = element("p", "chat-empty muted", gettext("No messages yet."));
    container.replaceChildren(this.empty);
  }

  /** Draw one event; returns the element drawn (or null for kinds the chat does not show). Idempotent per seq. */
  add(event) {
    if (this.seen.has(event.seq)) return null;
    this.seen.add(event.seq);
    const p = event.payload || {};
    let node = null;
    switch (event.kind) {
      case "utterance":
        node = this._turn(event);
        break;
      case "result_shared":
        node = this._reply(p.turn, this._result(event));
        break;
      case "response":
        node = this._reply(p.turn, this._bubble("expert", p.text, event));
        node.classList.add("response");
        node.dataset.turn = p.turn;
        break;
      case "drop":
        node = this._reply(p.turn, this._dropNotice(p));
        break;
      case "recommendation":
        // An idea for the next question (CHASE's recommended intent), in the words the worker saw.
        node = this._reply(p.turn, element("div", "notice suggestion-note",
          interpolate(gettext("Suggestion for the next question: %(text)s"), { text: p.text }, true)));
        break;
      case "end":
        node = this._append(element("div", "notice end", this._endText(event)));
        break;
      default:
        return null;  // join/leave are shown as presence, labels and runs by the expert's panel
    }
    this.empty.remove();
    this.scroll();
    return node;
  }

  _endText(event) {
    const p = event.payload || {};
    if (p.stopped_early) {
      // The worker's "Stop early": the reason is the log's ("The worker stopped early: …"), said to both sides.
      return this.viewer === "worker" ? gettext("You stopped the dialogue early.")
        : p.reason || gettext("The worker stopped early.");
    }
    if (event.author_role !== "supervisor") return END_TEXT[p.status]?.[this.viewer] || gettext("The dialogue has ended.");
    // A supervisor's act (docs/protocol.md, "Watching a room"): both sides are told what and why.
    let what = gettext("A supervisor ended the dialogue.");
    if (p.requeued) {
      what = this.viewer === "worker" ? gettext("A supervisor sent you back to the queue.")
        : gettext("A supervisor sent the worker back to the queue.");
    }
    return p.reason ? interpolate(gettext("%(what)s Reason: %(reason)s"), { what, reason: p.reason }, true) : what;
  }

  turnBlock(seq) {
    return this.turns.get(seq) || null;
  }

  scroll() {
    this.container.scrollTop = this.container.scrollHeight;
  }

  _append(node) {
    this.container.appendChild(node);
    return node;
  }

  _bubble(side, text, event) {
    const mine = side === this.viewer;
    const bubble = element("div", `bubble ${side} ${mine ? "mine" : "theirs"}`);
    const meta = element("div", "meta");
    meta.append(element("span", "who", mine ? gettext("You") : this.names[side]), element("span", "when", clock(event.created_at)));
    bubble.append(meta, element("div", "text", text));
    bubble.dataset.seq = event.seq;
    return bubble;
  }

  _turn(event) {
    const block = element("div", "turn");
    block.dataset.turn = event.seq;
    const question = this._bubble("worker", event.payload.text, event);
    question.classList.add("question");
    if (this.onTurnClick) {
      question.tabIndex = 0;
      question.title = gettext("Work on this question");
      question.addEventListener("click", () => this.onTurnClick(event.seq));
      question.addEventListener("keydown", (e) => e.key === "Enter" && this.onTurnClick(event.seq));
    }
    block.append(question, element("div", "turn-extra"), element("div", "replies"));
    this.turns.set(event.seq, block);
    return this._append(block);
  }

  _reply(turn, node) {
    const block = this.turns.get(turn);
    if (block) block.querySelector(".replies").appendChild(node);
    else this._append(node);  // a reply to a turn this screen never saw: still show it
    return node;
  }

  _result(event) {
    const box = this._bubble("expert", "", event);
    box.classList.add("result");
    box.querySelector(".text").replaceWith(
      element("div", "result-caption",
        interpolate(gettext("Result table · %(rows)s"), { rows: rowSummary(event.payload) }, true)),
      resultTable(event.payload),
    );
    return box;
  }

  _dropNotice(payload) {
    const notice = element("div", "notice warn");
    notice.setAttribute("role", "alert");
    notice.append(element("strong", "", gettext("This question does not count. ")),
      element("span", "", payload.warning || ""));
    return notice;
  }
}

// The partner's presence badge and typing line, shared by both rooms. `side` is the partner's: "worker" or "expert".
export class PresenceBadge {
  constructor(badge, typingLine, side) {
    this.badge = badge;
    this.typingLine = typingLine;
    this.side = side;
    this.typingTimer = null;
    this.graceTimer = null;
  }

  set(text, kind) {
    this.badge.textContent = text;
    this.badge.className = `presence ${kind}`;
  }

  // From a `state` message: whether the partner is in the room now.
  fromState(state) {
    if (state.partner_connected) this.set(presenceText(this.side, "connected"), "on");
    else this.set(presenceText(this.side, state.status === "waiting" ? "joining" : "away"), "away");
  }

  // From a `presence` message: connected, typing, or reconnecting with a countdown to the grace period's end.
  update(message) {
    clearTimeout(this.typingTimer);
    clearInterval(this.graceTimer);
    this.typingLine.textContent = "";
    if (message.state === "typing") {
      this.set(presenceText(this.side, "connected"), "on");
      this.typingLine.textContent = presenceText(this.side, "typing");
      this.typingTimer = setTimeout(() => { this.typingLine.textContent = ""; }, 3500);
    } else if (message.state === "connected") {
      this.set(presenceText(this.side, "connected"), "on");
    } else if (message.state === "reconnecting") {
      const until = Date.now() + (message.grace_seconds || 0) * 1000;
      const show = () => {
        const left = Math.max(0, Math.round((until - Date.now()) / 1000));
        this.set(presenceText(this.side, "reconnecting", left), "away");
      };
      show();
      this.graceTimer = setInterval(show, 1000);
    }
  }
}
