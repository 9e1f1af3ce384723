"""Draft the expert's response in Chinese (system act CONFIRM_SQL), from the SQL, the shared result and the schema.

The same contract as the English drafts (`annotation.wording.response_drafts.draft_response`): pure, never raises,
SQL it cannot read gets an honest generic draft, a short result is folded into the sentence ("年龄大于 20 的学生共有
12 名。", "平均年龄是 35.5。"), a long one is described with its number of rows ("每个国家的歌手数量如下，共 5 行。").
It is a rule set of its own, not a translation of the English sentences (docs/i18n.md): conditions come before the
noun they restrict ("人口最多的城市", "名称包含“山”的景点"), a count takes a measure word (名, 家, 座, 本, 个),
nothing is inflected, and names are the schema's readable names as they are (a Chinese database's names read as
Chinese; an English one's readable names stay English, with a space where they meet Chinese text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlglot import expressions as exp

from annotation.sql.spider import parse_sql, unwrap_paren

__all__ = ["FEW_ROWS", "GENERIC_DRAFT", "draft_response"]

GENERIC_DRAFT = "这是您问题的查询结果。"
# A result with at most this many rows is listed inside the sentence; a longer one is described.
FEW_ROWS = 3
_MAX_VALUE_CHARS = 40

_AGGREGATES = {exp.Max: "max", exp.Min: "min", exp.Avg: "avg", exp.Sum: "sum", exp.Count: "count"}
_ARITHMETIC = {exp.Add: "加", exp.Sub: "减", exp.Mul: "乘以", exp.Div: "除以"}
_COMPARISONS = {exp.EQ: "=", exp.NEQ: "!=", exp.GT: ">", exp.LT: "<", exp.GTE: ">=", exp.LTE: "<="}
_NEGATED = {"=": "!=", "!=": "=", ">": "<=", "<": ">=", ">=": "<", "<=": ">"}
_SAID = {"=": "为", "!=": "不为", ">": "大于", "<": "小于", ">=": "不低于", "<=": "不高于"}
_SAID_OF_TIME = {"=": "为", "!=": "不为", ">": "晚于", "<": "早于", ">=": "不早于", "<=": "不晚于"}
_COUNT_SAID = {"=": "正好", "!=": "不是", ">": "多于", "<": "少于", ">=": "至少", "<=": "至多"}
_SELECT_PARTS = frozenset(
    {"expressions", "distinct", "from_", "from", "joins", "where", "group", "having", "order", "limit"}
)
# The measure word a count of a table's rows takes, by the last characters of its name; 个 for anything else.
_MEASURES = (
    (
        ("人", "者", "员", "生", "师", "手", "家", "客", "户", "工", "长", "官", "士", "友", "主", "医", "星", "民"),
        "名",
    ),
    (
        ("公司", "饭店", "餐厅", "酒店", "宾馆", "店", "银行", "企业", "商场", "超市", "机构", "馆", "影院", "旅馆"),
        "家",
    ),
    (("城市", "山", "山峰", "建筑", "桥", "场馆", "体育场", "机场", "塔", "岛", "车站", "城"), "座"),
    (("学校", "大学", "医院", "学院", "中学", "小学"), "所"),
    (("书", "图书", "小说", "杂志", "书籍"), "本"),
    (("电影", "电视剧", "作品", "影片", "剧"), "部"),
    (("歌", "歌曲", "诗"), "首"),
    (("车", "汽车", "车辆", "火车"), "辆"),
    (("飞机", "航班"), "架"),
    (("动物", "宠物", "狗", "猫", "鸟"), "只"),
    (("比赛", "演唱会", "演出", "会议", "考试", "战役", "活动", "赛事"), "场"),
    (("记录", "订单", "评论", "信息", "新闻", "消息"), "条"),
    (("笔记", "报告", "文件", "文档", "合同", "申请", "问卷"), "份"),
    (("葡萄酒", "酒"), "款"),
    (("类型", "类别", "品种", "种类", "产品"), "种"),
)
# Columns that name their row: selected alone, the row is said by them ("人口最多的城市是上海").
_NAMING_ENDINGS = ("名称", "名字", "姓名", "名", "标题", "name", "title")
# Order words by what a column measures: (descending, ascending).
_EXTREMES = (
    (("数", "量", "人口", "次数", "人数", "票数", "销量", "数量"), ("最多", "最少")),
    (
        (
            "价",
            "价格",
            "费",
            "费用",
            "薪",
            "工资",
            "收入",
            "分",
            "得分",
            "评分",
            "高度",
            "身高",
            "酬",
            "薪水",
            "金额",
            "价值",
            "利润",
            "预算",
            "温度",
            "排名",
            "等级",
            "成绩",
        ),
        ("最高", "最低"),
    ),
    (("长", "长度", "时长", "距离"), ("最长", "最短")),
)
# Names of a time, whatever their type says ("创立时间" stored as a year): earliest and latest, not smallest and
# largest.
_TIME_ENDINGS = ("时间", "日期", "年份", "年代", "时刻")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_DATE = re.compile(r"^\d{4}[-/.年]\d{1,2}")


def draft_response(sql: str, result: dict, schema: dict | None) -> str:
    """A Chinese draft of the expert's response to `result`, the table `sql` returned.

    `result` and `schema` are as for `response_drafts.draft_response` (the shared result's `columns`, `rows`,
    `total_rows`, `truncated`; one tables.json entry or None). Never raises: SQL this module cannot read gets the
    generic draft with what the table itself shows."""
    table = _Result.of(result)
    try:
        tree = parse_sql(sql)
    except Exception:  # a syntax error, or not SQL at all: the generic draft is the honest answer
        return _generic(table)
    try:
        query = _Reader(_Names(schema)).query(tree, None)
        return _fold(query, table)
    except Exception:  # a draft is a convenience the expert edits: an odd query must not break the room
        return _generic(table)


# ---------------------------------------------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------------------------------------------


def _cat(*parts: str) -> str:
    """Parts joined as Chinese is written: no space between Chinese characters, one where Chinese meets a Latin
    letter or a digit ("共有 12 名", "名称为 Smith Hall 的宿舍")."""
    text = ""
    for part in parts:
        if not part:
            continue
        if text and _needs_space(text[-1], part[0]):
            text += " "
        text += part
    return text


def _needs_space(left: str, right: str) -> bool:
    latin = lambda char: char.isascii() and (char.isalnum() or char in "%'\"")  # noqa: E731
    return (latin(left) and bool(_CJK.match(right))) or (bool(_CJK.match(left)) and latin(right))


def _list(items: list[str], conjunction: str = "和") -> str:
    items = [item for item in items if item]
    if len(items) <= 1:
        return "".join(items)
    return _cat("、".join(items[:-1]), conjunction, items[-1])


def _value(value) -> str:
    """One result cell or SQL literal as it reads in a sentence."""
    if value is None:
        return "空值"
    if isinstance(value, bool):
        return "是" if value else "否"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, bytes | bytearray):
        return "二进制数据"
    text = " ".join(str(value).split())
    if len(text) > _MAX_VALUE_CHARS:
        text = text[: _MAX_VALUE_CHARS - 1].rstrip() + "…"
    return text or "空文本"


def _is_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def _measure(noun: str) -> str:
    """The measure word of the longest ending `noun` has among _MEASURES' ("场馆" is 座 before "馆" is 家)."""
    found = [(len(ending), word) for endings, word in _MEASURES for ending in endings if noun.endswith(ending)]
    return max(found)[1] if found else "个"


