from django.template import Context, Template

from annotation.templatetags.sql_tags import pretty_sql


def test_goal_sql_is_laid_out_one_clause_per_line_with_dataset_strings():
    sql = 'select T1.name from student as T1 join has_pet as T2 on T1.stuid = T2.stuid where T1.country = "France"'
    assert pretty_sql(sql).splitlines() == [
        "SELECT",
        "  T1.name",
        "FROM student AS T1",
        "JOIN has_pet AS T2",
        "  ON T1.stuid = T2.stuid",
        "WHERE",
        "  T1.country = 'France'",
    ]


def test_sql_that_does_not_parse_is_shown_as_written():
    assert pretty_sql("SELECT FROM WHERE (") == "SELECT FROM WHERE ("
    assert pretty_sql("") == ""
    assert pretty_sql(None) == ""


def test_the_filter_escapes_like_any_other_text():
    rendered = Template("{% load sql_tags %}{{ sql|pretty_sql }}").render(Context({"sql": "SELECT '<b>' FROM t"}))
    assert "&lt;b&gt;" in rendered
