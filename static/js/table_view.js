// Shared table rendering and paging: the database browser and both chat rooms show table content the same way.

import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

export function renderTable(container, columns, rows, { headings = null } = {}) {
  // `headings`: what to head the columns with instead of their names (the readable names, on the worker's screen).
  const table = document.createElement("table");
  table.className = "data";
  const head = table.createTHead().insertRow();
  columns.forEach((name, index) => {
    const th = document.createElement("th");
    th.textContent = headings?.[index] ?? name;
    head.appendChild(th);
  });
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const value of row) {
      const cell = tr.insertCell();
      // NULL is shown as a word, greyed, so that it is not mistaken for the string "NULL" or an empty string.
      if (value === null) {
        cell.textContent = "NULL";
        cell.className = "null";
      } else if (typeof value === "object") {
        renderBoundedCell(cell, value);
      } else {
        cell.textContent = String(value);
        cell.title = cell.textContent;  // long values are cut to one line by the CSS; the tooltip shows them whole
      }
    }
  }
  container.replaceChildren(table);
  return table;
}

// Sizes as the platform's limits are given (MAX_DATABASE_UPLOAD_MB): 1 MB = 1024 KB = 1024 * 1024 bytes.
export function formatBytes(bytes) {
  if (bytes < 1024) return interpolate(ngettext("%(count)s byte", "%(count)s bytes", bytes), { count: bytes }, true);
  const [amount, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / (1024 * 1024), "MB"];
  return `${formatNumber(amount, { maximumFractionDigits: amount < 10 ? 1 : 0 })} ${unit}`;
}

// A table page's cell the server bounded (annotation/databases/table_page.py): a BLOB as its size, a long text cut, with
// its full size, so that a 40 MB value never reaches the browser whole.
function renderBoundedCell(cell, value) {
  const mark = document.createElement("span");
  mark.className = "muted cut-mark";
  if ("blob" in value) {
    mark.textContent = interpolate(gettext("BLOB, %(size)s"), { size: formatBytes(value.blob) }, true);
    cell.replaceChildren(mark);
    cell.title = interpolate(ngettext("A BLOB of %(count)s byte, not shown", "A BLOB of %(count)s bytes, not shown", value.blob),
      { count: formatNumber(value.blob) }, true);
  } else {
    mark.textContent = interpolate(gettext(" (%(size)s, cut)"), { size: formatBytes(value.bytes) }, true);
    cell.replaceChildren(document.createTextNode(`${value.cut}…`), mark);
    cell.title = interpolate(ngettext("The first %(count)s character of %(bytes)s bytes",
      "The first %(count)s characters of %(bytes)s bytes", value.cut.length),
    { count: formatNumber(value.cut.length), bytes: formatNumber(value.bytes) }, true);
  }
}

// The page URLs all end in /tables/<index>/; templates hand over the URL of table 0 (built with {% url %}).
export function tableUrl(urlOfTableZero, index, page) {
  return urlOfTableZero.replace(/\/tables\/0\/$/, `/tables/${index}/`) + `?page=${page}`;
}

/**
 * Pages through one table at a time: fetches {table, columns, rows, total, page, pages} and renders it.
 * `elements` holds the content container and, optionally, title, pager, prev, next and info elements.
 */
export class TablePager {
  constructor(urlOfTableZero, elements, { titleFor = null, readable = false } = {}) {
    // `readable`: head the columns with their readable names (a worker's screen: they write no SQL).
    this.url = urlOfTableZero;
    this.el = elements;
    this.readable = readable;
    this.titleFor = titleFor || ((data) => interpolate(ngettext("%(table)s (%(count)s row)", "%(table)s (%(count)s rows)",
      data.total), { table: data.table, count: formatNumber(data.total) }, true));
    this.index = null;
    this.page = 1;
    this.pages = 1;
    this.el.prev?.addEventListener("click", () => this.show(this.index, this.page - 1));
    this.el.next?.addEventListener("click", () => this.show(this.index, this.page + 1));
  }

  async show(index, page = 1) {
    const response = await fetch(tableUrl(this.url, index, page), { credentials: "same-origin" });
    if (!response.ok) {
      this.el.content.textContent = interpolate(gettext("Could not load this table (%(status)s)."),
        { status: response.status }, true);
      return null;
    }
    const data = await response.json();
    Object.assign(this, { index, page: data.page, pages: data.pages });
    if (this.el.title) this.el.title.textContent = this.titleFor(data);
    renderTable(this.el.content, data.columns, data.rows, { headings: this.readable ? data.readable_columns : null });
    if (this.el.pager) this.el.pager.hidden = data.pages <= 1;
    if (this.el.info) {
      this.el.info.textContent = interpolate(gettext("page %(page)s of %(pages)s"),
        { page: formatNumber(data.page), pages: formatNumber(data.pages) }, true);
    }
    if (this.el.prev) this.el.prev.disabled = data.page <= 1;
    if (this.el.next) this.el.next.disabled = data.page >= data.pages;
    return data;
  }
}