def _is_naming(name: str) -> bool:
    return name.lower().endswith(_NAMING_ENDINGS)


def _extreme(name: str, descending: bool, time: bool) -> str:
    if time or name.endswith(_TIME_ENDINGS):
        return "最晚" if descending else "最早"
    for endings, words in _EXTREMES:
        if name.endswith(endings):
            return words[0] if descending else words[1]
    return "最大" if descending else "最小"


# ---------------------------------------------------------------------------------------------------------------
# Schema names
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Table:
    key: str  # the original name, lower-cased
    name: str  # readable


@dataclass(frozen=True)
class _Col:
    name: str  # readable
    table: _Table | None
    time: bool = False
    key: bool = False  # a primary or foreign key
    text: bool = False  # a text column (sorted by its letters, not from high to low)
    points_to: str = ""  # for a foreign key, the original name of the table it points to (lower-cased)


class _Names:
    """The readable names of one tables.json entry (`table_names`, `column_names`); with no schema, the identifiers
    themselves (underscores read as spaces)."""

    def __init__(self, schema: dict | None) -> None:
        self.tables: dict[str, str] = {}
        self.columns: dict[tuple[str, str], _Col] = {}
        self.references: set[tuple[str, str]] = set()  # (child table, parent table) of each foreign key
        if not isinstance(schema, dict):
            return
        originals = schema.get("table_names_original") or []
        readable = schema.get("table_names") or []
        for index, original in enumerate(originals):
            name = readable[index] if index < len(readable) and readable[index] else original
            if str(name).lower() == str(original).lower():
                name = original
            self.tables[str(original).lower()] = _plain(str(name))
        self._read_columns(schema, originals)
        owners = [owner for owner, _ in schema.get("column_names_original") or []]
        for pair in schema.get("foreign_keys") or []:
            if isinstance(pair, list | tuple) and len(pair) == 2 and all(0 <= c < len(owners) for c in pair):
                child, parent = (owners[c] for c in pair)
                if 0 <= child < len(originals) and 0 <= parent < len(originals) and child != parent:
                    self.references.add((str(originals[child]).lower(), str(originals[parent]).lower()))

    def _read_columns(self, schema: dict, originals: list) -> None:
        readable = schema.get("column_names") or []
        types = schema.get("column_types") or []
        keys = {key for key in schema.get("primary_keys") or [] if isinstance(key, int)}
        pairs = [pair for pair in schema.get("foreign_keys") or [] if isinstance(pair, list | tuple) and len(pair) == 2]
        keys |= {pair[0] for pair in pairs}
        columns = schema.get("column_names_original") or []
        parents = {
            child: str(originals[columns[parent][0]]).lower()
            for child, parent in pairs
            if 0 <= parent < len(columns) and 0 <= columns[parent][0] < len(originals)
        }
        for index, (owner, original) in enumerate(schema.get("column_names_original") or []):
            if not 0 <= owner < len(originals):
                continue
            name = readable[index][1] if index < len(readable) and readable[index][1] else original
            if str(name).lower() == str(original).lower():
                name = original  # "GDP", not the lower-cased "gdp" of a readable list
            table = self.table(str(originals[owner]))
            time = index < len(types) and types[index] == "time"
            text = index < len(types) and types[index] == "text"
            points_to = parents.get(index) or self._named_key(str(original), table)
            key = index in keys or bool(points_to)
            column = _Col(_plain(str(name)), table, time, key, text, points_to)
            self.columns.setdefault((table.key, str(original).lower()), column)

    def _named_key(self, original: str, table: _Table) -> str:
        """An undeclared key named after another table ("音乐剧ID" of 演员 points to 音乐剧): that table's original
        name (lower-cased), or ""."""
        for suffix in ("id", "ID", "Id", "编号"):
            if original.endswith(suffix) and len(original) > len(suffix):
                stem = original[: -len(suffix)].rstrip("_ ").lower()
                if stem in self.tables and stem != table.key:
                    return stem
        return ""

    def table(self, original: str) -> _Table:
        return _Table(original.lower(), self.tables.get(original.lower()) or _plain(original))

    def has_column(self, table: _Table, original: str) -> bool:
        return (table.key, original.lower()) in self.columns

    def column(self, table: _Table | None, original: str) -> _Col:
        if table is not None and (table.key, original.lower()) in self.columns:
            return self.columns[(table.key, original.lower())]
        return _Col(_plain(original), table, key=original.lower().endswith("id"))


