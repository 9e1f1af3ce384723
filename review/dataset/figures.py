"""Figures of the statistics, drawn with matplotlib for a paper: SVG (text kept as text), PDF (TrueType fonts
embedded, as publishers ask) and PNG. Built on `matplotlib.figure.Figure`, not pyplot, so that concurrent
requests never share a global figure.
"""

from __future__ import annotations

import contextlib
import io
import logging
import warnings

import matplotlib
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, ngettext
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

# fontTools logs every glyph subset of a PDF at INFO; the platform's root logger is at INFO.
logging.getLogger("fontTools").setLevel(logging.WARNING)

FIGURES = {
    "dialogue_lengths": gettext_lazy("Distribution of dialogue lengths (turns = messages)"),
    "user_acts": gettext_lazy("User dialogue acts"),
    "system_acts": gettext_lazy("System dialogue acts"),
    "sql_keywords": gettext_lazy("SQL keyword counts"),
    "keywords_by_turn": gettext_lazy("Share of dialogues whose k-th SQL turn contains a keyword"),
    "hardness": gettext_lazy("SQL hardness (Spider)"),
    "coverage": gettext_lazy("Table and column coverage per database"),
    "intents": gettext_lazy("Intent categories: recommended and asked (CHASE)"),
    # xgettext:no-python-format
    "question_overlap": gettext_lazy("Question token overlap by turn (% of turn j tokens in turn i)"),
    # xgettext:no-python-format
    "sql_overlap": gettext_lazy("SQL token overlap by turn (% of turn j's SQL tokens in turn i's; SParC)"),
    "thematic_relations": gettext_lazy("Thematic relations of follow-up questions (SParC)"),
    "link_matches": gettext_lazy("Schema links: mention against schema item name (CHASE)"),
    "otta_by_collection": gettext_lazy("Components per query by collection mode (OTTA)"),
}
FORMATS = {"svg": "image/svg+xml", "pdf": "application/pdf", "png": "image/png"}
_STYLE = {
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "svg.fonttype": "none",
    "pdf.fonttype": 42,
    "figure.dpi": 100,
}
_COLOR = "#3b5bdb"


def _bars(axes, labels, values, *, horizontal=False, xlabel="", ylabel="") -> None:
    # Counts are whole numbers: no 0.5 ticks on a small selection.
    (axes.xaxis if horizontal else axes.yaxis).set_major_locator(MaxNLocator(integer=True))
    if horizontal:
        positions = range(len(labels))
        axes.barh(list(positions), values, color=_COLOR)
        axes.set_yticks(list(positions), labels)
        axes.invert_yaxis()
        axes.set_xlabel(ylabel or gettext("count"))
    else:
        axes.bar(list(range(len(labels))), values, color=_COLOR)
        axes.set_xticks(list(range(len(labels))), labels, rotation=45 if len(labels) > 6 else 0, ha="right")
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel or gettext("count"))


def _heatmap(figure: Figure, axes, overlap: dict, *, sql: bool = False) -> bool:
    """Earlier turn i down, later turn j across; each cell's mean percent written in it. True when empty."""
    # The first turn is never a later one and the last never an earlier one: their empty column and row are left out.
    turns, percent = overlap["turns"], [row[1:] for row in overlap["percent"][:-1]]
    if not any(value is not None for row in percent for value in row):
        axes.set_axis_off()
        return True
    cells = [[value if value is not None else float("nan") for value in row] for row in percent]
    image = axes.imshow(cells, cmap="Blues", vmin=0, vmax=100)
    for i, row in enumerate(percent):
        for j, value in enumerate(row):
            if value is not None:
                axes.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=7,
                          color="white" if value > 60 else "black")  # fmt: skip
    axes.set_xticks(list(range(len(turns) - 1)), [str(k) for k in turns[1:]])
    axes.set_yticks(list(range(len(turns) - 1)), [str(k) for k in turns[:-1]])
    axes.set_xlabel(gettext("later turn j"))
    axes.set_ylabel(gettext("earlier turn i"))
    figure.colorbar(
        image,
        ax=axes,
        label=gettext("share of turn j's SQL tokens (%)") if sql else gettext("share of turn j's tokens (%)"),
    )
    return False


