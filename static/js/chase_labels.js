// CHASE's turn labels for one user turn, as the expert edits them (the expert's room and the solo page): the intent
// (relation to the previous SQL turn, detected by the platform and correctable), contextual phenomena, and schema
// links (proposed from the SQL, confirmed or edited by pointing at words). Saving sends one `turn_labels` message;
// the server checks everything again (annotation.labels.acts) and the log is the truth (docs/chase.md).

import { gettext, interpolate } from "./i18n.js";

export const LABEL_KEYS = [
  "intent", "contextual_phenomena", "schema_linking", "pragmatics", "question_style", "thematic_relations",
];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A turn as the label editor reads it, from its events: call `foldLabels(turn, payload)` for each turn_labels. */
export function newLabelState() {
  return { labels: {}, detected: {}, tokens: null, draft: null, confirmed: false };
}

export function foldLabels(state, payload) {
  for (const key of LABEL_KEYS) if (key in payload) state.labels[key] = payload[key];
  if (payload.source === "detected") {
    for (const key of LABEL_KEYS) if (key in payload) state.detected[key] = payload[key];
    if (payload.tokens) state.tokens = payload.tokens;
    if (payload.draft) state.draft = payload.draft;
    if ("followed" in payload) state.followed = payload.followed;
  } else {
    state.confirmed = true;
  }
}

export class LabelEditor {
  /**
   * container: an empty element; schema: the tables.json entry; vocabulary: {categories, relations, phenomena};
   * onSave(fields): send {contextual_phenomena, intent?, schema_linking?} for the shown turn.
   */
  constructor(container, { schema, vocabulary, onSave }) {
    this.schema = schema;
    this.vocabulary = vocabulary;
    this.onSave = onSave;
    this.turn = null;
    this.edit = null;
    this.saving = false;
    this._build(container);
  }

