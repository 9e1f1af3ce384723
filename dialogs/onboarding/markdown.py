"""The guidelines' Markdown: a small, safe subset, rendered from escaped text (docs/experts.md).

The text an admin saves is never HTML: every character is escaped first, and only the markup below becomes tags, made
here. So a guideline that says `<script>` shows those characters, and nothing in the database reaches a page as HTML.

- `# `, `## `, `### ` at the start of a line: a heading (shown one level below the page's own headings);
- `- ` or `* ` at the start of lines: a bulleted list; `1. ` and so on: a numbered list;
- a line of three backticks opens and closes a block of code (SQL examples), shown as written;
- `**bold**`, `*emphasis*` and `` `code` `` inside a line;
- a blank line ends a paragraph. Nothing else: no links, images, tables or raw HTML.
"""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_HEADING = re.compile(r"^(#{1,3})\s+(.*)$")
_BULLET = re.compile(r"^[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^\d{1,3}[.)]\s+(.*)$")
_FENCE = re.compile(r"^```")
# Applied to escaped text, so the markers are the only characters they can match; code first, so that nothing inside
# backticks is read as emphasis.
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")


def _inline(text: str) -> str:
    """One line's inline markup, on text that is not escaped yet."""
    parts = []
    for index, piece in enumerate(_CODE.split(escape(text))):
        if index % 2:
            parts.append(f"<code>{piece}</code>")
        else:
            piece = _BOLD.sub(r"<strong>\1</strong>", piece)
            parts.append(_EMPHASIS.sub(r"<em>\1</em>", piece))
    return "".join(parts)


def guidelines_html(text: str) -> SafeString:
    """The HTML of a guideline written in the subset above; every character of `text` is escaped."""
    out: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    list_tag = ""
    code: list[str] | None = None

    def close_paragraph():
        if paragraph:
            out.append("<p>" + "<br>".join(_inline(line) for line in paragraph) + "</p>")
            paragraph.clear()

    def close_list():
        nonlocal list_tag
        if items:
            out.append(f"<{list_tag}>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + f"</{list_tag}>")
            items.clear()
        list_tag = ""

    for raw in (text or "").replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        if code is not None:
            if _FENCE.match(line.strip()):
                out.append('<pre class="mono sql-block">' + escape("\n".join(code)) + "</pre>")
                code = None
            else:
                code.append(raw)
            continue
        stripped = line.strip()
        if _FENCE.match(stripped):
            close_paragraph()
            close_list()
            code = []
            continue
        if not stripped:
            close_paragraph()
            close_list()
            continue
        heading = _HEADING.match(stripped)
        bullet = _BULLET.match(stripped)
        numbered = _NUMBERED.match(stripped)
        if heading:
            close_paragraph()
            close_list()
            level = len(heading.group(1)) + 2  # the page's own headings are h1 and h2
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif bullet or numbered:
            close_paragraph()
            tag = "ul" if bullet else "ol"
            if list_tag and list_tag != tag:
                close_list()
            list_tag = tag
            items.append((bullet or numbered).group(1))
        else:
            close_list()
            paragraph.append(stripped)
    if code is not None:  # a block never closed: shown as code all the same
        out.append('<pre class="mono sql-block">' + escape("\n".join(code)) + "</pre>")
    close_paragraph()
    close_list()
    return mark_safe("\n".join(out))  # noqa: S308 - built above from escaped text only
