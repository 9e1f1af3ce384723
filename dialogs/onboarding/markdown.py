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
    rendered = _Rendering()
    for raw in (text or "").replace("\r\n", "\n").split("\n"):
        rendered.add(raw)
    return mark_safe(rendered.html())  # noqa: S308 - built from escaped text only


class _Rendering:
    """A guideline being rendered line by line: the HTML so far, and the paragraph, list or code block still open."""

    def __init__(self):
        self.out: list[str] = []
        self.paragraph: list[str] = []
        self.items: list[str] = []
        self.list_tag = ""
        self.code: list[str] | None = None

    def add(self, raw: str) -> None:
        line = raw.rstrip()
        if self.code is not None:
            if _FENCE.match(line.strip()):
                self.close_code()
            else:
                self.code.append(raw)
            return
        stripped = line.strip()
        if _FENCE.match(stripped):
            self.close_paragraph()
            self.close_list()
            self.code = []
        elif not stripped:
            self.close_paragraph()
            self.close_list()
        else:
            self.add_text(stripped)

    def add_text(self, stripped: str) -> None:
        """A line of text: a heading, a list item, or a line of a paragraph."""
        heading = _HEADING.match(stripped)
        bullet = _BULLET.match(stripped)
        numbered = _NUMBERED.match(stripped)
        if heading:
            self.close_paragraph()
            self.close_list()
            level = len(heading.group(1)) + 2  # the page's own headings are h1 and h2
            self.out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif bullet or numbered:
            self.close_paragraph()
            tag = "ul" if bullet else "ol"
            if self.list_tag and self.list_tag != tag:
                self.close_list()
            self.list_tag = tag
            self.items.append((bullet or numbered).group(1))
        else:
            self.close_list()
            self.paragraph.append(stripped)

    def close_code(self) -> None:
        self.out.append('<pre class="mono sql-block">' + escape("\n".join(self.code)) + "</pre>")
        self.code = None

    def close_paragraph(self) -> None:
        if self.paragraph:
            self.out.append("<p>" + "<br>".join(_inline(line) for line in self.paragraph) + "</p>")
            self.paragraph.clear()

    def close_list(self) -> None:
        if self.items:
            tag = self.list_tag
            self.out.append(f"<{tag}>" + "".join(f"<li>{_inline(item)}</li>" for item in self.items) + f"</{tag}>")
            self.items.clear()
        self.list_tag = ""

    def html(self) -> str:
        if self.code is not None:  # a block never closed: shown as code all the same
            self.close_code()
        self.close_paragraph()
        self.close_list()
        return "\n".join(self.out)