  _build(container) {
    const intent = element("div", "label-block");
    intent.dataset.testid = "intent-block";
    const head = element("div", "label-head", gettext("Relation to the previous question "));
    this.recommendedNote = element("span", "muted small");
    this.recommendedNote.dataset.testid = "intent-recommended";
    head.append(this.recommendedNote);
    this.intentRow = element("div", "intent-row");
    this.category = element("select");
    this.category.setAttribute("aria-label", gettext("Intent category"));
    for (const [key, name] of Object.entries(this.vocabulary.categories)) {
      const option = element("option", "", name);
      option.value = key;
      this.category.append(option);
    }
    this.detectedNote = element("span", "muted small");
    this.detectedNote.dataset.testid = "intent-detected";
    this.intentRow.append(this.category, this.detectedNote);
    this.relations = element("div", "relation-grid");
    this.relations.setAttribute("aria-label", gettext("Relations"));
    this._buildRelations();
    intent.append(head, this.intentRow, this.relations);
    this.intentBlock = intent;

    const phenomena = element("div", "label-block");
    phenomena.append(element("div", "label-head", this.vocabulary.phenomena_required
      ? gettext("Contextual phenomena (required)") : gettext("Contextual phenomena")));
    this.phenomena = element("div", "act-grid phenomena");
    for (const [name, description] of Object.entries(this.vocabulary.phenomena)) {
      const label = element("label", "act");
      label.title = description;
      const box = element("input");
      box.type = "checkbox";
      box.value = name;
      label.append(box, ` ${name}`);
      this.phenomena.append(label);
    }
    phenomena.append(this.phenomena);

    // CHASE's labels of the question's wording: one choice each (its own values, shown in English), or none.
    const wording = element("div", "label-block wording");
    wording.append(element("div", "label-head", gettext("Wording")));
    this.wording = {};
    for (const [key, title] of [["pragmatics", gettext("Phrasing")], ["question_style", gettext("Form")]]) {
      const label = element("label", "wording-choice", `${title} `);
      const select = element("select");
      select.dataset.testid = `label-${key}`;
      const none = element("option", "", gettext("— not labelled"));
      none.value = "";
      select.append(none);
      for (const [value, description] of Object.entries(this.vocabulary[key] || {})) {
        const option = element("option", "", `${description} (${value})`);
        option.value = value;
        select.append(option);
      }
      select.addEventListener("change", () => {
        this.edit[key] = select.value;
        this._changed(key);
      });
      label.append(select);
      wording.append(label);
      this.wording[key] = select;
    }

    // SParC's thematic relations of a follow-up question (one or more, or none); the detected intent's relations
    // propose some (vocabulary.thematic_of_relation), which a person takes or not.
    const thematic = element("div", "label-block thematic");
    thematic.dataset.testid = "thematic-block";
    const thematicHead = element("div", "label-head", gettext("Thematic relation (SParC) "));
    this.thematicNote = element("span", "muted small");
    this.thematicNote.dataset.testid = "thematic-proposal";
    this.thematicTake = element("button", "link", gettext("take the proposal"));
    this.thematicTake.type = "button";
    this.thematicTake.dataset.testid = "thematic-take";
    thematicHead.append(this.thematicNote, " ", this.thematicTake);
    this.thematic = element("div", "act-grid thematic-choices");
    for (const [name, description] of Object.entries(this.vocabulary.thematic_relations || {})) {
      const label = element("label", "act");
      label.title = description;
      const box = element("input");
      box.type = "checkbox";
      box.value = name;
      label.append(box, ` ${description.split(":")[0]}`);
      this.thematic.append(label);
    }
    thematic.append(thematicHead, this.thematic);
    this.thematicBlock = thematic;

    const linking = element("div", "label-block");
    const linkHead = element("div", "label-head", gettext("Schema linking "));
    linkHead.append(element("span", "muted small",
      gettext("— proposed from the SQL: click a word (shift-click to extend), pick what it names, add; × removes.")));
    this.tokens = element("div", "link-tokens");
    this.tokens.dataset.testid = "link-tokens";
    const add = element("div", "link-add");
    this.entity = element("select");
    this.entity.setAttribute("aria-label", gettext("What the selected words name"));
    for (const { key, text } of this._entityOptions()) {
      const option = element("option", "", text);
      option.value = key;
      this.entity.append(option);
    }
    this.addButton = element("button", "", gettext("Add link"));
    this.addButton.type = "button";
    add.append(this.entity, this.addButton);
    this.linkList = element("ul", "link-list");
    this.linkList.dataset.testid = "link-list";
    linking.append(linkHead, this.tokens, add, this.linkList);
    this.linkBlock = linking;

    const foot = element("div", "label-foot");
    this.saveButton = element("button", "", gettext("Save CHASE labels"));
    this.saveButton.type = "button";
    this.state = element("span", "step-state");
    this.state.dataset.testid = "labels-state";
    foot.append(this.saveButton, this.state);
    // The labels in a body of their own above the foot: a page may keep the body's room fixed (the expert's room
    // does, so that labels detected later never push what lies below them), the save button staying in view.
    const body = element("div", "label-body");
    body.dataset.testid = "label-body";
    body.append(intent, phenomena, thematic, wording, linking);
    container.replaceChildren(body, foot);

    this.category.addEventListener("change", () => this._categoryChanged());
    this.phenomena.addEventListener("change", () => {
      this.edit.phenomena = this._checkedPhenomena();
      this._changed("phenomena");
    });
    this.thematic.addEventListener("change", () => {
      this.edit.thematic = this._checkedThematic();
      this._changed("thematic");
    });
    this.thematicTake.addEventListener("click", () => {
      this.edit.thematic = this._thematicProposal();
      this._changed("thematic");
      this._drawThematic();
    });
    this.addButton.addEventListener("click", () => this._addLink());
    this.saveButton.addEventListener("click", () => this._save());
  }

  _entityOptions() {
    const { table_names: tables, column_names: columns } = this.schema;
    const options = tables.map((name, id) => (
      { key: `table:${id}`, text: interpolate(gettext("table: %(table)s"), { table: name }, true) }));
    columns.forEach(([table, name], id) => {
      if (table >= 0) {
        options.push({ key: `column:${id}`,
          text: interpolate(gettext("column: %(column)s"), { column: `${tables[table]}.${name}` }, true) });
      }
    });
    columns.forEach(([table, name], id) => {
      if (table >= 0) {
        options.push({ key: `value:${id}`,
          text: interpolate(gettext("a value of %(column)s"), { column: `${tables[table]}.${name}` }, true) });
      }
    });
    return options;
  }