def _own_name(column: _Col) -> str:
    """A column said of its own table's rows: without the table's name it starts with ("运动员名字" of 运动员 is
    "名字", "加油站ID" of 加油站 is "ID")."""
    owner = column.table.name if column.table is not None else ""
    rest = column.name[len(owner) :].strip() if owner and column.name.startswith(owner) else ""
    rest = rest[1:] if rest.startswith("的") else rest  # "产品的名称" of 产品 is "名称"
    if rest.lower() == "id" or (len(rest) >= 2 and _is_cjk(rest[0]) and _is_cjk(owner)):
        return rest
    return column.name  # "房间号" stays whole: a bare "号" says nothing


def _owned(owner: str, name: str) -> str:
    """A column of another table said with the table's name: glued when short ("宿舍名称"), the shared words said
    once ("馆藏动物" + "动物名称" is "馆藏动物名称"), with 的 after a long name ("员工部门分配的入职日期") or a Latin
    one."""
    if not _is_cjk(owner) or not _is_cjk(name):
        return _cat(owner, "的", name)
    for size in range(min(len(owner), len(name)) - 1, 1, -1):
        if owner.endswith(name[:size]):
            return owner + name[size:]
    return owner + name if len(owner) <= 3 else f"{owner}的{name}"


def _plain(name: str) -> str:
    return " ".join(name.replace("_", " ").split())


# ---------------------------------------------------------------------------------------------------------------
# What a query asks
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _Item:
    kind: str  # "column", "aggregate", "star", "computed"
    column: _Col | None = None
    function: str = ""  # for aggregates: count, max, min, avg, sum
    distinct: bool = False
    text: str = ""  # for computed expressions: their words


@dataclass
class _Cond:
    item: _Item | None
    op: str = "="
    values: list[str] = field(default_factory=list)
    like: str | None = None
    negated: bool = False
    subquery: object = None
    column_value: bool = False  # compared with another column, not a value


@dataclass
class _Scope:
    names: _Names
    parent: _Scope | None
    tables: list[_Table] = field(default_factory=list)
    aliases: dict[str, _Table] = field(default_factory=dict)
    select_aliases: dict[str, exp.Expr] = field(default_factory=dict)
    mentioned: set = field(default_factory=set)

    def table_named(self, qualifier: str) -> _Table | None:
        scope: _Scope | None = self
        while scope is not None:
            if qualifier.lower() in scope.aliases:
                return scope.aliases[qualifier.lower()]
            scope = scope.parent
        return None

    def table_of_column(self, name: str) -> _Table | None:
        scope: _Scope | None = self
        while scope is not None:
            for table in scope.tables:
                if self.names.has_column(table, name):
                    return table
            scope = scope.parent
        return self.tables[0] if self.tables else None


