// The chat as both rooms show it: one block per user turn, with the expert's result tables, response and any drop
// warning under the question they answer (a late answer still lands under its own question, not at the bottom).

import { renderTable } from "./table_view.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function clock(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// "showing N of M" when the sandbox cut the result; the plain count otherwise.
export function rowSummary({ row_count: shown, truncated, total_rows: total }) {
  if (!truncated) return `${shown} row${shown === 1 ? "" : "s"}`;
  return total == null ? `showing the first ${shown} rows (total unknown)` : `showing ${shown} of ${total} rows`;
}

export function resultTable(payload) {
  const box = element("div", "result-table");
  renderTable(box, payload.columns || [], payload.rows || []);
  return box;
}

// The statuses a dialogue never leaves (dialogs.models.ENDED_STATUSES): both room screens stop taking input there.
export const ENDED_STATUSES = ["completed", "abandoned", "terminated", "dropped"];

const END_TEXT = {
  completed: { worker: "You ended the dialogue.", expert: "The worker ended the dialogue." },
  terminated: { worker: "The expert ended the dialogue.", expert: "You ended the dialogue." },
  abandoned: { worker: "The dialogue ended because a participant left.",
    expert: "The dialogue ended because a participant left." },
};

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
    this.empty = element("p", "chat-empty muted", "No messages yet.");
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
        node = this._reply(p.turn, element("div", "notice suggestion-note", `Suggestion for the next question: ${p.text}`));
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
      return this.viewer === "worker" ? "You stopped the dialogue early." : p.reason || "The worker stopped early.";
    }
    if (event.author_role !== "supervisor") return END_TEXT[p.status]?.[this.viewer] || "The dialogue has ended.";
    // A supervisor's act (docs/protocol.md, "Watching a room"): both sides are told what and why.
    const worker = this.viewer === "worker" ? "you" : "the worker";
    const what = p.requeued ? `A supervisor sent ${worker} back to the queue.` : "A supervisor ended the dialogue.";
    return p.reason ? `${what} Reason: ${p.reason}` : what;
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
    meta.append(element("span", "who", mine ? "You" : this.names[side]), element("span", "when", clock(event.created_at)));
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
      question.title = "Work on this question";
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
      element("div", "result-caption", `Result table · ${rowSummary(event.payload)}`),
      resultTable(event.payload),
    );
    return box;
  }

  _dropNotice(payload) {
    const notice = element("div", "notice warn");
    notice.setAttribute("role", "alert");
    notice.append(element("strong", "", "This question does not count. "), element("span", "", payload.warning || ""));
    return notice;
  }
}

// The partner's presence badge and typing line, shared by both rooms. `name` is "Worker" or "Expert".
export class PresenceBadge {
  constructor(badge, typingLine, name) {
    this.badge = badge;
    this.typingLine = typingLine;
    this.name = name;
    this.typingTimer = null;
    this.graceTimer = null;
  }

  set(text, kind) {
    this.badge.textContent = text;
    this.badge.className = `presence ${kind}`;
  }

  // From a `state` message: whether the partner is in the room now.
  fromState(state) {
    if (state.partner_connected) this.set(`${this.name}: connected`, "on");
    else this.set(state.status === "waiting" ? `${this.name}: joining…` : `${this.name}: not connected`, "away");
  }

  // From a `presence` message: connected, typing, or reconnecting with a countdown to the grace period's end.
  update(message) {
    clearTimeout(this.typingTimer);
    clearInterval(this.graceTimer);
    this.typingLine.textContent = "";
    if (message.state === "typing") {
      this.set(`${this.name}: connected`, "on");
      this.typingLine.textContent = `The ${this.name.toLowerCase()} is typing…`;
      this.typingTimer = setTimeout(() => { this.typingLine.textContent = ""; }, 3500);
    } else if (message.state === "connected") {
      this.set(`${this.name}: connected`, "on");
    } else if (message.state === "reconnecting") {
      const until = Date.now() + (message.grace_seconds || 0) * 1000;
      const show = () => {
        const left = Math.max(0, Math.round((until - Date.now()) / 1000));
        this.set(`${this.name}: reconnecting… (the dialogue ends in ${left} s if they do not return)`, "away");
      };
      show();
      this.graceTimer = setInterval(show, 1000);
    }
  }
}