  /** Show `turn` ({labels, detected, tokens, recommended, confirmed}); its unsaved edits survive a redraw. */
  show(turn) {
    if (turn !== this.turn || !turn.labelEdit) {
      this.turn = turn;
      if (!turn.labelEdit) turn.labelEdit = this._editFrom(turn);
    }
    this.edit = turn.labelEdit;
    this.draw();
  }

  /** The log changed this turn's labels (their save landed): its saved state is the truth again, but for what the
   *  person changed after the save left, which stays as they left it, unsaved. */
  reset(turn) {
    const before = turn.labelEdit;
    turn.labelEdit = null;
    if (before?.since?.size) {
      const edit = this._editFrom(turn);
      for (const field of before.since) edit[field] = before[field];
      Object.assign(edit, { dirty: true, touched: new Set(before.since), since: null, selection: before.selection });
      turn.labelEdit = edit;
    }
    if (turn === this.turn) this.show(turn);
  }

  /** Labels detected by the platform landed (after a share, or a later search): the edit follows them, but what the
   *  person changed and has not saved stays as they left it. Nothing replaces their work without them meaning it. */
  detected(turn) {
    const before = turn.labelEdit;
    const edit = this._editFrom(turn);
    if (before) {
      // Also while a save is on its way (its fields touched, no longer dirty): until it lands, it is the truth.
      for (const field of before.touched) edit[field] = before[field];
      // Words picked for a link stay picked.
      Object.assign(edit, { dirty: before.dirty, touched: before.touched, since: before.since,
        selection: before.selection });
    }
    turn.labelEdit = edit;
    if (turn === this.turn) this.show(turn);
  }

  setSaving(saving) {
    this.saving = saving;
    if (this.turn) this._drawState();
  }

  _editFrom(turn) {
    const intent = turn.labels.intent || null;
    return {
      intent: intent ? { category: intent.category, relations: [...intent.relations] } : null,
      phenomena: [...(turn.labels.contextual_phenomena || [])],
      pragmatics: turn.labels.pragmatics || "",
      question_style: turn.labels.question_style || "",
      thematic: [...(turn.labels.thematic_relations || [])],
      links: (turn.labels.schema_linking || []).map((span) => ({ ...span, entity: { ...span.entity } })),
      dirty: false,
      touched: new Set(),  // the fields the person changed (kept until their saved labels land)
      since: null,  // once saved: the fields changed after the save left (kept when it lands)
      selection: null,
    };
  }

  _describe(intent) {
    const relations = intent.relations.map((r) => `${r} ${this.vocabulary.relations[r][0]}`).join(", ");
    return `${this.vocabulary.categories[intent.category]}${relations ? ` · ${relations}` : ""}`;
  }

  _relationText(relation) {
    return relation.split("+").map((r) => `${r} ${this.vocabulary.relations[r]?.[0] || ""}`).join(" + ");
  }

  draw() {
    const turn = this.turn;
    const edit = this.edit;
    const labelled = Boolean(turn.labels.intent || turn.detected.intent);
    this.intentBlock.hidden = !labelled && !turn.recommended;
    this.intentRow.hidden = !labelled;
    this.relations.hidden = !labelled;
    if (!edit.intent) edit.intent = { category: "same_instances", relations: [] };
    this.category.value = edit.intent.category;
    this.detectedNote.textContent = turn.detected.intent
      ? interpolate(gettext("detected: %(intent)s"), { intent: this._describe(turn.detected.intent) }, true) : "";
    const recommended = turn.recommended;
    if (recommended) {
      const detected = turn.detected.intent;
      // Judged on the server when the result was shared (the suggested relation, and what it named used in the SQL).
      const followed = detected && turn.followed === true;
      let text = gettext("— suggested to the user: %(category)s (%(relation)s)");
      if (detected) {
        text = followed ? gettext("— suggested to the user: %(category)s (%(relation)s), followed")
          : gettext("— suggested to the user: %(category)s (%(relation)s), not followed");
      }
      this.recommendedNote.textContent = interpolate(text, {
        category: this.vocabulary.categories[recommended.category],
        relation: this._relationText(recommended.relation),
      }, true);
    } else {
      this.recommendedNote.textContent = "";
    }
    if (labelled) this._drawRelations();
    for (const box of this.phenomena.querySelectorAll("input")) box.checked = edit.phenomena.includes(box.value);
    for (const [key, select] of Object.entries(this.wording)) select.value = edit[key] || "";
    this.thematicBlock.hidden = !labelled;
    this._drawThematic();
    this._drawLinks();
    this._drawState();
  }

