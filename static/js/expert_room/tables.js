// The expert room's database browser: each table's structure, or its content a page at a time (table_view.js).

import { TablePager } from "../table_view.js";
import { $ } from "./dom.js";
import { root } from "./state.js";

const pager = new TablePager(root.dataset.tableUrl, {
  title: $("table-title"),
  content: $("table-content"),
  pager: $("table-pager"),
  info: $("page-info"),
  prev: $("prev-page"),
  next: $("next-page"),
});
let openIndex = 0;
let view = "structure";

function showTable(index) {
  openIndex = index;
  document.querySelectorAll(".table-tab").forEach((tab) => {
    const on = Number(tab.dataset.index) === index;
    tab.classList.toggle("active", on);
    tab.setAttribute("aria-selected", on);
  });
  document.querySelectorAll("[data-structure]").forEach((s) => { s.hidden = Number(s.dataset.structure) !== index; });
  if (view === "content") pager.show(index);
}
function showView(name) {
  view = name;
  document.querySelectorAll(".view-tab").forEach((b) => b.classList.toggle("active", b.dataset.view === name));
  $("structure-view").hidden = name !== "structure";
  $("content-view").hidden = name !== "content";
  if (name === "content" && pager.index !== openIndex) pager.show(openIndex);
}
// The tabs come disabled from the server and are enabled here, once a click does something.
document.querySelectorAll(".table-tab").forEach((tab) => {
  tab.addEventListener("click", () => showTable(Number(tab.dataset.index)));
  tab.disabled = false;
});
document.querySelectorAll(".view-tab").forEach((b) => {
  b.addEventListener("click", () => showView(b.dataset.view));
  b.disabled = false;
});
showTable(0);