class _Reader:
    def __init__(self, names: _Names) -> None:
        self.names = names

    def query(self, node: exp.Expr, parent: _Scope | None):
        while isinstance(node, exp.Subquery | exp.Paren):
            node = node.this
        if isinstance(node, exp.Select):
            return self.select(node, parent)
        operator = {exp.Union: "union", exp.Intersect: "intersect", exp.Except: "except"}.get(type(node))
        if operator is None:
            raise ValueError(f"not a query: {node.key}")  # i18n-exempt: the generic draft is given instead
        described = _SetQuery(operator, self.query(node.this, parent), self.query(node.expression, parent))
        if node.args.get("order") or node.args.get("limit"):
            raise ValueError(  # i18n-exempt: the generic draft is given instead
                "an order after a set operation is not said"
            )
        return described

    def select(self, node: exp.Select, parent: _Scope | None) -> _Select:
        unread = [key for key, value in node.args.items() if value and key not in _SELECT_PARTS]
        if unread:
            raise ValueError(f"cannot describe {', '.join(unread)}")  # i18n-exempt: the generic draft is given instead
        scope = _Scope(self.names, parent)
        from_ = node.args.get("from_") or node.args.get("from")
        sources = [from_.this] if from_ is not None else []
        sources += [join.this for join in node.args.get("joins") or []]
        for source in sources:
            if not isinstance(source, exp.Table) or not isinstance(source.this, exp.Identifier):
                raise ValueError(  # i18n-exempt: the generic draft is given instead
                    "a FROM item other than a table is not said"
                )
            table = self.names.table(source.name)
            scope.tables.append(table)
            scope.aliases[(source.alias or table.key).lower()] = table
            scope.aliases.setdefault(table.key, table)
        described = _Select(scope.tables, names=self.names)
        for expression in node.expressions:
            if isinstance(expression, exp.Alias):
                scope.select_aliases[expression.alias.lower()] = expression.this
                expression = expression.this
            described.items.append(self.item(expression, scope))
        described.distinct = node.args.get("distinct") is not None
        self._clauses(node, scope, described)
        if not described.tables or not described.items:
            raise ValueError(  # i18n-exempt: the generic draft is given instead
                "a query without tables has nothing to describe"
            )
        described.mentioned = set(scope.mentioned)
        described.settle()
        return described

    def _clauses(self, node: exp.Select, scope: _Scope, described: _Select) -> None:
        where = node.args.get("where")
        if where is not None:
            described.where = self.conditions(where.this, scope)
        group = node.args.get("group")
        for expression in group.expressions if group is not None else []:
            item = self.item(expression, scope)
            if item.column is not None:
                described.group.append(item.column)
        having = node.args.get("having")
        if having is not None:
            described.having = self.conditions(having.this, scope)
        clause = node.args.get("order")
        for ordered in clause.expressions if clause is not None else []:
            target = ordered.this
            if isinstance(target, exp.Column) and not target.table:
                target = scope.select_aliases.get(target.name.lower(), target)
            described.order.append((self.item(target, scope), bool(ordered.args.get("desc"))))
        limit = node.args.get("limit")
        if limit is not None:
            amount = limit.expression
            if not (isinstance(amount, exp.Literal) and amount.this.isdigit()):
                raise ValueError(  # i18n-exempt: the generic draft is given instead
                    "a LIMIT that is not a number is not said"
                )
            described.limit = int(amount.this)

    def item(self, node: exp.Expr, scope: _Scope) -> _Item:
        node = unwrap_paren(node)
        if isinstance(node, exp.Star) or (isinstance(node, exp.Column) and isinstance(node.this, exp.Star)):
            return _Item("star")
        if isinstance(node, exp.Column):
            return _Item("column", self.column(node, scope))
        if isinstance(node, exp.Literal) and node.is_string:
            table = scope.table_of_column(node.this)  # a double-quoted name where only a column can stand
            return _Item("column", self.names.column(table, node.this))
        function = _AGGREGATES.get(type(node))
        if function is not None:
            argument = node.this
            distinct = isinstance(argument, exp.Distinct)
            if distinct:
                argument = argument.expressions[0] if argument.expressions else exp.Star()
            inner = self.item(argument, scope) if argument is not None else _Item("star")
            if inner.kind == "aggregate":
                raise ValueError(  # i18n-exempt: the generic draft is given instead
                    "an aggregate of an aggregate is not said"
                )
            return _Item("aggregate", inner.column, function, distinct, inner.text)
        if isinstance(node, exp.Distinct) and node.expressions:
            inner = self.item(node.expressions[0], scope)
            inner.distinct = True
            return inner
        operator = _ARITHMETIC.get(type(node))
        if operator is not None:
            left, right = self.item(node.this, scope), self.item(node.expression, scope)
            return _Item("computed", left.column, text=_cat(_bare_words(left), operator, _bare_words(right)))
        if isinstance(node, exp.Literal | exp.Neg):
            return _Item("computed", text=_literal(node))
        raise ValueError(f"cannot say {node.key} in words")  # i18n-exempt: the generic draft is given instead

    def column(self, node: exp.Column, scope: _Scope) -> _Col:
        table = scope.table_named(node.table) if node.table else scope.table_of_column(node.name)
        if node.table and table is None:
            table = self.names.table(node.table)
        if table is not None:
            scope.mentioned.add(table.key)
        return self.names.column(table, node.name)

    def conditions(self, node: exp.Expr, scope: _Scope) -> list:
        """A flat list `[cond, "and"|"or", cond, ...]`, as the Spider format keeps them."""
        node = unwrap_paren(node)
        if isinstance(node, exp.And | exp.Or):
            left, right = self.conditions(node.this, scope), self.conditions(node.expression, scope)
            if not left or not right:
                return left or right
            return [*left, "and" if isinstance(node, exp.And) else "or", *right]
        condition = self.condition(node, scope, negated=False)
        return [condition] if condition is not None else []

    def condition(self, node: exp.Expr, scope: _Scope, *, negated: bool) -> _Cond | None:
        node = unwrap_paren(node)
        if isinstance(node, exp.Not):
            return self.condition(node.this, scope, negated=not negated)
        op = _COMPARISONS.get(type(node))
        if op is not None:
            return self._compare(node, op, scope, negated)
        if isinstance(node, exp.Like):
            like = _literal(node.expression, raw=True)
            negated ^= bool(node.args.get("negate"))  # NOT LIKE, as the datasets' parser reads it
            return _Cond(self.item(node.this, scope), "like", like=like, negated=negated)
        if isinstance(node, exp.Between):
            values = [_literal(node.args["low"]), _literal(node.args["high"])]
            return _Cond(self.item(node.this, scope), "between", values, negated=negated)
        if isinstance(node, exp.Is):
            return _Cond(self.item(node.this, scope), "null", negated=negated)
        if isinstance(node, exp.In):
            return self._membership(node, scope, negated)
        raise ValueError(  # i18n-exempt: the generic draft is given instead
            f"cannot say the condition {node.key} in words"
        )

    def _compare(self, node: exp.Expr, op: str, scope: _Scope, negated: bool) -> _Cond | None:
        left = self.item(node.this, scope)
        right = unwrap_paren(node.expression)
        if isinstance(right, exp.Column):
            other = self.item(right, scope)
            if left.column is not None and other.column is not None and left.column.table != other.column.table:
                return None  # a join written in WHERE: how the tables connect, not a filter
            return _Cond(left, op, [_bare_words(other)], negated=negated, column_value=True)
        if isinstance(right, exp.Subquery | exp.Select | exp.SetOperation):
            return _Cond(left, op, negated=negated, subquery=self.query(right, scope))
        return _Cond(left, op, [_literal(right)], negated=negated)

    def _membership(self, node: exp.In, scope: _Scope, negated: bool) -> _Cond:
        item = self.item(node.this, scope)
        query = node.args.get("query")
        if query is None and len(node.expressions) == 1:
            only = unwrap_paren(node.expressions[0])
            if isinstance(only, exp.Select | exp.Subquery | exp.SetOperation):
                query = only
        if query is None:
            return _Cond(item, "in", [_literal(value) for value in node.expressions], negated=negated)
        return _Cond(item, "in", negated=negated, subquery=self.query(query, scope))


def _literal(node: exp.Expr, *, raw: bool = False) -> str:
    node = unwrap_paren(node)
    if isinstance(node, exp.Literal):
        return str(node.this) if raw else _value(node.this)
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal):
        return "-" + _value(node.this.this)
    if isinstance(node, exp.Null):
        return "空值"
    if isinstance(node, exp.Boolean):
        return "是" if node.this else "否"
    raise ValueError(f"cannot say {node.key} in words")  # i18n-exempt: never shown (anything else would be SQL)


def _bare_words(item: _Item) -> str:
    """An item as a noun with no owner ("年龄", "平均年龄", "数量")."""
    if item.kind == "column":
        return item.column.name
    if item.kind == "star":
        return "全部信息"
    if item.kind == "aggregate":
        return _aggregate_words(item, item.column.name if item.column is not None else item.text, "")
    return item.text


