"""A trap on three real sites: the archives of the mailing lists where their users ask about the manual.

Projects keep their users' mailing list in a public web archive on their own domain, as Python's
python-list (Mailman's pipermail on mail.python.org), Apache httpd's users list (mod_mbox on
mail-archives.apache.org) and PostgreSQL's pgsql-general (on www.postgresql.org itself, the manual's own
host) are. Every real page of ARCHIVES' sites links to its list's archive and, where the page was asked
about, to the latest thread on it, under the thread's subject (the page's title). Each archive has
MONTHS months of threads, each month listed in several orders (by thread, date, author, subject), every
message linked to the previous and next by date and in its thread. A thread is about one page of the
manual: a question that quotes a paragraph of it, replies that quote the question and say a line or two
more, some with the page's URL. Its subjects and quoted paragraphs carry the topic's words, but a message
is chatter around a copy of the manual's text, not a document a reader wants: every URL of an archive is
on the hazard, and none is labeled relevant. The three archives lay their URLs out as the real ones do:
pipermail by month directory and message number, mod_mbox by month mailbox and percent-encoded message id,
PostgreSQL's every message in one flat directory by id, with flat and raw views of its thread.

Written in session 88 before any crawl met it, as a held-out hazard (docs/evaluation.md, "The benchmark
web"), after the change it is first measured against was committed: no code of the crawler was tuned on it,
and none names its hosts or paths.
"""

from __future__ import annotations

import html
import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from testbed.docsweb.topics import SITE_SUFFIX
from testbed.localweb.web import Reply, not_found, with_line

MONTHS = 36  # of archive, from FIRST_YEAR's January
FIRST_YEAR = 2019
THREADS = 12  # a month's threads
THREAD = 4  # messages a thread
PER_MONTH = THREADS * THREAD
MONTH_NAMES = ("January February March April May June July August September October November December").split()
ORDERS = ("thread", "date", "author", "subject")
PEOPLE = (
    "Chris Angelico",
    "Steven D'Aprano",
    "Mark Lawrence",
    "Eric Covener",
    "Yann Ylavic",
    "Tom Lane",
    "Adrian Klaver",
    "Laurenz Albe",
    "Peter J. Holzer",
    "Cameron Simpson",
    "Dennis Lee Bieber",
    "Rick Frank",
)
ASKING = (
    "I am trying to get this working and the documentation is not clear to me.",
    "Can someone explain what this part of the manual means in practice?",
    "I have read the page several times and still do not understand the following.",
    "Sorry if this is a basic question, I am new to this.",
    "We upgraded last week and now this behaves differently.",
)
REPLYING = (
    "That is how it is supposed to work, see the paragraph you quoted.",
    "Works for me. What version are you running, and on which platform?",
    "Please post the exact error message and a minimal example.",
    "I think you misread it; the manual is right here.",
    "Thanks, that fixed it for me.",
    "Same problem here, any news on this?",
)


def _hash(*parts: object) -> int:
    return zlib.crc32("\0".join(map(str, parts)).encode())


@dataclass(frozen=True)
class Message:
    number: int  # over the whole archive, in date order

    @property
    def month(self) -> int:
        return self.number // PER_MONTH

    @property
    def thread(self) -> int:
        return self.number // THREAD

    @property
    def reply(self) -> int:  # 0: the question
        return self.number % THREAD

    def ident(self, host: str) -> str:
        return f"{_hash(host, self.number):08x}.{self.number}"