  // Built once, ticked on each draw: a redraw (any event of the room) never replaces a box under a click.
  _buildRelations() {
    this.relationBoxes = new Map();
    for (const [name, [title, category]] of Object.entries(this.vocabulary.relations)) {
      const label = element("label", `relation cat-${category}`);
      label.title = `${this.vocabulary.categories[category]}: ${title}`;
      const box = element("input");
      box.type = "checkbox";
      box.value = name;
      box.addEventListener("change", () => {
        const intent = this.edit.intent;
        const chosen = new Set(intent.relations);
        if (box.checked) chosen.add(name); else chosen.delete(name);
        intent.relations = Object.keys(this.vocabulary.relations).filter((r) => chosen.has(r));
        this._changed("intent");
      });
      label.append(box, ` ${name} ${title}`);
      this.relations.append(label);
      this.relationBoxes.set(name, box);
    }
  }

  _drawRelations() {
    for (const [name, box] of this.relationBoxes) box.checked = this.edit.intent.relations.includes(name);
  }

  /** The thematic relations the detected intent's relations propose, in the vocabulary's order. */
  _thematicProposal() {
    const of = this.vocabulary.thematic_of_relation || {};
    const proposed = new Set((this.turn.detected.intent?.relations || []).map((r) => of[r]).filter(Boolean));
    return Object.keys(this.vocabulary.thematic_relations || {}).filter((name) => proposed.has(name));
  }

  _drawThematic() {
    const proposal = this._thematicProposal();
    const names = this.vocabulary.thematic_relations || {};
    this.thematicNote.textContent = proposal.length
      ? interpolate(gettext("— proposed from the SQL: %(relations)s"),
        { relations: proposal.map((name) => names[name].split(":")[0]).join(", ") }, true)
      : gettext("— no proposal from the SQL");
    this.thematicTake.hidden = !proposal.length;
    for (const box of this.thematic.querySelectorAll("input")) box.checked = this.edit.thematic.includes(box.value);
  }

  _checkedThematic() {
    return [...this.thematic.querySelectorAll("input:checked")].map((input) => input.value);
  }

  _entityName(span) {
    const { table_names: tables, column_names: columns } = this.schema;
    const entity = span.entity;
    if (span.type === "table") return interpolate(gettext("table %(table)s"), { table: tables[entity.tableId] }, true);
    const [table, column] = columns[entity.columnId];
    const where = `${tables[table]}.${column}`;
    return span.type === "value"
      ? interpolate(gettext("value %(value)s of %(column)s"), { value: entity.value, column: where }, true)
      : interpolate(gettext("column %(column)s"), { column: where }, true);
  }

  _words(span) {
    return this.turn.tokens.slice(span.beg, span.end + 1).join(" ");
  }

  _drawLinks() {
    const turn = this.turn;
    const edit = this.edit;
    this.linkBlock.hidden = !turn.tokens;
    if (!turn.tokens) return;
    const linkedAt = new Map();
    edit.links.forEach((span, index) => { for (let i = span.beg; i <= span.end; i++) linkedAt.set(i, index); });
    const selection = edit.selection;
    this._buildTokens(turn.tokens);
    this.tokenChips.forEach((chip, index) => {
      const span = linkedAt.has(index) ? edit.links[linkedAt.get(index)] : null;
      chip.className = "token";
      if (span) chip.classList.add("linked", `link-${span.type}`);
      chip.title = span ? this._entityName(span) : "";
      if (selection && index >= selection.beg && index <= selection.end) chip.classList.add("selected");
    });
    this.addButton.disabled = !selection;
    this._drawLinkList();
  }

