// Marking the words of a question an ambiguity concerns (annotation/labels/acts.py check_ambiguity: a span of token indexes,
// both included, over the tokens the server sends). The first press marks where the span begins, the second where it
// ends (either order; the same word twice for one word). Shared by the expert's room and the review screen.

import { gettext, interpolate } from "./i18n.js";

/** The span and the pending start after a press on word `index`, `start` being the pending start (or undefined). */
export function spanAfterPress(start, index) {
  if (start === undefined) return { start: index, span: { beg: index, end: index } };
  return { start: undefined, span: { beg: Math.min(start, index), end: Math.max(start, index) } };
}

/** Draw `tokens` into `container` as buttons, the span's pressed, the pending start outlined. */
export function drawSpanWords(container, tokens, span, start, onPress) {
  container.replaceChildren(...tokens.map((token, index) => {
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "token";
    chip.textContent = token;
    chip.dataset.index = index;
    const inside = Boolean(span && index >= span.beg && index <= span.end);
    chip.classList.toggle("selected", inside);
    chip.classList.toggle("span-start", start === index);
    chip.setAttribute("aria-pressed", String(inside));
    chip.addEventListener("click", () => onPress(index));
    return chip;
  }));
}

/** What the span is, in words, for the line beside the tokens. */
export function spanSummary(tokens, span, start) {
  if (start !== undefined) {
    return interpolate(gettext("From “%(word)s”: now press the last word."), { word: tokens[start] }, true);
  }
  if (span) return interpolate(gettext("Marked: “%(words)s”"), { words: tokens.slice(span.beg, span.end + 1).join(" ") }, true);
  return gettext("No words marked.");
}