def _link_matches(axes, matches: dict) -> bool:
    """Stacked bars per item type: exact, partial and no string match. True when there are no links."""
    kinds = ("table", "column")
    left = [0] * len(kinds)
    said = {"exact": gettext("exact"), "partial": gettext("partial"), "none": gettext("none")}
    for match, color in zip(("exact", "partial", "none"), (_COLOR, "#f08c00", "#868e96"), strict=True):
        values = [matches[kind][match] for kind in kinds]
        bars = axes.barh(list(range(len(kinds))), values, left=left, label=said[match], color=color)
        axes.bar_label(bars, labels=[str(v) if v else "" for v in values], label_type="center", fontsize=7)
        left = [a + b for a, b in zip(left, values, strict=True)]
    axes.set_yticks(list(range(len(kinds))), [gettext("tables"), gettext("columns")])
    axes.invert_yaxis()
    axes.set_xlabel(gettext("links"))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend(ncols=3, fontsize=7, frameon=False)
    return not matches["links"]


def _components_by_mode(axes, rows: list[dict]) -> bool:
    """Grouped bars: per OTTA component, the mean count per SQL of each collection mode. True when no SQL."""
    rows = [row for row in rows if row["sql_turns"]]
    if not rows:
        return True
    names = list(rows[0]["components_per_query"])
    width = 0.8 / len(rows)
    colors = (_COLOR, "#f08c00", "#2b8a3e", "#868e96")
    for index, row in enumerate(rows):
        offset = (index - (len(rows) - 1) / 2) * width
        axes.bar([p + offset for p in range(len(names))], [row["components_per_query"][n] for n in names], width,
                 label=f"{row['title']} ({row['sql_turns']} SQL)", color=colors[index % len(colors)])  # fmt: skip
    axes.set_xticks(list(range(len(names))), names)
    axes.set_ylabel(gettext("mean count per SQL"))
    axes.legend(fontsize=7, frameon=False)
    return False


def _thematic(figure, axes, stats) -> bool:
    """Bars: each thematic relation's share of the labels, with its count. True when no follow-up is labelled."""
    thematic = stats["thematic_relations"]
    names = list(thematic["counts"])
    shares = [thematic["percent"][name] or 0 for name in names]
    bars = axes.barh(list(range(len(names))), shares, color=_COLOR)
    axes.bar_label(bars, labels=[str(thematic["counts"][name]) for name in names], padding=2, fontsize=7)
    axes.set_yticks(list(range(len(names))), [_THEMATIC_NAMES.get(name, name) for name in names])
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel(
        gettext("%% of labels (%(labelled)s of %(follow_ups)s follow-ups labelled)")
        % {"labelled": thematic["labelled"], "follow_ups": thematic["follow_ups"]}
    )
    return not thematic["labels"]


_THEMATIC_NAMES = {
    "refinement": "refinement",
    "theme_entity": "theme-entity",
    "theme_property": "theme-property",
    "answer_refinement_theme": "answer refinement/theme",
}


def _dialogue_lengths(figure, axes, stats) -> bool:
    lengths = stats["dialogue_lengths"]
    _bars(
        axes, list(lengths), list(lengths.values()), xlabel=gettext("turns per dialogue"), ylabel=gettext("dialogues")
    )
    return False


def _counts(name: str):
    def draw_counts(figure, axes, stats) -> bool:
        data = {label: count for label, count in stats[name].items() if count}
        _bars(axes, list(data), list(data.values()), horizontal=True)
        return False

    return draw_counts


def _hardness(figure, axes, stats) -> bool:
    data = stats["hardness"]
    _bars(axes, list(data), list(data.values()), xlabel=gettext("hardness"), ylabel=gettext("SQL turns"))
    return False


def _keywords_by_turn(figure, axes, stats) -> bool:
    series = stats["keywords_by_turn"]
    for keyword, values in series["percent"].items():
        axes.plot(series["turns"], values, marker="o", markersize=3, label=keyword)
    axes.set_xlabel(gettext("SQL turn"))
    axes.set_ylabel(gettext("dialogues (%)"))
    axes.set_ylim(0, 100)
    if series["turns"]:
        axes.set_xticks(series["turns"])
        axes.legend(ncols=3, fontsize=7, frameon=False)
    return False


def _coverage(figure, axes, stats) -> bool:
    rows = stats["coverage"]["databases"]
    # Database ids can be in any script; the default font lacks CJK glyphs, so bars are numbered and the page's table
    # names them.
    positions = list(range(1, len(rows) + 1))
    width = 0.4
    axes.bar([p - width / 2 for p in positions], [100 * r["table_coverage"] for r in rows], width,
             label=gettext("tables"), color=_COLOR)  # fmt: skip
    axes.bar([p + width / 2 for p in positions], [100 * r["column_coverage"] for r in rows], width,
             label=gettext("columns"), color="#f08c00")  # fmt: skip
    axes.set_xlabel(gettext("database (numbered as in the coverage table)"))
    axes.set_ylabel(gettext("covered (%)"))
    axes.set_ylim(0, 100)
    if len(rows) <= 40:
        axes.set_xticks(positions)
    axes.legend(frameon=False)
    return False