  // The words' chips, built again only for other words: a redraw never replaces a chip under a click.
  _buildTokens(tokens) {
    const key = JSON.stringify(tokens);
    if (key === this.tokensKey) return;
    this.tokensKey = key;
    this.tokenChips = tokens.map((token, index) => {
      const chip = element("button", "token", token);
      chip.type = "button";
      chip.addEventListener("click", (e) => {
        const edit = this.edit;
        edit.selection = e.shiftKey && edit.selection
          ? { beg: Math.min(edit.selection.beg, index), end: Math.max(edit.selection.end, index) }
          : { beg: index, end: index };
        this._drawLinks();
      });
      return chip;
    });
    this.tokens.replaceChildren(...this.tokenChips);
  }

  // The links, built again only when they change (the same reason).
  _drawLinkList() {
    const links = this.edit.links;
    const key = JSON.stringify([this.tokensKey, links]);
    if (key === this.linksKey) return;
    this.linksKey = key;
    this.linkList.replaceChildren(...links.map((span, index) => {
      const item = element("li", `link-item link-${span.type}`);
      item.append(element("span", "link-words", `“${this._words(span)}”`), document.createTextNode(" → "),
        element("span", "link-entity", this._entityName(span)));
      const remove = element("button", "link remove", "×");
      remove.type = "button";
      remove.title = gettext("Remove this link");
      remove.setAttribute("aria-label",
        interpolate(gettext("Remove the link of “%(words)s”"), { words: this._words(span) }, true));
      remove.addEventListener("click", () => {
        this.edit.links.splice(index, 1);
        this._changed("links");
        this._drawLinks();
      });
      item.append(remove);
      return item;
    }));
  }

  _drawState() {
    const turn = this.turn;
    let text = "";
    if (this.saving) text = gettext("saving…");
    else if (this.edit.dirty) text = gettext("unsaved changes");
    else if (turn.confirmed) text = gettext("saved");
    else if (turn.detected.intent || turn.detected.schema_linking?.length) text = gettext("proposed: check and save");
    this.state.textContent = text;
    this.state.className = `step-state ${turn.confirmed && !this.edit.dirty && !this.saving ? "done" : "todo"}`;
  }

  /** The person changed `field` of the edit (intent, phenomena, pragmatics, question_style, thematic, links). */
  _changed(field) {
    this.edit.touched.add(field);
    this.edit.since?.add(field);
    this.edit.dirty = true;
    this._drawState();
  }

  _checkedPhenomena() {
    return [...this.phenomena.querySelectorAll("input:checked")].map((input) => input.value);
  }

  _categoryChanged() {
    const edit = this.edit;
    const category = this.category.value;
    // Relations that do not belong to the new category go (a combination keeps all but Change Entity).
    edit.intent = {
      category,
      relations: edit.intent.relations.filter((r) => {
        const of = this.vocabulary.relations[r][1];
        return category === "combination" ? of !== "different_entity" : of === category;
      }),
    };
    this._changed("intent");
    this._drawRelations();
  }

  _addLink() {
    const edit = this.edit;
    if (!edit.selection) return;
    const [type, id] = this.entity.value.split(":");
    const number = Number(id);
    const { table_names_original: tables, column_names_original: columns } = this.schema;
    const words = this.turn.tokens.slice(edit.selection.beg, edit.selection.end + 1).join(" ");
    let entity;
    if (type === "table") entity = { tableId: number, value: tables[number] };
    else if (type === "column") entity = { columnId: number, value: columns[number][1] };
    else entity = { column: columns[number][1], columnId: number, value: `"${words}"` };
    // A new link replaces the ones it overlaps: a word names one thing.
    edit.links = edit.links.filter((span) => span.end < edit.selection.beg || span.beg > edit.selection.end);
    edit.links.push({ beg: edit.selection.beg, end: edit.selection.end, entity, type });
    edit.links.sort((a, b) => a.beg - b.beg);
    edit.selection = null;
    this._changed("links");
    this._drawLinks();
  }

  _save() {
    const fields = { contextual_phenomena: this._checkedPhenomena() };
    for (const key of Object.keys(this.wording)) fields[key] = this.edit[key] || "";
    if (!this.intentRow.hidden) {
      fields.intent = this.edit.intent;
      fields.thematic_relations = this.edit.thematic;
    }
    if (this.turn.tokens) fields.schema_linking = this.edit.links;
    this.edit.dirty = false;
    this.edit.since = new Set();
    this.onSave(fields);
  }
}
