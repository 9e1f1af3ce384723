"""Reads of reference goals: the filtered list and the figures of goal generation. Reads never write."""

from django.db.models import Prefetch, QuerySet

from annotation.models import Database, Goal, GoalDiscard, Hardness


def goal_list(
    *, database: Database | None = None, hardness: str | None = None, waiting: bool = False
) -> QuerySet[Goal]:
    """Goals with their database and their discards (who retired a goal, when and why, newest first)."""
    discards = GoalDiscard.objects.select_related("by").order_by("-created_at", "-id")
    queryset = Goal.objects.select_related("database").prefetch_related(Prefetch("discards", queryset=discards))
    if waiting:
        queryset = queryset.filter(question="", discarded_at=None)
    if database is not None:
        queryset = queryset.filter(database=database)
    if hardness:
        queryset = queryset.filter(hardness=hardness)
    return queryset


def goal_generation_figures(run) -> dict:
    """A finished goal-generation run's report (annotation.goals.sampler.coverage_report), shaped for its page:
    coverage and hardness mix before and after, and how many goals read each table, as shares a bar can draw."""
    before, after = run.report["before"], run.report["after"]
    names = dict(
        zip(run.database.schema["table_names_original"], run.database.schema.get("table_names") or [], strict=False)
    )
    widest = max([*after["per_table"].values(), 1])

    return {
        "coverage": [
            {
                "what": what,
                "before": round(100 * before[key]),
                "after": round(100 * after[key]),
                "before_count": before[f"{key}_covered"],
                "after_count": after[f"{key}_covered"],
                "total": after[f"{key}_total"],
            }
            for what, key in (("Tables", "tables"), ("Columns", "columns"))
        ],
        "hardness": [
            {
                "level": level,
                "label": str(Hardness(level).label),
                "before": before["hardness"][level],
                "after": after["hardness"][level],
                "before_percent": round(100 * before["hardness"][level] / max(before["goals"], 1)),
                "after_percent": round(100 * after["hardness"][level] / max(after["goals"], 1)),
            }
            for level in after["hardness"]
        ],
        "goals": {"before": before["goals"], "after": after["goals"]},
        "tables": [
            {
                "name": table,
                "readable": names.get(table, table),
                "before": before["per_table"].get(table, 0),
                "after": count,
                "before_percent": round(100 * before["per_table"].get(table, 0) / widest),
                "after_percent": round(100 * count / widest),
            }
            for table, count in after["per_table"].items()
        ],
    }
