// The expert room's small DOM helpers: an element by id, a new element, the ticked boxes of an act list, and the
// refusals of the server (floating at the foot of the screen).

export const $ = (id) => document.getElementById(id);

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function checked(containerId) {
  return [...document.querySelectorAll(`#${containerId} input:checked`)].map((input) => input.value);
}

export function setChecked(containerId, values) {
  const wanted = new Set(values || []);
  document.querySelectorAll(`#${containerId} input`).forEach((input) => { input.checked = wanted.has(input.value); });
}

// A new message to the server clears what the server refused before (chat.js adds each refusal).
export function clearErrors() {
  $("panel-errors").replaceChildren();
}