def _intents(figure, axes, stats) -> bool:
    recommended, asked = stats["intents"]["recommended"], stats["intents"]["asked"]
    positions = list(range(len(asked)))
    width = 0.4
    axes.bar([p - width / 2 for p in positions], list(recommended.values()), width, label=gettext("recommended"),
             color=_COLOR)  # fmt: skip
    axes.bar([p + width / 2 for p in positions], list(asked.values()), width, label=gettext("asked (label)"),
             color="#f08c00")  # fmt: skip
    axes.set_xticks(positions, [label.replace("_", " ") for label in asked], rotation=20, ha="right")
    axes.set_ylabel(gettext("SQL turns"))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend(frameon=False)
    return False


# How each figure of FIGURES is drawn: (figure, axes, stats) -> whether it had nothing to draw.
_DRAWERS = {
    "dialogue_lengths": _dialogue_lengths,
    "user_acts": _counts("user_acts"),
    "system_acts": _counts("system_acts"),
    "sql_keywords": _counts("sql_keywords"),
    "hardness": _hardness,
    "keywords_by_turn": _keywords_by_turn,
    "coverage": _coverage,
    "intents": _intents,
    "question_overlap": lambda figure, axes, stats: _heatmap(figure, axes, stats["question_overlap"]),
    "sql_overlap": lambda figure, axes, stats: _heatmap(figure, axes, stats["sql_overlap"], sql=True),
    "thematic_relations": _thematic,
    "link_matches": lambda figure, axes, stats: _link_matches(axes, stats["link_matches"]),
    "otta_by_collection": lambda figure, axes, stats: _components_by_mode(axes, stats["otta_by_collection"]),
}
# Figures that read SQL turns: empty when the selection has none.
_NEEDS_SQL = ("sql_keywords", "keywords_by_turn", "hardness", "coverage", "intents", "sql_overlap")


def draw(name: str, stats: dict) -> Figure:
    """The figure `name` (a key of FIGURES) for a statistics dict from statistics.compute_statistics."""
    drawer = _DRAWERS[name]
    with matplotlib.rc_context(_STYLE):
        figure = Figure(figsize=(6.4, 3.6), layout="constrained")
        axes = figure.add_subplot()
        empty = drawer(figure, axes, stats)
        axes.set_title(str(FIGURES[name]), fontsize=10)
        needs_sql = name in _NEEDS_SQL
        if empty or not stats["overview"]["dialogues"] or (needs_sql and not stats["overview"]["sql_turns"]):
            axes.text(
                0.5, 0.5, gettext("no data in this selection"), ha="center", va="center", transform=axes.transAxes
            )
        return figure


def draw_scores(title: str, rows: list[dict], metrics: dict[str, str]) -> Figure:
    """Grouped bars: for each row (a stratum's value, e.g. "turn 2"), its score on each metric (a key of `metrics`,
    whose values are the legend's names), from 0 to 1. A metric a row has no score for is left out of its group."""
    with matplotlib.rc_context(_STYLE):
        figure = Figure(figsize=(6.4, 3.6), layout="constrained")
        axes = figure.add_subplot()
        labels = [row["label"] for row in rows]
        # The default font lacks CJK glyphs: such labels are numbered, and the page's table numbers its rows.
        if any(not label.isascii() for label in labels):
            labels = [str(number) for number in range(1, len(rows) + 1)]
        width = 0.8 / max(len(metrics), 1)
        colors = (_COLOR, "#f08c00", "#2b8a3e")
        for index, (metric, name) in enumerate(metrics.items()):
            points = [(p, row[metric]) for p, row in enumerate(rows) if row.get(metric) is not None]
            if points:
                offset = (index - (len(metrics) - 1) / 2) * width
                positions, values = [p + offset for p, _ in points], [v for _, v in points]
                bars = axes.bar(positions, values, width, label=name, color=colors[index % len(colors)])
                if len(rows) <= 8:  # a score of 0 draws no bar: the number says it was scored
                    axes.bar_label(bars, fmt="%.2f", fontsize=6, padding=1)
        axes.set_xticks(list(range(len(rows))), labels, rotation=30 if len(rows) > 5 else 0, ha="right")
        axes.set_ylim(0, 1.12)
        axes.set_ylabel(gettext("share right"))
        figure.legend(ncols=len(metrics), fontsize=7, frameon=False, loc="outside lower center")
        axes.set_title(title, fontsize=10)
        return figure


