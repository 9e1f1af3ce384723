// The expert room's small DOM helpers: an element by id, a new element, the ticked boxes of an act list, children put
// in order without moving those already in place, and the refusals of the server (floating at the foot of the screen).

export const $ = (id) => document.getElementById(id);

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// `parent`'s children made `nodes`, in order, touching only what differs: a node already in its place is never taken
// out and put back (replaceChildren would, and the button the expert has focused there would lose the focus on every
// redraw, a socket frame's included).
export function placeChildren(parent, nodes) {
  nodes.forEach((node, index) => {
    if (parent.children[index] !== node) parent.insertBefore(node, parent.children[index] ?? null);
  });
  while (parent.children.length > nodes.length) parent.lastElementChild.remove();
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