def _aggregate_words(item: _Item, subject: str, counted: str) -> str:
    """An aggregate said of `subject` (the column's words), or for count(*) of `counted` (what is counted)."""
    if item.function == "count":
        if item.distinct and subject:
            return _cat("不同", subject, "的数量")
        return _cat(counted, "数量") if counted else "数量"
    if item.function == "sum":
        return _cat(subject, "总和")
    prefix = {"max": "最大", "min": "最小", "avg": "平均"}[item.function]
    if item.function in ("max", "min") and _extreme(subject, True, False) in ("最高", "最晚"):
        prefix = _extreme(subject, item.function == "max", False)  # 最高票价, 最低底价, 最晚结束日期
    if subject.startswith(("最", "平均")) or not _is_cjk(subject):
        return _cat(subject, "的", {"max": "最大值", "min": "最小值", "avg": "平均值"}[item.function])
    return _cat(prefix, subject)


# ---------------------------------------------------------------------------------------------------------------
# Describing one SELECT
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _Select:
    tables: list[_Table]
    items: list[_Item] = field(default_factory=list)
    distinct: bool = False
    where: list = field(default_factory=list)
    group: list[_Col] = field(default_factory=list)
    having: list = field(default_factory=list)
    order: list = field(default_factory=list)
    limit: int | None = None
    main: _Table | None = None  # what the rows are about
    counted: _Table | None = None  # what count(*) counts
    names: _Names | None = None
    mentioned: set = field(default_factory=set)  # keys of the tables a column of the query is read from

    def settle(self) -> None:
        first = next((item.column for item in self.items if item.column is not None), None)
        self.main = first.table if first is not None and first.table is not None else self.tables[0]
        self.counted = self.main
        if self.group:
            key = self.group[0]
            self.main = key.table or self.main
            others = [table for table in self.tables if table != self.main]
            self.counted = others[-1] if others else self.main
            if key.points_to and key.table is not None and self.names is not None:
                # Notes grouped by their teacher id are counted per teacher: the groups are the table it points to.
                self.main = next((t for t in self.tables if t.key == key.points_to), self.names.table(key.points_to))
                self.counted = key.table

    # -- pieces ---------------------------------------------------------------------------------------------------

    def column_words(self, column: _Col, anchor: _Table | None = None) -> str:
        """A column as said of the rows the sentence is about: its own name when it is theirs, else with its table's
        name before it ("宿舍名称"), unless the name says its table already."""
        anchor = anchor or self.main
        if column.table is None or column.table == anchor or len(self.tables) == 1:
            return _own_name(column)
        if column.table.name in column.name or (column.key and column.name.endswith(("id", "ID", "编号"))):
            return column.name
        return _owned(column.table.name, column.name)

    def item_words(self, item: _Item) -> str:
        if item.kind == "column":
            words = self.column_words(item.column)
            return _cat("不同的", words) if item.distinct else words
        if item.kind == "aggregate":
            subject = self.column_words(item.column) if item.column is not None else item.text
            counted = self.counted.name if self.group and self.counted is not None else ""
            return _aggregate_words(item, subject, counted)
        return _bare_words(item)

    @property
    def entity(self) -> str:
        return self.main.name if self.main is not None else "记录"

    def where_words(self) -> str:
        return _conditions(self.where, self)

    def _superlative(self) -> str:
        """ "人口最多的", "价格最低的前 3 个": an ORDER BY with a LIMIT, said before the noun."""
        if not self.order or self.limit is None:
            return ""
        item, descending = self.order[0]
        words = self._order_subject(item)
        time = item.column is not None and item.column.time and item.kind == "column"
        extreme = _extreme(words, descending, time)
        if self.limit == 1:
            return _cat(words, extreme, "的")
        return _cat(words, extreme, "的前", str(self.limit), _measure(self.entity))

    def _order_subject(self, item: _Item) -> str:
        if item.kind == "aggregate" and item.function == "count" and not item.distinct:
            counted = (
                self.counted.name if self.counted is not None and (self.group or self.counted != self.main) else ""
            )
            return _cat(counted, "数量") if counted else "数量"
        return self.item_words(item)

    def sorted_words(self) -> str:
        """ "按年龄从高到低排列": an ORDER BY with no LIMIT."""
        if not self.order or self.limit is not None:
            return ""
        item, descending = self.order[0]
        words = self._order_subject(item)
        column = item.column if item.kind == "column" else None
        if column is not None and (column.time or column.name.endswith(_TIME_ENDINGS)):
            direction = "从晚到早" if descending else "从早到晚"
        elif column is not None and (column.text or _is_naming(column.name)):
            return _cat("按", words, "倒序排列" if descending else "排序")
        else:
            most = _extreme(words, True, False)
            pairs = {"最多": ("多", "少"), "最高": ("高", "低"), "最长": ("长", "短"), "最大": ("大", "小")}
            high, low = pairs.get(most, ("高", "低"))
            direction = f"从{high}到{low}" if descending else f"从{low}到{high}"
        return _cat("按", words, direction, "排列")

    def population(self) -> str:
        """The rows the query is about, with everything that restricts them: "年龄大于 20 的前 3 名学生"."""
        if self.group:
            return self._groups()
        joined = self._joined_only()
        restrictions = [part for part in (self.where_words(), self._superlative(), joined) if part]
        if not restrictions:
            return self.entity
        head = _cat(self.where_words(), "的") if self.where else ""
        return _cat(joined, head, self._superlative(), self.entity)

    def _joined_only(self) -> str:
        """ "有健美运动员记录的": a joined table that refers to the rows and that nothing else of the query reads
        keeps only the rows it has a record of."""
        if self.names is None or self.main is None:
            return ""
        children = [
            table.name
            for table in self.tables
            if table != self.main
            and table.key not in self.mentioned
            and (table.key, self.main.key) in self.names.references
        ]
        if not children:
            return ""
        said = "、".join(children)
        return _cat("有", said, "的") if said.endswith("记录") else _cat("有", said, "记录的")

    def _groups(self) -> str:
        """ "每个国家", "歌手数量多于 2 名的国家": the groups, with their HAVING and their WHERE."""
        key = self.group[0]
        subject = self._group_subject(key)
        scope = _cat(self.where_words(), "的") if self.where else ""
        having = _conditions(self.having, self)
        if having or self._superlative():
            restricted = _cat(having, "的") if having else ""
            return _cat(scope, restricted, self._superlative(), subject)
        if scope and self.counted is not None:
            return _cat(scope, self.counted.name, "中每个", subject)
        return _cat("每个", subject)

    def _group_subject(self, key: _Col) -> str:
        """What one group is: the joined table a key or a name stands for ("每个宿舍"), what a name column names
        ("学校名称" -> "每个学校"), else the column ("每个城市")."""
        if key.points_to and self.main is not None:
            return self.main.name  # a foreign key: the table it points to ("每个老师")
        if key.table is not None and len(self.tables) > 1 and key.table != self.counted:
            if key.key or _is_naming(key.name):
                return key.table.name
        for ending in ("名称", "名字", "姓名"):
            if key.name.endswith(ending) and len(key.name) > len(ending) and _is_cjk(key.name):
                return key.name[: -len(ending)]
        return self.column_words(key)

    def reported_items(self) -> list[_Item]:
        """The items a sentence reports: a grouped query's group columns are the rows' labels, not a figure."""
        if not self.group:
            return self.items
        return [item for item in self.items if not self.labels_group(item)]

    def labels_group(self, item: _Item) -> bool:
        """A grouped query's column that says which group a row is: a group column, or a key or a name of the table
        grouped by its key ("宿舍名称" of dorms grouped by 宿舍id)."""
        if item.kind != "column" or item.column is None:
            return False
        if item.column in self.group:
            return True
        key = self.group[0]
        table = self.main if key.points_to else key.table
        return key.key and item.column.table == table and (item.column.key or _is_naming(item.column.name))

    def phrase(self) -> str:
        """A noun phrase of what the result holds: "年龄大于 20 的学生的姓名和年龄"."""
        items = self.reported_items()
        if not items and self.group and not self.having and not self._superlative():
            return self.population().replace("每个", "", 1)  # the groups themselves: "主要行业"
        if not items:
            return self.population()
        if all(item.kind == "star" for item in items):
            return _cat(self.population(), "的全部信息")
        words = _list([self.item_words(item) for item in items])
        population = self.population()
        if self.distinct:
            return _cat(population, "中不同的", words)
        if not self.group and population.endswith(self.entity) and words.startswith(self.entity):
            return _cat(population[: -len(self.entity)], words)  # "动物园名", not "动物园的动物园名"
        return _cat(population, "的", words)

    def names_rows(self) -> bool:
        """Whether one value names each row: a single naming column, selected of its own table."""
        items = self.reported_items()
        return (
            len(items) == 1
            and items[0].kind == "column"
            and items[0].column is not None
            and _is_naming(items[0].column.name)
            and (items[0].column.table == self.main or len(self.tables) == 1)
            and not self.group
        )

    def picks_rows(self) -> bool:
        """One key or naming column of the rows, nothing grouped: the subquery stands for its rows."""
        if len(self.items) != 1 or self.group or self.items[0].kind != "column" or self.items[0].column is None:
            return False
        column = self.items[0].column
        return column.table == self.main and (column.key or _is_naming(column.name))

    def counts_only(self) -> bool:
        return (
            len(self.items) == 1
            and self.items[0].kind == "aggregate"
            and self.items[0].function == "count"
            and (not self.group)
        )

    def nothing(self) -> str:
        """An empty result: no rows meet the conditions (an order or a group has nothing to order or group)."""
        rows = self.counted if self.group and self.counted is not None else self.main
        noun = rows.name if rows is not None else "记录"
        if self.where:
            where = self.where_words()
            if where.startswith("没有出现在") and len(self.where) == 1:
                return _cat("所有", noun, "都", where[2:], "。")  # not "找不到没有出现在…的": every row is there
            if self._reads_other_tables():
                return _cat("没有找到", self.phrase(), "。")  # the joined rows are what is missing, not the rows
            return _cat("没有找到", where, "的", noun, "。")
        if self.having:
            return _cat("没有找到", _conditions(self.having, self), "的", self._group_subject(self.group[0]), "。")
        return _cat("没有找到符合条件的", noun, "。")

    def labels(self) -> list[str]:
        return [self.item_words(item) for item in self.items]

    def _reads_other_tables(self) -> bool:
        """Whether the items are read from a table other than the rows', so that an empty result may mean that
        table has no row for them."""
        return not self.group and any(
            item.column is not None and item.column.table not in (None, self.main) for item in self.items
        )


