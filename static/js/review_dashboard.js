// The review dashboard's agreement panel: fetched after the page is shown, because computing it folds every reviewed
// dialogue (the server caches it until the review moves on), and the queues and the list must not wait for it.

import { formatNumber, formatPercent, gettext, interpolate } from "./i18n.js";

const panel = document.getElementById("agreement");
const body = panel.querySelector(".agreement-body");

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
}

const percent = (value) => (value === null || value === undefined ? "–" : formatPercent(value));

function table(headings, rows, testid) {
  const node = document.createElement("table");
  node.className = "data stats small";
  node.dataset.testid = testid;
  const head = node.createTHead().insertRow();
  for (const heading of headings) {
    const th = document.createElement("th");
    th.textContent = heading;
    head.appendChild(th);
  }
  const tbody = node.createTBody();
  for (const values of rows) {
    const row = tbody.insertRow();
    values.forEach((value, index) => cell(row, value, index ? "num" : ""));
  }
  return node;
}

async function load() {
  let figures;
  try {
    const response = await fetch(panel.dataset.url, { credentials: "same-origin" });
    figures = await response.json();
  } catch {
    body.textContent = gettext("The figures could not be loaded.");
    return;
  }
  body.replaceChildren();
  body.className = "agreement-body";
  const reviewers = figures.reviewers || [];
  if (!reviewers.length) {
    body.textContent = gettext("No pass has been decided yet.");
    body.className = "agreement-body muted";
    return;
  }
  const headings = [gettext("Pass · reviewer"), gettext("Dialogues"), gettext("Turns"), gettext("Acts changed"),
    gettext("SQL changed"), gettext("Responses changed"), gettext("Utterances changed"), gettext("SQL corrected"),
    gettext("Same result")];
  const line = (label, item) => [label, formatNumber(item.dialogues), formatNumber(item.turns),
    percent(item.changed_share.acts), percent(item.changed_share.sql), percent(item.changed_share.response),
    percent(item.changed_share.utterance), formatNumber(item.queries_corrected), percent(item.execution_match_share)];
  const rows = [];
  for (const [number, item] of Object.entries(figures.passes)) {
    rows.push(line(interpolate(gettext("Pass %(number)s (all)"), { number }, true), item));
  }
  for (const item of reviewers) {
    rows.push(line(interpolate(gettext("Pass %(number)s · %(reviewer)s"), { number: item.pass, reviewer: item.reviewer }, true),
      item));
  }
  body.appendChild(table(headings, rows, "agreement-passes"));
  const kappas = Object.entries(figures.user_acts_kappa).map(([name, value]) => [
    name.replaceAll("_", " "), value === null ? "–" : formatNumber(value, { minimumFractionDigits: 3, maximumFractionDigits: 3 }),
  ]);
  const rejections = figures.rejections;
  const reasons = Object.entries(rejections.reasons).map(([reason, count]) => [reason, formatNumber(count)]);
  const side = document.createElement("div");
  side.className = "stat-tables";
  side.append(
    table([gettext("User acts: Cohen's kappa"), ""], kappas, "agreement-kappa"),
    table([interpolate(gettext("Rejected: %(rejected)s of %(decided)s (%(share)s)"), {
      rejected: formatNumber(rejections.rejected), decided: formatNumber(rejections.dialogues_decided),
      share: percent(rejections.rate),
    }, true), ""], reasons, "agreement-rejections"),
  );
  body.appendChild(side);
}

load();
