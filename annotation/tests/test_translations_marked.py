"""No string a person reads is left unmarked where a scan can tell (docs/i18n.md): the sources are read as Python
(ast), so this needs no gettext and runs in a fraction of a second.

- every flash message (`messages.success/error/info/warning/debug/add_message`) anywhere in the apps;
- the refusals views and forms raise or add (`ValidationError`, `PermissionDenied`, `form.add_error`) and the label
  rules' `LabelError`s, which a room's socket passes on;
- the labels, help texts and choices written in forms;
- the message of every exception raised anywhere outside tests, migrations and management commands (a service's
  refusal reaches a page or a socket through the view that catches it), but for the exceptions that never reach a
  person (`NEVER_SHOWN`) and a raise carrying the comment `# i18n-exempt: <why>` (a programmer's invariant, an
  operator's setting). An exception given a stable code and a message (`DialogueError("invalid", _("..."))`) is read
  at its message.

A text is unmarked when it is a string literal, an f-string, or a literal glued to or formatting something; a call of
gettext (or ngettext, format_lazy, format_html …) is marked; anything else (a variable, an exception's message) is
left to the code that made it. What is deliberately not marked (uploaded files' errors, SQL, data) is out of the scan.
"""

import ast
import re
from pathlib import Path

from django.conf import settings

REPO = Path(settings.BASE_DIR)
APPS = ("annotation", "dialogs", "review", "config")
MESSAGE_LEVELS = {"success", "error", "info", "warning", "debug"}
MARKING = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "format_lazy",
    "format_html",
}
REFUSALS = {"ValidationError", "PermissionDenied", "LabelError"}
# Exceptions whose message no person reads: programming errors, Django's 404 (its page never shows the message outside
# DEBUG), an operator's settings, management commands (Django runs them untranslated), internal flow.
NEVER_SHOWN = {
    "AssertionError",
    "AttributeError",
    "CommandError",
    "Http404",
    "ImproperlyConfigured",
    "IndexError",
    "KeyError",
    "NotImplementedError",
    "RuntimeError",
    "SettingError",
    "TypeError",
}
EXEMPT = "# i18n-exempt:"
STABLE_CODE = re.compile(r"^[a-z][a-z0-9_]*$")
# Words that read the same in every language.
SAME_IN_EVERY_LANGUAGE = {"SQL"}


def _name(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def unmarked(node) -> bool:
    """True when `node` is a text written here and not through gettext."""
    if isinstance(node, ast.Constant):
        return (
            isinstance(node.value, str)
            and any(c.isalpha() for c in node.value)
            and (node.value not in SAME_IN_EVERY_LANGUAGE)
        )
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.Constant) and any(c.isalpha() for c in part.value) for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return unmarked(node.left)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return unmarked(node.left) or unmarked(node.right)
    if isinstance(node, ast.IfExp):
        return unmarked(node.body) or unmarked(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return unmarked(node.func.value)
    return False


def _message_texts(node: ast.Call) -> list:
    if not (isinstance(node.func, ast.Attribute) and _name(node.func.value) == "messages"):
        return []
    if node.func.attr in MESSAGE_LEVELS:
        return node.args[1:2]
    return node.args[2:3] if node.func.attr == "add_message" else []


def _refusal_texts(node: ast.Call) -> list:
    name = _name(node.func)
    if name in REFUSALS:
        return node.args[:1]
    return node.args[1:2] if name == "add_error" else []


def _raise_text(node: ast.Raise, lines: list[str]):
    """The message of `raise X(...)`, or None when X never reaches a person or the raise is exempt."""
    call = node.exc
    if not (isinstance(call, ast.Call) and call.args) or _name(call.func) in NEVER_SHOWN:
        return None
    if any(EXEMPT in line for line in lines[node.lineno - 1 : node.end_lineno]):
        return None
    first = call.args[0]
    coded = isinstance(first, ast.Constant) and isinstance(first.value, str) and STABLE_CODE.match(first.value)
    if coded and len(call.args) > 1:
        return call.args[1]
    return None if coded else first


def _form_texts(node: ast.Call) -> list:
    texts = [keyword.value for keyword in node.keywords if keyword.arg in ("label", "help_text")]
    for keyword in node.keywords:
        if keyword.arg == "choices" and isinstance(keyword.value, ast.List):
            texts += [e.elts[1] for e in keyword.value.elts if isinstance(e, ast.Tuple) and len(e.elts) == 2]
    return texts


def _findings(tree, *, refusals: bool, form_texts: bool, lines: list[str]):
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            text = _raise_text(node, lines)
            if text is not None and unmarked(text):
                yield node.lineno, ast.unparse(text)[:100]
        if not isinstance(node, ast.Call):
            continue
        texts = _message_texts(node)
        texts += _refusal_texts(node) if refusals else []
        texts += _form_texts(node) if form_texts else []
        for text in texts:
            if unmarked(text):
                yield node.lineno, ast.unparse(text)[:100]


def unmarked_texts(source: str, path: str) -> list[str]:
    """Each unmarked text of one module, as `path:line: text`."""
    name = Path(path).name
    screen = name in ("views.py", "forms.py") or name.endswith(("_views.py", "_forms.py"))
    rules = path.replace("\\", "/").endswith("annotation/labels/acts.py")
    found = _findings(
        ast.parse(source),
        refusals=screen or rules,
        form_texts=name.endswith("forms.py") or screen,
        lines=source.splitlines(),
    )
    return list(dict.fromkeys(f"{path}:{line}: {text}" for line, text in sorted(found)))


def _sources():
    for app in APPS:
        for path in sorted((REPO / app).rglob("*.py")):
            parts = path.relative_to(REPO).parts
            if "tests" in parts or "migrations" in parts or "management" in parts:
                continue
            yield path


def test_the_scan_finds_an_unmarked_text():
    source = """
from django.contrib import messages
from django.utils.translation import gettext as _
def view(request, n):
    messages.success(request, f"Saved {n} rows.")
    messages.error(request, "Refused: " + reason)
    messages.info(request, _("Saved %(n)s rows.") % {"n": n})
    messages.warning(request, refused.message)
    raise ValidationError("No such table.")
"""
    found = unmarked_texts(source, "dialogs/views.py")
    assert [line.split(":")[1] for line in found] == ["5", "6", "9"], found
    assert unmarked_texts("x = forms.CharField(label='Name', help_text=_('Why'))", "review/forms.py") != []
    assert unmarked_texts("x = forms.CharField(label=_('Name'), choices=[('a', _('A'))])", "review/forms.py") == []


def test_the_scan_reads_a_services_raises():
    source = """
from django.utils.translation import gettext as _
def serve(n):
    raise ReviewError("stale", f"Pass {n} was taken.")
    raise ReviewError("stale", _("Pass %(n)s was taken.") % {"n": n})
    raise ValueError("No such pass.")
    raise ValueError("the cache is cold")  # i18n-exempt: a programming error
    raise TypeError("expected a str")
    raise Http404("No pass.")
    raise DialogueError("invalid", reason)
    raise ValueError(
        "a long invariant"  # i18n-exempt: said on the raise's own lines
    )
"""
    found = unmarked_texts(source, "review/passes/services.py")
    assert [line.split(":")[1] for line in found] == ["4", "6"], found


def test_no_flash_message_refusal_or_form_text_is_left_unmarked():
    found = []
    for path in _sources():
        found += unmarked_texts(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert found == [], "mark these for translation (docs/i18n.md):\n" + "\n".join(found)
