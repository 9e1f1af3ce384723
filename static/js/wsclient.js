// The one websocket client of the lobby and both rooms (protocol: docs/protocol.md).
//
// What it guarantees to the page: every room event is handed over once, in order, even across reconnects and page
// reloads; every mutating message is delivered at least once and stored once (the server dedupes by client id).
//
// Resume rule. Within one page load the client resumes from the last sequence number it handed over, so nothing is
// replayed. A reload starts from an empty screen, so it says hello with last_seq 0 and the full visible log rebuilds
// the screen; sessionStorage remembers what this tab had already seen (to tell history from news) and the messages
// still waiting for an ack (to resend them, with the same ids, after the reload).

import { gettext } from "./i18n.js";

const NO_RETRY = {
  4401: gettext("You are signed out. Sign in again, then reload this page."),
  4403: gettext("You may not open this page: it is not your dialogue, or your account may not take part."),
  4404: gettext("This dialogue does not exist."),
};
// 4429: this person opened too many sockets lately (WS_OPENS_PER_MINUTE). Not a refusal: retry, but not soon.
const TRY_LATER = 4429;
const TRY_LATER_DELAY_MS = 5_000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;
const HEARTBEAT_MS = 15_000;
// Two missed heartbeats: the connection is dead even if the browser has not noticed (sleeping laptop, lost Wi-Fi).
const SILENCE_LIMIT_MS = 2 * HEARTBEAT_MS + 5_000;
const TYPING_EVERY_MS = 2_000;
const RATE_LIMIT_RETRY_MS = 3_000;

export function newClientId() {
  // randomUUID exists only in secure contexts (https, localhost); getRandomValues exists everywhere.
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  if (globalThis.crypto?.getRandomValues) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

function socketUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

export class WsClient {
  /**
   * path: "/ws/lobby/" or "/ws/dialogues/<id>/".
   * resumeKey: set for rooms (e.g. "dialogue-7"): enables hello/last_seq, seq dedupe and the persistent outbox.
   * handlers: state(msg), event(msg, {history}), presence(msg), ack(msg), error(msg, {pending}), message(msg) for
   *   any other type (lobby status/paired/released), open(), connection({state, delayMs}), fatal(code, text).
   */
  constructor(path, { resumeKey = null, handlers = {} } = {}) {
    this.path = path;
    this.resumeKey = resumeKey;
    this.handlers = handlers;
    this.ws = null;
    this.stopped = false;
    this.delay = FIRST_DELAY_MS;
    this.lastSeq = 0;
    this.lastHeard = Date.now();
    this.lastTyping = 0;
    this.retryTimer = null;
    this.heartbeat = null;
    const stored = this._load();
    this.seenBefore = stored.lastSeq || 0;
    this.outbox = new Map(stored.outbox || []);
  }

  get isOpen() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  start() {
    this.stopped = false;
    this._connect();
    this.heartbeat = setInterval(() => this._beat(), HEARTBEAT_MS);
    return this;
  }

  stop() {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.retryTimer);
    this.ws?.close(1000);
  }

  /** A mutating room message: gets a client id, is kept until its ack and resent (same id) after a reconnect. */
  send(type, fields = {}) {
    const id = newClientId();
    const message = { type, id, ...fields };
    this.outbox.set(id, message);
    this._save();
    if (this.isOpen) this.ws.send(JSON.stringify(message));
    return id;
  }

  /** A message that is only worth sending now (lobby join/leave/status, typing, ping); false when offline. */
  sendNow(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Tell the partner we are typing, at most once every two seconds however fast the keys come. */
  typing() {
    const now = Date.now();
    if (now - this.lastTyping < TYPING_EVERY_MS) return;
    if (this.sendNow({ type: "typing" })) this.lastTyping = now;
  }

  pending() {
    return [...this.outbox.values()];
  }

  _emit(name, ...args) {
    this.handlers[name]?.(...args);
  }

  _connect() {
    clearTimeout(this.retryTimer);
    this._emit("connection", { state: "connecting" });
    const ws = new WebSocket(socketUrl(this.path));
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.lastHeard = Date.now();
      this._emit("connection", { state: "open" });
      if (this.resumeKey) ws.send(JSON.stringify({ type: "hello", last_seq: this.lastSeq }));
      // After hello: the server handles one socket's frames in order, so the resends follow the resume.
      for (const message of this.outbox.values()) ws.send(JSON.stringify(message));
      this._emit("open");
    });
    ws.addEventListener("message", (frame) => this._receive(frame.data));
    ws.addEventListener("close", (closed) => {
      if (this.ws !== ws) return;  // an old socket we already replaced
      if (NO_RETRY[closed.code]) {
        this.stopped = true;
        clearInterval(this.heartbeat);
        this._emit("connection", { state: "failed" });
        this._emit("fatal", closed.code, NO_RETRY[closed.code]);
        return;
      }
      if (this.stopped) return;
      if (closed.code === TRY_LATER) this.delay = Math.max(this.delay, TRY_LATER_DELAY_MS);
      const delayMs = this.delay;
      this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
      this._emit("connection", { state: "retrying", delayMs });
      this.retryTimer = setTimeout(() => this._connect(), delayMs);
    });
  }

  _receive(text) {
    this.lastHeard = Date.now();
    // Only a frame from the server proves the connection works; an accept followed by a close must keep backing off.
    this.delay = FIRST_DELAY_MS;
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    switch (message.type) {
      case "event":
        if (message.seq <= this.lastSeq) return;  // already handed over (a rebroadcast or a resend's echo)
        this.lastSeq = message.seq;
        this._save();
        this._emit("event", message, { history: message.seq <= this.seenBefore });
        return;
      case "ack":
        this.outbox.delete(message.id);
        this._save();
        this._emit("ack", message);
        return;
      case "error": {
        const pending = message.id ? this.outbox.get(message.id) : undefined;
        if (pending && message.code === "rate_limited") {
          // The frame was dropped, not refused: the protocol says resend it later with the same id.
          setTimeout(() => this.outbox.has(message.id) && this.sendNow(pending), RATE_LIMIT_RETRY_MS);
          return;
        }
        if (pending) {
          this.outbox.delete(message.id);  // refused for good: resending would be refused again
          this._save();
        }
        this._emit("error", message, { pending });
        return;
      }
      case "state":
        this._emit("state", message);
        return;
      case "presence":
        this._emit("presence", message);
        return;
      case "pong":
        return;
      default:
        this._emit("message", message);
    }
  }

  _beat() {
    if (!this.isOpen) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
      this.ws.close();  // handled like any lost connection: back-off and resume
      return;
    }
    this.sendNow({ type: "ping" });
  }

  _storageKey() {
    return `wozsql:${this.resumeKey}`;
  }

  _load() {
    if (!this.resumeKey) return {};
    try {
      return JSON.parse(sessionStorage.getItem(this._storageKey()) || "{}");
    } catch {
      return {};
    }
  }

  _save() {
    if (!this.resumeKey) return;
    try {
      const seen = Math.max(this.lastSeq, this.seenBefore);
      sessionStorage.setItem(this._storageKey(), JSON.stringify({ lastSeq: seen, outbox: [...this.outbox] }));
    } catch {
      // Storage full or disabled: resuming within this page still works; only a reload loses the unsent messages.
    }
  }
}