def _conditions(conditions: list, query: _Select) -> str:
    parts = []
    for entry in conditions:
        if entry == "and":
            parts.append("且")
        elif entry == "or":
            parts.append("或")
        else:
            parts.append(_condition(entry, query))
    return _cat(*parts)


def _condition(cond: _Cond, query: _Select) -> str:
    if cond.item is None:
        raise ValueError(  # i18n-exempt: the generic draft is given instead
            "a condition without a left side is not said"
        )
    if cond.item.kind == "aggregate" and cond.item.function == "count" and not cond.item.distinct and cond.values:
        counted = (
            query.counted.name if query.counted is not None and (query.group or query.counted != query.main) else ""
        )
        op = _NEGATED[cond.op] if cond.negated else cond.op
        subject = _cat(counted, "数量") if counted else "记录数"
        return _cat(subject, _COUNT_SAID[op], cond.values[0], _measure(counted) if counted else "条")
    subject = query.item_words(cond.item) if cond.item.kind != "column" else query.column_words(cond.item.column)
    extreme = _extreme_of_itself(cond)
    if extreme:
        return _cat(subject, extreme)  # "接待人口 = (SELECT min(接待人口) ...)" is "接待人口最少"
    rows = _rows_named(cond)
    if rows is not None and (cond.subquery.where or cond.subquery.order):
        subject = rows  # "城市为人口最多的城市", not "城市名称等于人口最多的城市的名称"
    elif rows is not None and cond.op == "in":
        # "没有出现在加油站公司表中的公司": the rows themselves, or the joined table whose key it is
        subject = "" if cond.item.column.table == query.main else cond.item.column.table.name
    time = cond.item.column is not None and cond.item.column.time or any(_DATE.match(v) for v in cond.values)
    return _cat(subject, _predicate(cond, time, query))


