// What a person types in a room, kept and measured the same way on every page that sends text.
//
// Kept: what is typed and not yet sent stays in this tab (sessionStorage, per dialogue, side and turn) so that a
// reload or Back loses nothing; a page drops it once the text is sent (the socket's outbox holds it from there) or
// the dialogue ends. Measured: the server refuses a text over its limit (dialogs.room.text_limits, handed to the page
// as the "text-limits" JSON), counted as the server counts (characters, after trimming): the page counts the same
// way, shows the count as the limit nears and refuses before sending, never cutting.

import { formatNumber, gettext, interpolate } from "./i18n.js";

// Characters as the server counts them (Python's len: code points, not UTF-16 units), after trimming.
export function textLength(text) {
  return [...text.trim()].length;
}

const number = (n) => formatNumber(n);

// The count shows once the text reaches this share of its limit.
const NEAR_LIMIT = 0.8;

export class LimitedField {
  /** field: a textarea or input; counter: the element that shows the count (described by the field);
   *  limit: characters; what: the text's name in a sentence ("Your question"). */
  constructor(field, counter, { limit, what }) {
    this.field = field;
    this.counter = counter;
    this.limit = limit;
    this.what = what;
    counter.setAttribute("aria-live", "polite");
    field.setAttribute("aria-describedby", counter.id);
    field.addEventListener("input", () => this.draw());
    this.draw();
  }

  get length() {
    return textLength(this.field.value);
  }

  draw() {
    const n = this.length;
    const over = n > this.limit;
    this.counter.hidden = n < this.limit * NEAR_LIMIT;
    this.counter.textContent = over
      ? interpolate(gettext("%(count)s / %(limit)s characters: %(over)s too many"),
        { count: number(n), limit: number(this.limit), over: number(n - this.limit) }, true)
      : interpolate(gettext("%(count)s / %(limit)s characters"), { count: number(n), limit: number(this.limit) }, true);
    this.counter.classList.toggle("over", over);
    if (over) this.field.setAttribute("aria-invalid", "true");
    else this.field.removeAttribute("aria-invalid");
  }

  /** Why the text cannot be sent as it is (over its limit), or null. */
  refusal() {
    const n = this.length;
    if (n <= this.limit) return null;
    return interpolate(gettext("%(what)s is %(count)s characters long: %(limit)s at most. Shorten it by %(over)s to "
      + "send it (nothing has been cut)."),
    { what: this.what, count: number(n), limit: number(this.limit), over: number(n - this.limit) }, true);
  }
}

export class KeptText {
  /** side: "worker" or "expert" (one tab may hold either room of a dialogue, never both). */
  constructor(dialogueId, side) {
    this.key = `wozsql:dialogue-${dialogueId}:${side}:unsent`;
  }

  /** {turn: {field: text}} as kept; turn keys are strings. */
  all() {
    try {
      return JSON.parse(sessionStorage.getItem(this.key) || "{}");
    } catch {
      return {};
    }
  }

  get(turn) {
    return this.all()[String(turn)] || {};
  }

  /** Keep `fields` (empty ones are dropped) for `turn`. */
  set(turn, fields) {
    const all = this.all();
    const kept = Object.fromEntries(Object.entries(fields).filter(([, value]) => value && value.length));
    if (Object.keys(kept).length) all[String(turn)] = kept;
    else delete all[String(turn)];
    this._write(all);
  }

  drop(turn) {
    const all = this.all();
    if (!(String(turn) in all)) return;
    delete all[String(turn)];
    this._write(all);
  }

  clear() {
    try {
      sessionStorage.removeItem(this.key);
    } catch { /* storage disabled: nothing was kept */ }
  }

  _write(all) {
    try {
      if (Object.keys(all).length) sessionStorage.setItem(this.key, JSON.stringify(all));
      else sessionStorage.removeItem(this.key);
    } catch { /* storage full or disabled: the page still works, only a reload loses the unsent text */ }
  }
}
