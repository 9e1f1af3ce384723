"""The next-question suggestion in Simplified Chinese, by rules of its own (docs/i18n.md, "Which language a
suggestion is in").

What is suggested is decided once, for both languages, by `annotation.wording.suggestions`: which relations apply
after the shown result, the category drawn, the relation and the material (column, value, table, order) the rng
picks. This module only words that choice: `recommend` is `suggestions.recommend` with a writer whose sentences are
Chinese (`_ChineseWriter`, the English `_Writer` with every sentence written anew), so the same arguments and rng
state pick the same relation and the same column as the English text does. It is not a translation of the English
sentence: the condition comes before the noun it restricts ("面积大于 500 的城市"), figures are said as a Chinese
reader says them ("城市数量", "平均人口", "最早的成立时间"), and names are the schema's readable names as they are
(a CHASE database's are Chinese already). The words of `chinese_drafts` are shared (spacing between Chinese and
Latin text, values, extremes by the name's ending, naming columns).
"""

from __future__ import annotations

import functools

from annotation.wording import suggestions as intents
from annotation.wording.chinese_drafts import _COUNT_SAID, _cat, _extreme, _is_naming, _measure, _value
from annotation.wording.counted import grouped_counted
from annotation.wording.suggestions.names import _is_flag, _vague
from annotation.wording.suggestions.shown import _FLIPPED
from annotation.wording.suggestions.writing import _NO, _YES, _flag_words, _readable_value, _Writer

__all__ = ["recommend"]

_TIME_ENDINGS = ("时间", "日期", "年份", "年代", "时刻", "年")
# Names that identify rather than describe (a CHASE column "课程时段ID" is one word to the English rules).
_KEY_ENDINGS = ("id", "编号", "代码", "代号")
# Names no worker asks about: a catch-all ("其他帐户详细信息"), a record's description, a secret (the English rules'
# words for these are English: `suggestions.names._vague`).
_VAGUE_STARTS = ("其他", "其它")
_VAGUE_ENDINGS = ("详细信息", "详情", "备注", "其他信息", "密码")
_OPPOSITE = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}
_SIDE = {op: op for op in _OPPOSITE}
_SIDE_OF_NUMBER = {">": "大于", ">=": "不低于", "<": "小于", "<=": "不超过"}
_SIDE_OF_TIME = {">": "晚于", ">=": "不早于", "<": "早于", "<=": "不晚于"}


def recommend(previous_sql: str, schema: dict | None, **options) -> intents.Recommendation:
    """`suggestions.recommend` worded in Chinese: the same category, relation and material for the same arguments
    (the same keywords but `writer`) and rng state. Raises intents.IntentError as it does."""
    writer = functools.partial(_ChineseWriter, names=_readable_names(schema))
    return intents.recommend(previous_sql, schema, writer=writer, **options)


def _readable_names(schema: dict | None) -> dict:
    """{table key: readable name, (table key, column key): readable name}: the schema's names as they are."""
    found: dict = {}
    if not isinstance(schema, dict):
        return found
    try:
        tables = schema["table_names_original"]
        readable = schema.get("table_names") or tables
        for original, name in zip(tables, readable, strict=False):
            found[original.lower()] = " ".join(str(name or original).replace("_", " ").split())
        columns = schema.get("column_names") or schema["column_names_original"]
        for (table, original), (_, name) in zip(schema["column_names_original"], columns, strict=False):
            if table >= 0:
                found[(tables[table].lower(), original.lower())] = " ".join(
                    str(name or original).replace("_", " ").split()
                )
    except (KeyError, TypeError, IndexError, AttributeError):
        return {}
    return found


def _is_time(name: str, kind: str = "") -> bool:
    return kind == "time" or name.endswith(_TIME_ENDINGS)