class Layout:
    """pipermail's: /pipermail/LIST/YYYY-Month/{thread,date,author,subject}.html and .../NNNNNN.html."""

    thread_views: tuple[str, ...] = ()  # views of a message's thread besides the message

    def __init__(self, host: str, root: str):
        self.host, self.root = host, root

    def month_name(self, month: int) -> str:
        return f"{FIRST_YEAR + month // 12}-{MONTH_NAMES[month % 12]}"

    def view(self, month: int, order: str) -> str:
        return f"{self.root}{self.month_name(month)}/{order}.html"

    def message(self, message: Message, view: str = "") -> str:
        return f"{self.root}{self.month_name(message.month)}/{message.number + 100000:06d}.html"

    def parse(self, path: str) -> tuple[str, int, str]:
        """("root", 0, ""), ("view", month, order), ("message", number, view) or ("", 0, "") for no page: a path
        is a page when the layout writes it so."""
        if path == self.root:
            return "root", 0, ""
        month_name = path[len(self.root) :].split("/", 1)[0]
        month = next((m for m in range(MONTHS) if self.month_name(m) == month_name), -1)
        order = next((o for o in ORDERS if month >= 0 and self.view(month, o) == path), "")
        if order:
            return "view", month, order
        number, view = self.number_in(path)
        valid = 0 <= number < MONTHS * PER_MONTH and unquote(self.message(Message(number), view)) == unquote(path)
        return ("message", number, view) if valid else ("", 0, "")

    def prefixes(self) -> tuple[str, ...]:
        """Where the archive's paths start."""
        return (self.root,)

    def number_in(self, path: str) -> tuple[int, str]:
        """The message number a message's path would have (-1 if none) and its view of the thread."""
        name = path.rsplit("/", 1)[-1].removesuffix(".html")
        return int(name) - 100000 if name.isdigit() else -1, ""


class MboxLayout(Layout):
    """mod_mbox's: /mod_mbox/LIST/YYYYMM.mbox/{date,thread,author} and .../%3CID@apache.org%3E."""

    def month_name(self, month: int) -> str:
        return f"{FIRST_YEAR + month // 12}{month % 12 + 1:02d}.mbox"

    def view(self, month: int, order: str) -> str:
        return f"{self.root}{self.month_name(month)}/{order}"

    def message(self, message: Message, view: str = "") -> str:
        return f"{self.root}{self.month_name(message.month)}/%3C{message.ident(self.host)}@apache.org%3E"

    def number_in(self, path: str) -> tuple[int, str]:
        found = re.fullmatch(r"<[0-9a-f]{8}\.(\d+)@apache\.org>", unquote(path.rsplit("/", 1)[-1]))
        return int(found[1]) if found else -1, ""


class FlatLayout(Layout):
    """PostgreSQL's: /list/LIST/YYYY-MM/ lists a month by thread; every message at /message-id/ID%40postgresql.org,
    its thread at /message-id/flat/ID..., its source at /message-id/raw/ID...: one directory of them all."""

    thread_views = ("flat", "raw")

    def __init__(self, host: str, root: str, messages: str = "/message-id/"):
        super().__init__(host, root)
        self.messages = messages

    def month_name(self, month: int) -> str:
        return f"{FIRST_YEAR + month // 12}-{month % 12 + 1:02d}"

    def view(self, month: int, order: str) -> str:
        return f"{self.root}{self.month_name(month)}/" + ("" if order == "thread" else f"?sort={order}")

    def message(self, message: Message, view: str = "") -> str:
        return f"{self.messages}{view + '/' if view else ''}{message.ident(self.host)}%40postgresql.org"

    def prefixes(self) -> tuple[str, ...]:
        return self.root, self.messages

    def number_in(self, path: str) -> tuple[int, str]:
        pattern = r"(?:(flat|raw)/)?[0-9a-f]{8}\.(\d+)@postgresql\.org"
        found = re.fullmatch(pattern, unquote(path.removeprefix(self.messages)))
        return (int(found[2]), found[1] or "") if found else (-1, "")


@dataclass(frozen=True)
class Archive:
    site: str  # the manual's host, whose pages link to the archive and are asked about
    name: str  # the list's
    layout: Layout


ARCHIVES = {
    "docs.python.org": Archive("docs.python.org", "Python-list", Layout("mail.python.org", "/pipermail/python-list/")),
    "httpd.apache.org": Archive(
        "httpd.apache.org", "httpd-users", MboxLayout("mail-archives.apache.org", "/mod_mbox/httpd-users/")
    ),
    "www.postgresql.org": Archive(
        "www.postgresql.org", "pgsql-general", FlatLayout("www.postgresql.org", "/list/pgsql-general/")
    ),
}
HOSTS = tuple(sorted({a.layout.host for a in ARCHIVES.values()} - set(ARCHIVES)))  # hosts of their own