def _extreme_of_itself(cond: _Cond) -> str:
    """ "最少" for `x = (SELECT min(x) FROM t)` over the whole table: the row with the least x; "" otherwise."""
    inner, column = cond.subquery, cond.item.column if cond.item is not None else None
    if not isinstance(inner, _Select) or column is None or cond.op != "=" or cond.negated or inner.where:
        return ""
    if len(inner.items) != 1 or inner.group or inner.items[0].kind != "aggregate":
        return ""
    item = inner.items[0]
    if item.function not in ("max", "min") or item.column is None or item.column.name != column.name:
        return ""
    return _extreme(column.name, item.function == "max", column.time)


def _rows_named(cond: _Cond) -> str | None:
    """The table whose rows a key or a name compared with a row-picking subquery stands for, or None."""
    inner, column = cond.subquery, cond.item.column if cond.item is not None else None
    if not isinstance(inner, _Select) or column is None or not inner.picks_rows() or cond.op not in ("=", "in"):
        return None
    if not (column.key or _is_naming(column.name)) or inner.main is None:
        return None
    if column.table == inner.main or (column.key and not _is_naming(column.name)):
        return inner.main.name
    return None


def _predicate(cond: _Cond, time: bool, query: _Select) -> str:
    if cond.subquery is not None:
        return _subquery_predicate(cond, query)
    if cond.op == "like":
        return _like(cond.like or "", cond.negated)
    if cond.op == "between":
        return _cat("不在" if cond.negated else "在", cond.values[0], "到", cond.values[1], "之间")
    if cond.op == "null":
        return "不为空" if cond.negated else "为空"
    if cond.op == "in":
        return _cat("不是" if cond.negated else "为", _list(cond.values, "或"))
    op = _NEGATED[cond.op] if cond.negated else cond.op
    said = (_SAID_OF_TIME if time else _SAID)[op]
    if cond.column_value:
        said = {"为": "等于", "不为": "不等于"}.get(said, said)
    return _cat(said, cond.values[0])


def _like(pattern: str, negated: bool) -> str:
    core = pattern.strip("%")
    if "%" in core or "_" in core or not core:
        return _cat("不符合" if negated else "符合", f"“{pattern}”", "的格式")
    if pattern.startswith("%") and pattern.endswith("%"):
        return _cat("不包含" if negated else "包含", f"“{core}”")
    if pattern.endswith("%"):
        return _cat("不以" if negated else "以", f"“{core}”", "开头")
    if pattern.startswith("%"):
        return _cat("不以" if negated else "以", f"“{core}”", "结尾")
    return _cat("不为" if negated else "为", f"“{core}”")


def _subquery_predicate(cond: _Cond, query: _Select) -> str:
    inner = cond.subquery
    if cond.op == "in":
        return _membership(inner, cond.negated)
    op = _NEGATED[cond.op] if cond.negated else cond.op
    if op in ("=", "!=") and _rows_named(cond) is not None:
        return _cat(_SAID[op], inner.population())
    said = {"为": "等于", "不为": "不等于"}.get(_SAID[op], _SAID[op])
    return _cat(said, inner.phrase())


def _membership(inner, negated: bool) -> str:
    """`x IN (SELECT ...)`: a key or a name of rows picked by the subquery says which rows ("属于城市为杭州市的场馆",
    "没有出现在养宠物表中"); anything else is a value among the subquery's values."""
    if isinstance(inner, _Select) and inner.picks_rows():
        if not inner.where and not inner.order:
            return _cat("没有出现在" if negated else "出现在", inner.entity, "表中")
        return _cat("不属于" if negated else "属于", inner.population())
    return _cat("不在" if negated else "在", inner.phrase(), "之中")


# ---------------------------------------------------------------------------------------------------------------
# Set operations
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _SetQuery:
    operator: str  # union, intersect, except
    left: object
    right: object
    group: list = field(default_factory=list)
    limit: int | None = None
    order: list = field(default_factory=list)

    def _same_rows(self) -> bool:
        """Both sides select the same thing of the same table, so only their conditions differ."""
        left, right = self.left, self.right
        return (
            isinstance(left, _Select)
            and isinstance(right, _Select)
            and not left.group
            and not right.group
            and left.main == right.main
            and left.labels() == right.labels()
            and (bool(left.where) or self.operator == "except")
            and (bool(right.where) or (self.operator == "except" and bool(right._joined_only())))
            and not left._joined_only()
            and (self.operator == "except" or not right._joined_only())
            and not left.order
            and not right.order
        )

    def phrase(self) -> str:
        if self._same_rows():
            return self._merged()
        first, second = self.left.phrase(), self.right.phrase()
        return {
            "union": _cat(first, "以及", second),
            "intersect": _cat("同时出现在", first, "和", second, "中的值"),
            "except": _cat("出现在", first, "中、但不出现在", second, "中的值"),
        }[self.operator]

    def _merged(self) -> str:
        """Both sides' conditions on the same rows: "主要行业为 A 或总部为 B 的公司的名称", "除…以外，其他公司的
        总部"."""
        left, right = self.left, self.right
        first, second = left.where_words(), right.where_words()
        entity = left.entity
        words = _list([left.item_words(item) for item in left.items])
        if self.operator == "except":
            rest = left.population() if first else _cat("其他", entity)
            return _cat("除", right.population(), "以外，", rest, "的", words)
        if self.operator == "intersect" and not all(item.column is not None and item.column.key for item in left.items):
            # Values, not rows: the teams eliminated by Orton and by Benjamin are two rows' teams, not one row's.
            return _cat(left.population(), "和", right.population(), "中都有的", words)
        joined = _cat(first, "或", second) if self.operator == "union" else _cat(first, "、同时", second)
        return _cat(joined, "的", entity, "的", words)

    def names_rows(self) -> bool:
        return False

    def counts_only(self) -> bool:
        return False

    def sorted_words(self) -> str:
        return ""

    def nothing(self) -> str:
        return _cat("没有找到", self.phrase(), "。")

    @property
    def items(self) -> list[_Item]:
        return self.left.items

    def reported_items(self) -> list[_Item]:
        return self.left.items

    def labels(self) -> list[str]:
        return self.left.labels()