DOUBLE_TITLE = gettext_lazy("Double annotation: agreement per field (κ; SQL: test suite, else execution; links: F1)")


def double_headline(figures: dict) -> float | None:
    """One field's agreement as the figure shows it: Cohen's κ (a multi-label field: the mean over its labels), the
    SQL's test-suite match rate (execution where no suite could tell), the links' F1."""
    kind = figures["kind"]
    if kind == "single":
        return figures["kappa"]
    if kind == "multi":
        return figures["kappa_mean"]
    if kind == "sql":
        return figures["suite_rate"] if figures["suite_rate"] is not None else figures["execution_rate"]
    return figures["f1"]


def draw_double_agreement(rounds: list[dict]) -> Figure:
    """Grouped bars: per field, each double-annotation round's agreement (`double_headline`); a field a round has
    no figure for is left out of its group."""
    with matplotlib.rc_context(_STYLE):
        figure = Figure(figsize=(6.4, 3.6), layout="constrained")
        axes = figure.add_subplot()
        fields = list(rounds[0]["fields"]) if rounds else []
        height = 0.8 / max(len(rounds), 1)
        colors = (_COLOR, "#f08c00", "#2b8a3e", "#868e96")
        lowest = 0.0
        for index, round_ in enumerate(rounds):
            points = [(p, double_headline(round_["fields"][f])) for p, f in enumerate(fields)]
            points = [(p, value) for p, value in points if value is not None]
            lowest = min([lowest, *(value for _, value in points)])
            offset = (index - (len(rounds) - 1) / 2) * height
            label = ngettext(
                "sample %(sample)s (%(count)s turn)", "sample %(sample)s (%(count)s turns)", round_["labelled"]
            ) % {
                "sample": round_["sample"],
                "count": round_["labelled"],
            }
            axes.barh([p + offset for p, _ in points], [value for _, value in points], height,
                      label=label, color=colors[index % 4])  # fmt: skip
        axes.set_yticks(list(range(len(fields))), [field.replace("_", " ") for field in fields])
        axes.invert_yaxis()
        axes.set_xlim(min(lowest - 0.05, 0), 1.0)
        axes.set_xlabel(gettext("agreement"))
        if rounds:
            axes.legend(fontsize=7, frameon=False)
        else:
            axes.text(
                0.5, 0.5, gettext("no data in this selection"), ha="center", va="center", transform=axes.transAxes
            )
        axes.set_title(str(DOUBLE_TITLE), fontsize=10)
        return figure


MODEL_HELP_FIGURES = {
    "time_per_question": gettext_lazy("Seconds per question: median and quartiles per group"),
    "user_acts": gettext_lazy("User acts: share of each group's acts"),
    "system_acts": gettext_lazy("System acts: share of each group's acts"),
    "intents": gettext_lazy("Intent categories (CHASE): share of each group's SQL turns"),
    "drafts": gettext_lazy("What experts did with the model's SQL drafts"),
}
_GROUP_COLORS = {"helped": _COLOR, "control": "#f08c00"}
_GROUP_NAMES = {"helped": gettext_lazy("helped"), "control": gettext_lazy("control")}


def _group_questions(group: str, count: int) -> str:
    if group == "helped":
        return ngettext("helped (%(count)s question)", "helped (%(count)s questions)", count) % {"count": count}
    return ngettext("control (%(count)s question)", "control (%(count)s questions)", count) % {"count": count}