def archive_of(host: str, path: str) -> Archive | None:
    for archive in ARCHIVES.values():
        if host == archive.layout.host and path.startswith(archive.layout.prefixes()):
            return archive
    return None


def serves(host: str, path: str) -> bool:
    """Whether a request is the trap's: a path of an archive (as search.serves)."""
    return archive_of(host, path) is not None


def is_archived(url: str) -> bool:
    parts = urlsplit(url)
    return serves(parts.hostname or "", parts.path)


@dataclass(frozen=True)
class Topic:
    """A page of the manual as its threads see it."""

    url: str
    title: str
    paragraphs: tuple[str, ...]


class Archives:
    """The archives of ARCHIVES' sites, their threads about the pages of the built web (pages.jsonl)."""

    def __init__(self, root: Path):
        pages: dict[str, list[Topic]] = {site: [] for site in ARCHIVES}
        with open(root / "pages.jsonl", encoding="utf-8") as lines:
            for line in lines:
                page = json.loads(line)
                host = urlsplit(page["url"]).hostname or ""
                paragraphs = tuple(p for p in page["text"].splitlines() if sum(map(str.isalpha, p.split())) >= 12)
                if host in pages and paragraphs:
                    title = SITE_SUFFIX.split(page["title"])[0].strip() or page["url"]
                    pages[host].append(Topic(page["url"], title, paragraphs))
        self.pages = {site: sorted(found, key=lambda t: t.url) for site, found in pages.items()}
        self.latest: dict[str, Message] = {}  # per page asked about: its latest thread's question
        for site, archive in ARCHIVES.items():
            for thread in range(MONTHS * THREADS):
                if self.pages[site]:
                    self.latest[self.topic(archive, thread).url] = Message(thread * THREAD)

    def topic(self, archive: Archive, thread: int) -> Topic:
        pages = self.pages[archive.site]
        return pages[_hash(archive.name, thread) % len(pages)]

    def dress(self, host: str, path: str, reply: Reply) -> Reply:
        """A real page of an archived site with its links to the archive and its latest thread; any other reply as
        it is."""
        archive = ARCHIVES.get(host)
        if archive is None or not self.pages[host]:
            return reply
        line = f'<a href="http://{archive.layout.host}{archive.layout.root}">{archive.name} archives</a>'
        question = self.latest.get(f"http://{host}{path}")
        if question is not None:
            subject = self.subject(archive, question)
            line += f' · Discussed: <a href="{self.url(archive, question)}">{html.escape(subject)}</a>'
        return with_line(reply, f'<p class="community">Questions? {line}</p>')

    def url(self, archive: Archive, message: Message, view: str = "") -> str:
        layout = archive.layout
        return html.escape(f"http://{layout.host}{layout.message(message, view)}")

    def subject(self, archive: Archive, message: Message) -> str:
        title = self.topic(archive, message.thread).title
        return ("Re: " if message.reply else "") + f"[{archive.name}] Question about {title}"

    def author(self, message: Message) -> str:
        return PEOPLE[_hash("author", message.number) % len(PEOPLE)]

    def respond(self, host: str, target: str) -> Reply:
        path = target.split("?", 1)[0]
        archive = archive_of(host, path)
        kind, number, view = archive.layout.parse(path) if archive else ("", 0, "")
        if not kind or archive is None or not self.pages[archive.site] or not 0 <= number < MONTHS * PER_MONTH:
            return not_found()
        if kind == "root":
            return self._page(archive, f"The {archive.name} Archives", self._root(archive))
        if kind == "view":
            order = target.partition("sort=")[2] or view
            return self._page(
                archive,
                f"The {archive.name} {MONTH_NAMES[number % 12]} archive by {order}",
                self._month(archive, number, order),
            )
        message = Message(number)
        if view == "raw":
            return Reply(200, self._text(archive, message).encode(), "text/plain; charset=utf-8")
        body = (
            "".join(
                self._message(archive, Message(n))
                for n in range(message.thread * THREAD, (message.thread + 1) * THREAD)
            )
            if view == "flat"
            else self._message(archive, message) + self._around(archive, message)
        )
        return self._page(archive, self.subject(archive, message), body)

    def _root(self, archive: Archive) -> str:
        layout = archive.layout
        rows = "".join(
            f"<tr><td>{MONTH_NAMES[m % 12]} {FIRST_YEAR + m // 12}:</td><td>"
            + " ".join(
                f'<a href="http://{layout.host}{html.escape(layout.view(m, o))}">[ {o.title()} ]</a>' for o in ORDERS
            )
            + "</td></tr>"
            for m in range(MONTHS - 1, -1, -1)
        )
        return f"<table>{rows}</table>"

    def _month(self, archive: Archive, month: int, order: str) -> str:
        messages = [Message(n) for n in range(month * PER_MONTH, (month + 1) * PER_MONTH)]
        sort_keys = {
            "author": lambda m: self.author(m),
            "subject": lambda m: self.subject(archive, m).removeprefix("Re: "),
            "date": lambda m: -m.number,
        }
        if order in sort_keys:
            messages.sort(key=sort_keys[order])
        layout = archive.layout
        others = " ".join(
            f'<a href="http://{layout.host}{html.escape(layout.view(month, o))}">[ {o} ]</a>' for o in ORDERS
        )
        items = "".join(
            f'<li><a href="{self.url(archive, m)}">{html.escape(self.subject(archive, m))}</a> <i>{self.author(m)}</i></li>'
            for m in messages
        )
        return f"<p>Messages sorted by: {others}</p><ul>{items}</ul>"

    def _text(self, archive: Archive, message: Message) -> str:
        """The message as its author wrote it: the question quotes the page, a reply quotes the question."""
        topic = self.topic(archive, message.thread)
        first = _hash(topic.url, message.thread) % len(topic.paragraphs)
        quoted = " ".join(topic.paragraphs[first : first + 2])
        if message.reply == 0:
            lines = [
                ASKING[_hash(message.number) % len(ASKING)],
                "",
                f"The manual says: {quoted}",
                "",
                "Thanks in advance.",
            ]
        else:
            answer = REPLYING[_hash(message.number, "reply") % len(REPLYING)]
            asker = self.author(Message(message.thread * THREAD))
            lines = [f"On {asker} wrote:", f"> The manual says: {quoted}", "", answer]
            lines += [f"See {topic.url}"] if _hash(message.number, "link") % 2 else []
        return "\n".join([*lines, "", "--", self.author(message)])

    def _message(self, archive: Archive, message: Message) -> str:
        text = html.escape(self._text(archive, message))
        text = re.sub(r"(https?://\S+)", r'<a href="\1">\1</a>', text)
        return f"<h1>{html.escape(self.subject(archive, message))}</h1><b>{self.author(message)}</b><pre>{text}</pre>"

    def _around(self, archive: Archive, message: Message) -> str:
        """Previous and next by date and in the thread, the month's views, the thread's flat and raw views."""
        links = []
        for label, number in (("Previous message", message.number - 1), ("Next message", message.number + 1)):
            if 0 <= number < MONTHS * PER_MONTH:
                links.append((self.url(archive, Message(number)), f"{label}: {self.subject(archive, Message(number))}"))
        layout = archive.layout
        links += [(html.escape(f"http://{layout.host}{layout.view(message.month, o)}"), f"[ {o} ]") for o in ORDERS]
        links += [(self.url(archive, message, view), view) for view in layout.thread_views]
        return "<ul>" + "".join(f'<li><a href="{url}">{html.escape(text)}</a></li>' for url, text in links) + "</ul>"

    def _page(self, archive: Archive, title: str, body: str) -> Reply:
        page = (
            f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title></head><body>'
            f"{body}<hr><p>More information about the {archive.name} mailing list</p></body></html>"
        )
        return Reply(200, page.encode(), "text/html; charset=utf-8")