class _ChineseWriter(_Writer):  # the English writer's choices, worded anew
    """Words the relation and material the English writer would pick, in Chinese (`alone`, `lead`, `modifier`)."""

    def __init__(self, analysis, rng, values, *, names: dict) -> None:
        self.readable = names
        super().__init__(analysis, rng, values)
        self.things = self._table(analysis.entity[0]) if analysis.entity else "结果"

    # -- names ------------------------------------------------------------------------------------------------

    def _table(self, key: str | None) -> str:
        if key is None:
            return "结果"
        return self.readable.get(key) or self.names.labels.get(key) or key

    def _col(self, column) -> str:
        if column is None:
            return "某项信息"
        name = self.readable.get((column.table, column.original.lower())) or column.label
        return name

    def _time(self, column) -> bool:
        return column is not None and _is_time(self._col(column), column.kind)

    def _thing(self, column) -> str:
        """What one value of `column` stands for: a key the table it identifies, a name its table, else itself."""
        if column is None:
            return "组"
        parent = self.names.references.get((column.table, column.original.lower()))
        if column.is_key and parent is not None and parent not in self.names.links:
            return self._table(parent)
        if (column.is_key or _is_naming(self._col(column))) and column.table not in self.names.links:
            return self._table(column.table)
        return self._col(column)

    def _named(self, column) -> str:
        if _is_naming(self._col(column)) and column.table not in self.names.links:
            return self._table(column.table)
        return self._col(column)

    def _each(self, thing: str) -> str:
        """ "每座城市", "每名学生": each one of `thing` with its measure word."""
        return _cat("每", _measure(thing), thing)

    def _another(self, thing: str) -> str:
        return _cat("另一", _measure(thing), thing)

    def _said(self, column) -> bool:
        """Whether a detail is worth naming: not a key, a catch-all or a secret, however the English rules read it."""
        if column is None:
            return True
        name = self._col(column).lower()
        return not (name.endswith(_KEY_ENDINGS + _VAGUE_ENDINGS) or name.startswith(_VAGUE_STARTS))

    def _group_word(self, keys: list | None = None) -> str:
        group = list(dict.fromkeys(self.facts.group if keys is None else keys))
        return self._thing(group[0]) if len(group) == 1 else "组"

    def _counted(self) -> str:
        facts = self.facts
        if facts.group:
            table = grouped_counted(facts, self.names)
            if table is not None:
                return self._table(table)
        elif facts.inner_groups:
            return self._group_word(facts.inner_groups)
        elif facts.set_operation or (facts.distinct and self.analysis.listing):
            shown = list(dict.fromkeys(facts.shown))
            if len(shown) != 1:
                return "结果"
            return self._col(shown[0]) if facts.mixed_tables else self._thing(shown[0])
        return self.things

    def _figure(self, function: str, column) -> str:
        name = self._col(column)
        if function == "avg":
            return f"平均{name}"
        if function == "sum":
            return _cat(name, "总和")
        return _cat(_extreme(name, function == "max", self._time(column)), name)

    def _aggregate_label(self, aggregate) -> str:
        column = aggregate.column
        if aggregate.function == "count":
            if column is not None and column.is_key and column.table in self.names.labels:
                counted = self.things if column.table in self.names.links else self._table(column.table)
                return _cat(counted, "数量")
            return _cat(self._col(column) if column is not None else self._counted(), "数量")
        if column is None:
            return "这个数字"
        return self._figure(aggregate.function, column)

    def _key_label(self, key) -> str | None:
        if key.aggregate is not None:
            return self._aggregate_label(key.aggregate)
        if key.column is not None:
            return self._col(key.column)
        return None

    def _extreme(self, key, end: str) -> str:
        label = self._key_label(key) or ""
        time = key.aggregate is None and self._time(key.column)
        if key.aggregate is not None and key.aggregate.function in ("max", "min", "avg", "sum"):
            word = "最高" if end in ("highest", "latest") else "最低"
        else:
            word = _extreme(label, end in ("highest", "latest"), time)
        return _cat(label, word)

    def _condition_words(self, column, word: str, value: str) -> str:
        """ "人口大于 500"; of a joined table's column its table too ("成员名字为 Steven" of clubs): said of the rows
        alone it would be theirs ("名字为 Steven 的社团")."""
        return _cat(self._whose(column), word, value)

    def _whose(self, column) -> str:
        name = self._col(column)
        entity = self.analysis.entity
        if column is None or not entity or column.table in entity or column.table not in self.names.labels:
            return name
        table = self._table(column.table)
        return name if name.startswith(table) or column.table in self.names.links else _cat(table, name)

    def _new_condition(self, column, *, narrowing: bool = False) -> str | None:
        """ "面积大于 500", "省份为广东": a new condition on `column` with a real value, or None."""
        if _is_flag(column):
            self._uses(column)
            return _cat("是", _flag_words(column))
        english = super()._new_condition(
            column, narrowing=narrowing
        )  # the same value and side, drawn as the English text draws them
        if english is None:
            return None
        value = self.used_values[-1] if self.used_values else ""
        if column.kind in ("number", "time") and not column.is_key:
            above = english.endswith((f"above {value}", f"after {value}"))
            if self._time(column):
                return self._condition_words(column, "晚于" if above else "早于", value)
            return self._condition_words(column, "大于" if above else "小于", value)
        return self._condition_words(column, "为", _value(value))

    # -- Same Instances ---------------------------------------------------------------------------------------

    def _owner(self, column) -> str:
        entity = self.analysis.entity
        if not entity or column.table == entity[0] or column.table not in self.names.labels:
            return ""
        return _cat(self._table(column.table), "的")

    def _r1(self, material: list, form: str) -> str:
        material = [column for column in material if self._said(column)]
        if not material:
            return ""
        column = self.rng.choice(material)
        if column is None:
            return f"再问问这些{self.things}的其他信息"
        self._uses(column)
        owner = self._owner(column)
        name = _cat(owner, self._col(column))
        if form == "lead":
            return _cat("同时查询", name)
        if owner:
            return _cat("再问问其他信息，比如", name)
        return _cat("再问问这些", self.things, "的其他信息，比如", name)

    def _r2(self, material: list, form: str) -> str:
        if self.analysis.listing:  # a listing keeps what names its rows (the English rule knows "name", "title")
            material = [(kind, column) for kind, column in material if kind == "keep" or not self._naming(column)]
        material = [(kind, column) for kind, column in material if kind != "keep" or self._said(column)]
        if not material:
            return ""
        kind, column = self.rng.choice(material)
        if kind == "keep":
            self._uses(column)
            return _cat("只查询", self._col(column), "，不要全部信息")
        if form == "lead":
            return _cat("查询同样的内容，但去掉", self._col(column))
        return _cat("查询同样的内容，但不显示", self._col(column))

    def _naming(self, column) -> bool:
        return column is not None and _is_naming(self._col(column))

    def _r3(self, material: list, form: str) -> str:
        material = [
            (old, new) for old, new in material if self._said(new) and not (self.analysis.listing and self._naming(old))
        ]
        if not material:
            return ""
        old, new = self.rng.choice(material)
        if new is None:
            return _cat("换一项信息来查询这些", self.things, "，代替", self._col(old))
        self._uses(new)
        self.replaced.add(old)
        return _cat("把", self._col(old), "换成", self._col(new))

    def _r4(self, material: list, form: str) -> str:
        aggregate, key = self.rng.choice(material)
        figure = self._aggregate_label(aggregate)
        if key is None:
            if self.facts.group:
                return _cat("把", figure, "再细分成更小的组")
            return _cat("把", figure, "分组统计，每组一个数字")
        self._uses(key)
        if self.facts.group:
            return _cat("把", figure, "再按", self._col(key), "细分")
        return _cat("按", self._col(key), "分别统计", figure)

    def _r5(self, material: list, form: str) -> str:
        material = [(function, column) for function, column in material if self._adds_up(function, column)]
        if not material:
            return ""
        function, column = self.rng.choice(material)
        grouped = bool(self.facts.group)
        also = "再问问" if form == "alone" else "同时问问"
        if function == "count":
            if grouped:
                return _cat(also, self._each(self._group_word()), "有多少", self._counted())
            if form == "alone" and self._count_in_view():
                return ""  # the room says how many rows came back
            return _cat("问问一共有多少", self._counted())
        self._uses(column)
        figure = self._figure(function, column)
        if grouped:
            return _cat(also, self._each(self._group_word()), "的", figure)
        if self.facts.aggregates:
            return _cat(also, figure)
        return _cat("问问这些", self.things, "的", figure)

    def _adds_up(self, function: str, column) -> bool:
        """A point in time named in Chinese ("开业年份") has a latest and an earliest, no total or average (the English
        rules read only English names as times)."""
        return function not in ("sum", "avg") or not self._time(column)

    def _r6(self, material: list, form: str) -> str:
        material = [option for option in material if self._adds_up(option[1], option[2])]
        if not material:
            return ""
        aggregate, function, column = self.rng.choice(material)
        self._uses(column)
        return _cat("改问", self._figure(function, column), "，而不是", self._aggregate_label(aggregate))

    def _r7(self, material: list, form: str) -> str:
        aggregate = self.rng.choice(material)
        label = self._aggregate_label(aggregate)
        if self.facts.group:
            keys = "、".join(
                self._thing(column) if column.is_key else self._col(column)
                for column in dict.fromkeys(self.facts.group)
            )
            return _cat("只列出各个", keys, "，不要", label)
        if aggregate.column is not None and aggregate.function != "count":
            self._uses(aggregate.column)
            return _cat("把每个", self._col(aggregate.column), "都列出来，而不只是", label)
        return _cat("把这些", self._counted(), "逐一列出来，而不只是", label)

    # -- Different Instances ----------------------------------------------------------------------------------

    def _narrowable(self, column) -> bool:
        return super()._narrowable(column) and self._said(column)

    def _r8(self, material: list, form: str) -> str:
        choice = self._narrowing(material)
        if choice is None:
            return ""
        kind, what = choice
        if kind == "some":
            return {
                "alone": _cat("缩小范围，只看其中一部分", self.things),
                "lead": _cat("只问其中一部分", self.things),
                "modifier": "只看其中一部分",
            }[form]
        if kind == "on":
            return {
                "alone": _cat("缩小范围：给", self._col(what), "加一个条件"),
                "lead": _cat("按", self._col(what), "缩小范围"),
                "modifier": "",
            }[form]
        return {
            "alone": _cat("缩小范围，比如只看", what, "的", self.things),
            "lead": _cat("只问", what, "的", self.things),
            "modifier": _cat("只看", what, "的"),
        }[form]

    def _r9(self, material: list, form: str) -> str:
        kind, column, value = self._widening(material)
        if kind == "only":
            return "放宽范围：去掉或放宽这个条件" if form == "alone" else ""
        if kind == "one":
            return {
                "alone": _cat("放宽范围：去掉或放宽其中一个条件，让更多", self.things, "符合"),
                "lead": "去掉或放宽其中一个条件",
                "modifier": "并去掉或放宽一个条件",
            }[form]
        if kind == "also":
            said = self._condition_words(column, "为", _value(value))
            return {
                "alone": _cat("放宽范围：把", said, "的也包括进来"),
                "lead": _cat("把", said, "的也包括进来"),
                "modifier": _cat("并把", said, "的也包括进来"),
            }[form]
        on = self._on(column)
        return {
            "alone": _cat("放宽范围：去掉或放宽", on, "的条件"),
            "lead": _cat("去掉或放宽", on, "的条件"),
            "modifier": _cat("不再限制", on),
        }[form]

    def _on(self, column) -> str:
        if _is_flag(column):
            return _cat("是否", _flag_words(column))
        return self._col(column)

    def _r10(self, material: list, form: str) -> str:
        condition = self.rng.choice(material)
        column = condition.column
        current = _readable_value(condition.values[0], column)
        value = None
        if condition.op in (">", ">=", "<", "<=") and current is not None and not condition.negated:
            below = condition.op in (">", ">=")
            time = self._time(column)
            word = ("早于" if below else "晚于") if time else ("小于" if below else "大于")
            value, words = current, self._condition_words(column, word, current)
        else:
            value = self._value(column, avoid=condition.values)
            words = self._condition_words(column, "为", _value(value)) if value is not None else ""
        if value is not None:
            self._uses_value(column, value)
            return {
                "alone": _cat("换一批问问：", words, "的", self.things),
                "lead": _cat("改问", words, "的", self.things),
                "modifier": _cat("改看", words, "的"),
            }[form]
        if self._names_no_other(condition, current):
            return ""
        self._uses(column)
        other = self._another(self._named(column))
        if current is not None and condition.op == "=" and not condition.negated:
            other = _cat(_value(current), "以外的", self._another(self._named(column)))
        return {
            "alone": _cat("对", other, "问同样的问题"),
            "lead": _cat("对", other, "问同样的问题"),
            "modifier": _cat("换成", other),
        }[form]

    def _flag_negation(self, condition) -> str | None:
        if condition.op not in ("=", "!=") or len(condition.values) != 1:
            return None
        value = str(condition.values[0]).strip().lower()
        if value not in _YES | _NO:
            return None
        holds = (value in _YES) == (condition.op == "=")
        holds = not holds if condition.negated else holds
        return _cat("不是" if holds else "是", _flag_words(condition.column))

    def _negation(self, condition) -> str | None:
        """ "国家不为中国", "年龄不超过 20": the words for the opposite of `condition`, or None."""
        column = condition.column
        if column is None:
            return None
        if _is_flag(column):
            return self._flag_negation(condition)
        shown = [_readable_value(value, column) for value in condition.values]
        if any(text is None for text in shown) or (condition.op != "is" and not shown):
            return None
        positive, op, name = not condition.negated, condition.op, self._col(column)
        if op == "like":
            text = shown[0].strip("%").strip()
            return _cat(name, "不包含" if positive else "包含", f"“{text}”") if text else None
        if op in ("=", "!="):
            return _cat(name, "不为" if (op == "=") == positive else "为", _value(shown[0]))
        if op in _OPPOSITE:
            # the opposite of a condition, or of its negation the condition itself
            side = _OPPOSITE[op] if positive else _SIDE[op]
            words = _SIDE_OF_TIME if self._time(column) else _SIDE_OF_NUMBER
            return _cat(name, words[side], shown[0])
        if op == "in":
            return _cat(name, "不是" if positive else "是", "或".join(_value(text) for text in shown))
        if op == "between" and len(shown) == 2:
            return _cat(name, "不在" if positive else "在", shown[0], "到", shown[1], "之间")
        if op == "is":
            return _cat(name, "有值" if positive else "为空")
        return None

    def _r11(self, material: list, form: str) -> str:
        condition = self.rng.choice(material)
        opposite = self._negation(condition)
        if opposite is not None:
            self._uses_value(condition.column, None)
            self.used_values.extend(
                text for text in (_readable_value(value, condition.column) for value in condition.values) if text
            )
            return {
                "alone": _cat("反过来问问其余的：", opposite, "的", self.things),
                "lead": _cat("改问其余的：", opposite, "的", self.things),
                "modifier": _cat("改看", opposite, "的"),
            }[form]
        if condition.column is not None:
            self._uses(condition.column)
            on = self._on(condition.column)
            return {
                "alone": _cat("反过来问问其余的：不满足", on, "条件的", self.things),
                "lead": _cat("改问不满足", on, "条件的", self.things),
                "modifier": _cat("改看不满足", on, "条件的"),
            }[form]
        if self.facts.group and condition.aggregate is not None:
            # the rest of a HAVING condition are groups ("电影少于 2 部的类型"), not rows "不满足当前条件"
            groups = self._groups_left(condition)
            if groups is None:
                return ""
            return {
                "alone": _cat("反过来问问其余的：", groups),
                "lead": _cat("改问", groups),
                "modifier": _cat("改看", groups),
            }[form]
        return {
            "alone": _cat("反过来问问其余的：不满足当前条件的", self.things),
            "lead": _cat("改问其余的", self.things),
            "modifier": "",
        }[form]

    def _groups_left(self, condition) -> str | None:
        """The groups a HAVING condition leaves out, or None when they cannot be said."""
        aggregate, values = condition.aggregate, condition.values
        group = self._group_word()
        if condition.negated or len(values) != 1 or group == "组":
            return None
        value = _readable_value(values[0], None)
        if value is None or not isinstance(values[0], int | float) or isinstance(values[0], bool):
            return None
        flipped = _FLIPPED.get(condition.op)  # the rest: the opposite side
        if flipped is None:
            return None
        if aggregate.function == "count":
            counted = self._aggregate_label(aggregate).removesuffix("数量").strip() or self._counted()
            return _cat(counted, _COUNT_SAID[flipped], value, _measure(counted), "的", group)
        if aggregate.column is None:
            return None
        return _cat(self._aggregate_label(aggregate), _COUNT_SAID[flipped], value, "的", group)

    def _r12(self, material: list, form: str) -> str:
        material = [(kind, detail) for kind, detail in material if kind != "column" or self._said(detail)]
        if not material:
            return ""
        kind, detail = self.rng.choice(material)
        if kind == "value":
            value = self._value(detail.column, avoid=detail.values)
            self._uses_value(detail.column, value)
            if value is not None:
                subject = _cat(self._condition_words(detail.column, "为", _value(value)), "的")
            else:
                subject = _cat(self._another(self._named(detail.column)), "的")
            return {
                "alone": _cat("改问", subject, self.things),
                "lead": _cat("改问", subject, self.things),
                "modifier": _cat("改看", subject),
            }[form]
        new = self._new_condition(detail)
        if new is not None:
            return {
                "alone": _cat("换个条件，改问", new, "的", self.things),
                "lead": _cat("换个条件，改问", new, "的", self.things),
                "modifier": _cat("并改看", new, "的"),
            }[form]
        if detail is not None:
            if self.readable_values or form == "modifier":
                return ""
            self._uses(detail)
            return {
                "alone": _cat("把条件换成关于", self._col(detail), "的条件"),
                "lead": _cat("把条件换成关于", self._col(detail), "的条件"),
                "modifier": _cat("条件改为关于", self._col(detail), "的"),
            }[form]
        return {
            "alone": _cat("把条件换到这些", self.things, "的另一项信息上"),
            "lead": "把条件换到另一项信息上",
            "modifier": "条件换到另一项信息上",
        }[form]

    # -- Different Entity -------------------------------------------------------------------------------------

    def _r13(self, material: list, form: str) -> str:
        table = self.rng.choice(material)
        self.used_tables.append(self.names.originals[table])
        things = self._table(table)
        seen = self.analysis.seen
        read = self._read()
        details = [
            column
            for column in self.names.descriptive([table])
            if not column.is_key
            and not _vague(column.label)
            and not (seen is not None and seen.code_number(column))
            and self._col(column) != things
            and self._said(column)
            and column not in read
        ]
        if details:
            detail = self.rng.choice(details)
            self._uses(detail)
            name = self._col(detail)
            if name.startswith(things) and len(name) > len(things):
                name = name[len(things) :]  # "城市面积" of 城市: "面积"
            return _cat("换个对象，问问", things, "的", name)
        return _cat("换个对象，问问", things)

    # -- Display ----------------------------------------------------------------------------------------------

    def _r14(self, material: list, form: str) -> str:
        material = [key for key in material if key.aggregate is not None or self._said(key.column)] or material
        kept = [key for key in material if key.column is None or key.column not in self.replaced]
        key = self.rng.choice(kept or material)
        label = self._key_label(key)
        if label is None:
            return "按合适的顺序排列" if form == "modifier" else "让结果按合适的顺序排列"
        self._uses(key.column)
        kind = "time" if key.aggregate is None and self._time(key.column) else self._key_kind(key)
        if kind == "number":
            if self.rng.random() < 0.5:
                order = _cat("按", label, "从", *self.rng.choice((("高到低",), ("低到高",))), "排列")
            else:
                shown = self._rows_shown()
                counts = [count for count in (3, 5) if shown is None or 2 * count < shown]
                if not counts:
                    order = _cat("按", label, "从", self.rng.choice(("高到低", "低到高")), "排列")
                    return _cat("并", order) if form == "modifier" else _cat("让结果", order)
                count, end = self.rng.choice(counts), self.rng.choice(("highest", "lowest"))
                phrase = _cat(self._extreme(key, end), "的", str(count), "个")
                return _cat("只看", phrase) if form == "modifier" else _cat("只看", phrase)
        elif kind == "time":
            order = _cat("按", label, "从", self.rng.choice(("晚到早", "早到晚")), "排列")
        else:
            order = _cat("按", label, "排序")
        return _cat("并", order) if form == "modifier" else _cat("让结果", order)

    def _r15(self, material: list, form: str) -> str:
        kind, detail = self.rng.choice(material)
        if kind == "flip":
            label = self._key_label(detail)
            if self.facts.has_limit and label is not None and self._key_kind(detail) in ("number", "time"):
                wanted = "lowest" if detail.descending else "highest"
                return _cat("改看", self._extreme(detail, wanted), "的")
            return "并把排序反过来" if form == "modifier" else "把排序反过来"
        if kind == "key":
            self._uses(detail.column)
            label = self._key_label(detail)
            if self.facts.has_limit and label is not None and self._key_kind(detail) in ("number", "time"):
                wanted = self.rng.choice(("highest", "lowest"))
                return _cat("改看", self._extreme(detail, wanted), "的")
            return _cat("改按", label, "排序")
        wanted = self.rng.choice([count for count in (1, 3, 5, 10) if count != detail])
        first = "第一个" if wanted == 1 else _cat("前", str(wanted), "个")
        if form == "modifier":
            return _cat("改看", first)
        return _cat("改看", first, "，而不是", "第一个" if detail == 1 else _cat("前", str(detail), "个"))

    def _r16(self, material: list, form: str) -> str:
        if form == "modifier":
            return "去掉重复"
        if form == "lead":
            return "每个结果只列一次"
        return _cat("去掉重复，每个", "和".join(self._col(column) for column in material[:2]), "只列一次")

    def combined(self, first: str, second: str, *, with_values: bool) -> str:
        text = super().combined(first, second, with_values=with_values)
        return text.replace(", ", "，") if text else text