# ---------------------------------------------------------------------------------------------------------------
# The sentence
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Result:
    rows: list
    shown: int
    total: int | None  # rows in the whole result; None when not counted

    @classmethod
    def of(cls, result) -> _Result:
        result = result if isinstance(result, dict) else {}
        rows = [row if isinstance(row, list | tuple) else [row] for row in (result.get("rows") or [])]
        total = result.get("total_rows")
        if not isinstance(total, int) or isinstance(total, bool) or total < len(rows):
            total = None if result.get("truncated") else len(rows)
        return cls(rows, len(rows), total)

    @property
    def complete(self) -> bool:
        return self.total is not None and self.total == self.shown


def _generic(table: _Result) -> str:
    if table.complete and table.total == 0:
        return GENERIC_DRAFT + "没有符合条件的记录，结果为空。"
    if table.complete and table.total == 1 and len(table.rows[0]) == 1:
        return GENERIC_DRAFT + _cat("结果是", _value(table.rows[0][0]), "。")
    return GENERIC_DRAFT + _size_note(table)


def _size_note(table: _Result) -> str:
    if table.total is None:
        return _cat("表中只显示了结果的前", str(table.shown), "行。")
    if table.complete:
        return _cat("结果共", str(table.total), "行。")
    return _cat("结果共", str(table.total), "行，表中显示前", str(table.shown), "行。")


def _fold(query, table: _Result) -> str:
    if table.complete and table.total == 0:
        return query.nothing()
    if query.counts_only() and table.complete and table.total == 1 and len(table.rows[0]) == 1:
        return _count_sentence(query, table.rows[0][0])
    has_star = any(item.kind == "star" for item in query.items)
    if table.complete and table.total <= FEW_ROWS and not has_star:
        return _listed(query, table)
    return _described(query, table)


def _count_sentence(query: _Select, number) -> str:
    if not isinstance(number, int) or isinstance(number, bool):
        return _cat(query.phrase(), "是", _value(number), "。")
    if number == 0:
        return query.nothing()  # "没有找到…", or "所有…都出现在…表中" for a NOT IN
    item = query.items[0]
    if item.distinct and item.column is not None:
        words = query.column_words(item.column)
        if item.column.key:
            return _cat(query.population(), "中共有", str(number), "个不同的", words, "。")
        return _cat(query.population(), "中不同的", words, "共有", str(number), "种。")
    if not query.where:
        return _cat("共有", str(number), _measure(query.entity), query.entity, "。")
    return _cat(query.population(), "共有", str(number), _measure(query.entity), "。")


def _listed(query, table: _Result) -> str:
    sort = query.sorted_words()
    sort = f"（{sort}）" if sort else ""
    if query.group:
        return _grouped_listing(query, table, sort)
    if len(table.rows[0]) == 1:
        values = _list([_value(row[0]) for row in table.rows])
        if query.names_rows():
            return _cat(query.population(), "是", values, sort, "。")
        return _cat(query.phrase(), "是", values, sort, "。")
    labels = query.labels()
    if table.total == 1 and len(labels) == len(table.rows[0]):
        said = [_cat(label, "是", _value(value)) for label, value in zip(labels, table.rows[0], strict=True)]
        subject = query.population() if isinstance(query, _Select) else query.phrase()
        return _cat(subject, "的", "，".join(said), "。")
    rows = ["，".join(_value(value) for value in row) for row in table.rows]
    return _cat(query.phrase(), "如下", sort, "：", "；".join(rows), "。")


def _grouped_listing(query: _Select, table: _Result, sort: str) -> str:
    """ "每个国家的歌手数量：中国 3，美国 2。": a grouped result, each group's label and its figures."""
    label_positions = [i for i, item in enumerate(query.items) if query.labels_group(item)]
    figures = [i for i in range(len(query.items)) if i not in label_positions]
    rows = []
    for row in table.rows:
        if len(row) != len(query.items):
            raise ValueError(  # i18n-exempt: the generic draft is given instead
                "the result does not have the query's columns"
            )
        label = " ".join(_value(row[i]) for i in label_positions)
        said = " ".join(_value(row[i]) for i in figures)
        rows.append(f"{label} {said}" if figures and label else said if figures else label)
    if not figures or not label_positions:  # the groups themselves, or figures whose groups are not selected
        return _cat(query.phrase(), "分别是" if figures else "是", _list(rows), sort, "。")
    if len(table.rows) == 1 and (query.having or query._superlative()):
        said = [_cat(query.item_words(query.items[i]), "是", _value(table.rows[0][i])) for i in figures]
        label = " ".join(_value(table.rows[0][i]) for i in label_positions)
        if not label:
            return _cat(query.population(), "的", "，".join(said), "。")
        return _cat(query.population(), "是", label, "，其", "，".join(said), "。")
    return _cat(query.phrase(), sort, "：", "，".join(rows), "。")


def _described(query, table: _Result) -> str:
    sort = query.sorted_words()
    head = _cat(query.phrase(), "如下", f"（{sort}）" if sort else "")
    if table.complete and table.total == 1:
        return _cat(head, "。")  # one row: "共 1 行" says nothing
    if table.total is None:
        return _cat(head, "，表中只显示了前", str(table.shown), "行。")
    if table.complete:
        return _cat(head, "，共", str(table.total), "行。")
    return _cat(head, "，共", str(table.total), "行，表中显示前", str(table.shown), "行。")
