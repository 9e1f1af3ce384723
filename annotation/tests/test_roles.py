"""The permission matrix: every page answers anonymous → login, wrong role → 403, right role → 200."""

import pytest
from django.urls import reverse

from annotation.people.roles import ACCESS_MARKERS, PERMISSIONS, can

PERSONAS = ["alice", "erin", "rita", "ada"]

# (url name, kwargs, personas allowed). The database pages use the demo dormitory database.
PAGES = [
    ("dialogs:worker_home", {}, {"alice"}),
    ("dialogs:tutorial", {}, {"alice"}),
    ("dialogs:worker_history", {}, {"alice"}),
    ("dialogs:expert_home", {}, {"erin", "ada"}),
    ("expert_own_work", {}, {"erin", "ada"}),
    ("review:home", {}, {"rita", "ada"}),
    ("annotation:admin_home", {}, {"ada"}),
    ("annotation:database_list", {}, {"erin", "rita", "ada"}),
    ("annotation:database_upload", {}, {"ada"}),
    ("annotation:database_detail", {"db_id": "dorm_demo"}, {"erin", "rita", "ada"}),
    ("annotation:database_table", {"db_id": "dorm_demo", "table_index": 0}, {"erin", "rita", "ada"}),
    ("annotation:goal_list", {}, {"erin", "rita", "ada"}),
    ("annotation:goal_new", {}, {"ada"}),
    ("annotation:people", {}, {"ada"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs", "allowed"), PAGES, ids=[page[0] for page in PAGES])
def test_every_page_checks_the_role(client, request, demo_databases, name, kwargs, allowed):
    url = reverse(name, kwargs=kwargs)
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login")), "anonymous must sign in"
    for persona in PERSONAS:
        user = request.getfixturevalue(persona)
        client.force_login(user)
        expected = 200 if persona in allowed else 403
        assert client.get(url).status_code == expected, f"{persona} on {name}"
        client.logout()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("annotation:sql_validate", {"db_id": "dorm_demo"}),
        ("annotation:sql_run", {"db_id": "dorm_demo"}),
    ],
)
def test_workers_never_reach_sql(client, alice, erin, demo_databases, name, kwargs):
    url = reverse(name, kwargs=kwargs)
    client.force_login(alice)
    response = client.post(url, {"sql": "SELECT * FROM Student"}, content_type="application/json")
    assert response.status_code == 403
    assert b"Student" not in response.content
    client.force_login(erin)
    assert client.post(url, {"sql": "SELECT 1"}, content_type="application/json").status_code == 200


@pytest.mark.django_db
def test_blocked_people_may_do_nothing(client, mallory):
    assert not any(can(mallory, permission) for permission in PERMISSIONS)
    client.force_login(mallory)
    assert client.get(reverse("dialogs:worker_home")).status_code == 403


@pytest.mark.django_db
def test_home_sends_each_role_to_its_page(client, alice, erin, rita, ada):
    expected = {
        alice: "dialogs:worker_home",
        erin: "dialogs:expert_home",
        rita: "review:home",
        ada: "annotation:admin_home",
    }
    for person, url_name in expected.items():
        client.force_login(person)
        assert client.get(reverse("home")).url == reverse(url_name)


def test_unknown_permission_is_a_bug():
    with pytest.raises(KeyError):
        can(None, "chat.as_wizard")


def test_anonymous_holds_no_permission():
    from django.contrib.auth.models import AnonymousUser

    assert not any(can(AnonymousUser(), permission) for permission in PERMISSIONS)


@pytest.mark.django_db
def test_every_view_declares_a_permission():
    """A page without a role check is a hole: every annotation/dialogs/review view is wrapped by role_required."""
    from django.urls import get_resolver

    unchecked = []
    for pattern in get_resolver().url_patterns:
        stack = [(pattern, "")]
        while stack:
            item, prefix = stack.pop()
            if hasattr(item, "url_patterns"):
                stack.extend((child, prefix + str(item.pattern)) for child in item.url_patterns)
                continue
            module = getattr(item.callback, "__module__", "")
            if module.split(".")[0] in {"annotation", "dialogs", "review"} and item.callback.__name__ != "home":
                declared = getattr(item.callback, "required_permission", "missing")
                # A permission, None (an open view, with its reason) or a known marker; anything else is no rule.
                if not (declared is None or declared in PERMISSIONS or declared in ACCESS_MARKERS):
                    unchecked.append(f"{prefix}{item.pattern}: {declared!r}")
    assert unchecked == []