def draw_model_help(name: str, comparison: dict) -> Figure:
    """The figure `name` (a key of MODEL_HELP_FIGURES) for a comparison from model_help.compare_groups."""
    with matplotlib.rc_context(_STYLE):
        figure = Figure(figsize=(6.4, 3.2), layout="constrained")
        axes = figure.add_subplot()
        groups = comparison["groups"]
        empty = not (groups["helped"]["dialogues"] or groups["control"]["dialogues"])
        if name == "time_per_question":
            time = comparison["time_per_question"]
            rows = [group for group in ("helped", "control") if time[group]["n"]]
            for position, group in enumerate(rows):
                row = time[group]
                # The quartiles as a thick line, the median as a dot: no whiskers the data did not give.
                axes.plot([row["q1"], row["q3"]], [position, position], color=_GROUP_COLORS[group], linewidth=8,
                          solid_capstyle="butt", alpha=0.45)  # fmt: skip
                axes.plot([row["median"]], [position], "o", color=_GROUP_COLORS[group], markersize=8)
            axes.set_yticks(list(range(len(rows))), [_group_questions(g, time[g]["n"]) for g in rows])
            axes.set_ylim(-0.8, max(len(rows), 1) - 0.2)
            axes.invert_yaxis()
            axes.set_xlabel(gettext("seconds from a question to the expert's first response"))
            # Room past the slowest quartile: a median dot at the edge would be cut in half.
            axes.set_xlim(0, max([time[g]["q3"] for g in rows], default=1) * 1.15 + 1)
            difference = time["difference"]
            if difference:
                interval = difference["interval"]
                note = (
                    gettext("helped − control: %(median)s s; 95%% interval %(low)s to %(high)s s")
                    % {
                        "median": difference["median"],
                        "low": f"{interval['low']:.1f}",
                        "high": f"{interval['high']:.1f}",
                    }
                    if interval
                    else gettext("helped − control: %(median)s s; too few for an interval")
                    % {"median": difference["median"]}
                )
                axes.text(0.99, 0.02, note, ha="right", va="bottom", fontsize=8, transform=axes.transAxes)
            empty = not rows
        elif name in ("user_acts", "system_acts", "intents"):
            data = comparison[name]
            labels = [label for label in data["helped"] if data["helped"][label] or data["control"][label]]
            height = 0.4
            for offset, group in ((-height / 2, "helped"), (height / 2, "control")):
                total = sum(data[group].values()) or 1
                axes.barh([p + offset for p in range(len(labels))], [100 * data[group][k] / total for k in labels],
                          height, label=str(_GROUP_NAMES[group]), color=_GROUP_COLORS[group])  # fmt: skip
            axes.set_yticks(list(range(len(labels))), [label.replace("_", " ") for label in labels])
            axes.invert_yaxis()
            axes.set_xlabel(gettext("share of the group's labels (%)"))
            axes.set_xlim(0, 100)
            if labels:  # below the axes: a group's bar of 100 % would run under a legend inside them
                figure.legend(ncols=2, fontsize=7, frameon=False, loc="outside lower center")
            empty = not labels
        elif name == "drafts":
            drafts = comparison["drafts"]
            outcomes = {"kept": gettext("kept"), "edited": gettext("edited"), "replaced": gettext("replaced")}
            outcomes |= {"not_used": gettext("not used"), "failed": gettext("failed")}
            values = [drafts[key] for key in outcomes]
            _bars(axes, list(outcomes.values()), values, horizontal=True, ylabel=gettext("drafts"))
            empty = not drafts["asked"]
        else:
            raise KeyError(name)
        title = str(MODEL_HELP_FIGURES[name])
        test = comparison[name].get("test") if name in ("user_acts", "system_acts", "intents") else None
        axes.set_title(f"{title} (p = {test['p']})" if test else title, fontsize=10)
        if empty:
            axes.text(
                0.5, 0.5, gettext("no data in this selection"), ha="center", va="center", transform=axes.transAxes
            )
        return figure


def words_for(fmt: str):
    """The language a figure's words are drawn in: the page's for SVG, whose text stays text that the browser draws in
    its own fonts; English for PDF and PNG, which carry their glyphs, and the platform's font has no CJK glyphs
    (docs/i18n.md). Draw the figure inside it."""
    return contextlib.nullcontext() if fmt == "svg" else translation.override("en")


def render(name: str, stats: dict, fmt: str) -> bytes:
    """The figure as SVG, PDF or PNG bytes."""
    with words_for(fmt):
        return render_figure(draw(name, stats), fmt)


def render_figure(figure: Figure, fmt: str) -> bytes:
    """A drawn figure as SVG, PDF or PNG bytes."""
    if fmt not in FORMATS:
        raise KeyError(fmt)
    buffer = io.BytesIO()
    with matplotlib.rc_context(_STYLE):
        # Fixed metadata: the same statistics give the same bytes (no creation date in the file).
        metadata = {"Date": None} if fmt in ("svg",) else ({"CreationDate": None} if fmt == "pdf" else {})
        with warnings.catch_warnings():
            # An SVG keeps its text as text, drawn by the browser in its own fonts: Chinese words lack glyphs only in
            # the font matplotlib measures them with (words_for), which is no fault of the file.
            if fmt == "svg":
                warnings.filterwarnings("ignore", message="Glyph .* missing from font", category=UserWarning)
            figure.savefig(buffer, format=fmt, metadata=metadata)
    return buffer.getvalue()
