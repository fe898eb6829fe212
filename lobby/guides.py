"""The bot API's guides as pages of the site: ``docs/bots.md`` at ``/docs/bots/`` and
``docs/protocol.md`` at ``/docs/protocol/``, rendered from the files themselves when
asked (and again whenever a file changes), so a page cannot differ from its file; and the
reference bot, ``tools/bots/random_bot.py``, at ``/docs/bots/random_bot.py`` as plain text.

The Markdown is CommonMark with tables (markdown-it-py), raw HTML in it escaped. The
files link to each other as files do (``[docs/protocol.md](protocol.md)``, which works in
a repository's viewer too); here those links lead to the pages. Each heading gets an
``id`` to link to, a code block or a table scrolls sideways inside itself on a narrow
screen (focusable, so a keyboard can scroll it), and the file's own title gives way to
the page's, in the reader's language: the guide's text is English.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from markdown_it import MarkdownIt


@dataclass(frozen=True)
class Guide:
    file: str  # under the repository's root
    url_name: str
    title: str


GUIDES = {
    "bots": Guide("docs/bots.md", "bot_guide", _("Writing a bot")),
    "protocol": Guide("docs/protocol.md", "protocol_guide", _("The table's WebSocket protocol")),
}
REFERENCE_BOT = "tools/bots/random_bot.py"

#: The files' links to one another, as written in docs/, and the page each leads to.
LINKS = {
    "bots.md": "bot_guide",
    "protocol.md": "protocol_guide",
    "../" + REFERENCE_BOT: "reference_bot",
}


@dataclass(frozen=True)
class Rendered:
    html: str
    #: The second-level headings, (id, text), for the page's contents.
    sections: tuple[tuple[str, str], ...]


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _link(href: str) -> str:
    path, hash_, anchor = href.partition("#")
    if path in LINKS:
        return reverse(LINKS[path]) + hash_ + anchor
    return href


@functools.lru_cache(maxsize=8)
def _render(text: str) -> Rendered:
    md = _markdown()
    tokens = md.parse(text)
    if tokens and tokens[0].type == "heading_open" and tokens[0].tag == "h1":
        tokens = tokens[3:]  # the file's title: the page has its own
    taken: set[str] = set()
    sections = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            words = tokens[i + 1].content
            slug = base = slugify(words.replace("`", "")) or "section"
            n = 1
            while slug in taken:
                n += 1
                slug = f"{base}-{n}"
            taken.add(slug)
            token.attrSet("id", slug)
            if token.tag == "h2":
                sections.append((slug, words.replace("`", "")))
        elif token.type == "inline":
            for child in token.children or ():
                if child.type == "link_open":
                    child.attrSet("href", _link(str(child.attrGet("href") or "")))
    html = md.renderer.render(tokens, md.options, {})
    # Raw HTML in the file is escaped, so these tags are only the renderer's own.
    html = html.replace("<pre>", '<pre tabindex="0">')
    html = html.replace("<table>", '<div class="table-scroll" tabindex="0"><table>')
    html = html.replace("</table>", "</table></div>")
    return Rendered(html, tuple(sections))


def rendered(guide: Guide) -> Rendered:
    """The guide's file as HTML, as the file is now."""
    path = Path(settings.BASE_DIR) / guide.file
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:  # a copy of the site without its docs/
        raise Http404 from exc
    return _render(text)


def _page(request, key: str):
    guide = GUIDES[key]
    page = rendered(guide)
    return render(
        request,
        "lobby/guide.html",
        {
            "guide": guide,
            "guide_key": key,
            "guide_html": mark_safe(page.html),  # our own file, its raw HTML escaped
            "sections": page.sections,
        },
    )


def bot_guide(request):
    return _page(request, "bots")


def protocol_guide(request):
    return _page(request, "protocol")


def reference_bot(request):
    """The reference bot's source, to read or save and run."""
    path = Path(settings.BASE_DIR) / REFERENCE_BOT
    if not path.exists():
        raise Http404
    response = FileResponse(path.open("rb"), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="random_bot.py"'
    return response
