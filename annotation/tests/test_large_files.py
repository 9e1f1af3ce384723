"""Large files, uploaded and opened (docs/curation.md, "Uploading a file", "Table content", "A large database"): an
upload goes to disk and a too large one is refused unread; a 40 MB cell is cut with its size and never read into
Python; a table page stays under its byte bound; the curation page of 2,000 tables is paged and its checks lead to
the page of their table."""

import re
import sqlite3
import tracemalloc

import pytest
from django.core.files.uploadedfile import TemporaryUploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.urls import reverse

from annotation.databases import curation, services
from annotation.databases.selectors import database_table_page
from annotation.databases.services import database_register
from annotation.goals.services import goal_create
from annotation.models import Database

pytestmark = pytest.mark.django_db

MB = 1024 * 1024


def _sqlite(path, script: str, *values) -> str:
    connection = sqlite3.connect(path)
    connection.executescript(script)
    if values:
        connection.execute(*values)
    connection.commit()
    connection.close()
    return str(path)


def _padded_sqlite(path, size: int) -> str:
    """A valid SQLite file of about `size` bytes."""
    return _sqlite(
        path, "CREATE TABLE pad (id INTEGER PRIMARY KEY, body BLOB);", "INSERT INTO pad VALUES (1, ?)", (b"\0" * size,)
    )


# --- Uploads ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [20_000, 200_000], ids=["under", "over"])
def test_an_upload_is_streamed_to_disk_and_registered_from_that_file(
    client, ada, settings, tmp_path, monkeypatch, size
):
    """Whatever its size against FILE_UPLOAD_MAX_MEMORY_SIZE, the file arrives as a temporary file on disk, and the
    registration copies that very file (no second copy held or written on the way)."""
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
    arrived, registered_from = [], []
    file_complete = TemporaryFileUploadHandler.file_complete

    def keep_arrived(handler, file_size):
        upload = file_complete(handler, file_size)
        arrived.append(upload)
        return upload

    register = services.database_register

    def keep_path(**kwargs):
        registered_from.append(str(kwargs["source_path"]))
        return register(**kwargs)

    monkeypatch.setattr(TemporaryFileUploadHandler, "file_complete", keep_arrived)
    monkeypatch.setattr(services, "database_register", keep_path)
    client.force_login(ada)
    with open(_padded_sqlite(tmp_path / "lab.sqlite", size), "rb") as handle:
        response = client.post(reverse("annotation:database_upload"), {"db_id": "lab", "file": handle})
    assert response.status_code == 302
    assert len(arrived) == 1 and isinstance(arrived[0], TemporaryUploadedFile)
    assert registered_from == [arrived[0].temporary_file_path()]
    assert Database.objects.get(db_id="lab").size_bytes == (tmp_path / "lab.sqlite").stat().st_size


def test_an_upload_over_the_limit_is_refused_on_the_form_before_its_body_is_read(
    client, ada, settings, tmp_path, monkeypatch
):
    settings.MAX_DATABASE_UPLOAD_MB = 1
    client.force_login(ada)
    page = client.get(reverse("annotation:database_upload")).content.decode()
    assert "up to 1 MB" in page, "the form says the limit"

    stored = []
    monkeypatch.setattr(TemporaryFileUploadHandler, "new_file", lambda handler, *args, **kwargs: stored.append(args))
    with open(_padded_sqlite(tmp_path / "big.sqlite", 2 * MB), "rb") as handle:
        response = client.post(reverse("annotation:database_upload"), {"db_id": "big", "file": handle})
    assert response.status_code == 413
    assert "The file is larger than 1 MB" in response.content.decode()
    assert stored == [], "nothing of the body was parsed or stored"
    assert not Database.objects.filter(db_id="big").exists()

    # Just over the limit, inside the room left for the form's fields: parsed, then refused with the same words.
    monkeypatch.undo()
    with open(_padded_sqlite(tmp_path / "near.sqlite", MB + 16 * 1024), "rb") as handle:
        response = client.post(reverse("annotation:database_upload"), {"db_id": "near", "file": handle})
    assert response.status_code == 200
    assert "The file is larger than 1 MB" in response.content.decode()
    assert not Database.objects.filter(db_id="near").exists()


class _Server:
    """What Daphne's HTTP protocol asks of its server, recording the ASGI messages it queues."""

    def __init__(self):
        self.request_buffer_size, self.root_path, self.proxy_forwarded_address_header = 8192, "", None
        self.queued, self.requests = [], []

    def protocol_connected(self, protocol):
        self.requests.append(protocol)

    def create_application(self, protocol, scope):
        server = self

        class Queue:
            def put_nowait(self, message):
                server.queued.append(message)

        return Queue()


def test_daphne_hands_a_form_body_on_without_parsing_it_in_big_messages(monkeypatch):
    """Twisted parsed every multipart body into memory on the event loop for Daphne, which never reads the result
    (3.6 s for 158 MB, every other request of the process waiting: bench/upload.py); and Daphne queued the body in
    8 KiB messages, all at once."""
    from twisted.internet.address import IPv4Address
    from twisted.internet.testing import StringTransport
    from twisted.web import http

    from config.request_body import DAPHNE_BODY_MESSAGE_BYTES, install_daphne_body

    install_daphne_body()  # as config/asgi.py does; installing twice changes nothing
    install_daphne_body()
    parsed = []
    monkeypatch.setattr(http, "_getMultiPartArgs", lambda *args: parsed.append(args) or {})
    from daphne.http_protocol import HTTPFactory

    server = _Server()
    protocol = HTTPFactory(server).buildProtocol(IPv4Address("TCP", "127.0.0.1", 4321))
    protocol.makeConnection(StringTransport())
    body = (
        b'--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n' + b"x" * (3 * MB) + b"\r\n--b--\r\n"
    )
    head = f"POST /databases/upload/ HTTP/1.1\r\nHost: a\r\nContent-Length: {len(body)}\r\n"
    protocol.dataReceived(head.encode() + b"Content-Type: multipart/form-data; boundary=b\r\n\r\n" + body)
    assert parsed == [], "Twisted left the body alone"
    assert b"".join(message["body"] for message in server.queued) == body
    assert [len(message["body"]) for message in server.queued[:-1]] == [DAPHNE_BODY_MESSAGE_BYTES] * 3


def test_a_large_body_is_written_to_disk_from_a_thread_yielding_to_the_event_loop(settings):
    """Django's own read_body writes every message on the loop and, with the whole body queued at once (Daphne
    queues it so), never lets another task run until it is done."""
    import asyncio

    from config.request_body import WRITE_BATCH_BYTES, BodyOffLoopASGIHandler

    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = MB
    chunk = bytes(range(256)) * 256  # 64 KiB
    body = chunk * 160  # 10 MiB

    async def read(messages):
        queue = asyncio.Queue()
        for message in messages:
            queue.put_nowait(message)
        ticks, done = 0, False

        async def other_request():
            nonlocal ticks
            while not done:
                ticks += 1
                await asyncio.sleep(0)

        other = asyncio.ensure_future(other_request())
        body_file = await BodyOffLoopASGIHandler().read_body(queue.get)
        done = True
        await other
        return body_file, ticks

    messages = [{"type": "http.request", "body": chunk, "more_body": True} for _ in range(160)]
    messages.append({"type": "http.request", "body": b"", "more_body": False})
    body_file, ticks = asyncio.run(read(messages))
    assert body_file.read() == body and body_file._rolled, "on disk past FILE_UPLOAD_MAX_MEMORY_SIZE"
    assert ticks >= len(body) // WRITE_BATCH_BYTES, "the loop ran other tasks between the writes"
    body_file.close()

    small, ticks = asyncio.run(read([{"type": "http.request", "body": b"q=1", "more_body": False}]))
    assert small.read() == b"q=1" and not small._rolled

    from django.core.exceptions import RequestAborted

    with pytest.raises(RequestAborted):
        asyncio.run(read([{"type": "http.request", "body": chunk, "more_body": True}, {"type": "http.disconnect"}]))


# --- Table pages --------------------------------------------------------------------------------------------------


def _register(tmp_path, db_id: str, script: str, *values) -> Database:
    return database_register(db_id=db_id, source_path=_sqlite(tmp_path / f"{db_id}.sqlite", script, *values))


def _table_url(db_id: str, index: int = 0) -> str:
    return reverse("annotation:database_table", kwargs={"db_id": db_id, "table_index": index})


def test_a_40_mb_cell_comes_cut_with_its_size_and_is_never_read_into_python_whole(client, erin, settings, tmp_path):
    settings.TABLE_CELL_MAX_CHARS = 2000
    database = _register(
        tmp_path,
        "archive",
        "CREATE TABLE scan (id INTEGER PRIMARY KEY, title TEXT, body TEXT, image BLOB);",
        "INSERT INTO scan VALUES (1, 'letter', ?, ?), (2, 'note', 'short', NULL)",
        ("ab" * (20 * MB), b"\x89PNG" * (10 * MB)),
    )
    tracemalloc.start()
    try:
        page = database_table_page(database=database, table_index=0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * MB, f"{peak:,} bytes held in Python to read a page with a 40 MB cell"
    assert page["rows"][0][:2] == [1, "letter"]
    assert page["rows"][0][2] == {"cut": "ab" * 1000, "bytes": 40 * MB}
    assert page["rows"][0][3] == {"blob": 40 * MB}
    assert page["rows"][1] == [2, "note", "short", None]

    client.force_login(erin)
    response = client.get(_table_url("archive"))
    assert response.status_code == 200 and len(response.content) < 10_000
    assert response.json()["rows"][0][2]["bytes"] == 40 * MB


def test_a_page_of_long_texts_stays_under_its_byte_bound_with_every_row(client, erin, settings, tmp_path):
    settings.TABLE_CELL_MAX_CHARS = 2000
    settings.TABLE_PAGE_MAX_BYTES = 200_000
    # Accented text: each letter is six bytes of JSON (\u00e9), so 25 rows x 8 cells x 2,000 letters would be 2.4 MB.
    path = tmp_path / "essays.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute(f"CREATE TABLE essay (id INTEGER PRIMARY KEY, {', '.join(f'c{n} TEXT' for n in range(8))})")
        connection.executemany(
            "INSERT INTO essay VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [(n, *["é" * 3000] * 8) for n in range(30)]
        )
    connection.close()
    database_register(db_id="essays", source_path=path)
    client.force_login(erin)
    response = client.get(_table_url("essays"))
    assert response.status_code == 200
    assert len(response.content) <= 200_000
    data = response.json()
    assert len(data["rows"]) == 25 and data["pages"] == 2
    cells = [cell for row in data["rows"] for cell in row[1:]]
    assert all(cell["bytes"] == 6000 and cell["cut"] and set(cell["cut"]) == {"é"} for cell in cells)
    # Cut alike, and as long as the bound allows: nearly the whole budget is text.
    assert len({len(cell["cut"]) for cell in cells}) == 1
    assert len(response.content) > 150_000


HOSTILE_LAYOUTS = {
    # No rowid to read by: the cells come from substr() and length() in SQL.
    "without rowid": "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID;",
    # Every name of the rowid taken by a column: reading by "rowid" would read that column instead.
    "rowid names taken": "CREATE TABLE t (k INTEGER, v TEXT, rowid INTEGER, _rowid_ INTEGER, oid INTEGER);",
    "one rowid name taken": "CREATE TABLE t (k INTEGER, v TEXT, rowid INTEGER);",
    # Text stored as UTF-16: BLOB I/O gives its stored bytes.
    "utf-16": "PRAGMA encoding = 'UTF-16le'; CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT);",
    # A virtual table: BLOB I/O cannot open it, and each text cell is read by SQL, head only.
    "virtual table": "CREATE VIRTUAL TABLE t USING fts5(k, v);",
}


@pytest.mark.parametrize("layout", HOSTILE_LAYOUTS, ids=list(HOSTILE_LAYOUTS))
def test_a_long_text_is_cut_whatever_the_table_layout(settings, tmp_path, layout):
    settings.TABLE_CELL_MAX_CHARS = 100
    text = "ü" * 5000 + "!"
    database = _register(tmp_path, "odd", HOSTILE_LAYOUTS[layout])
    with sqlite3.connect(database.path) as connection:
        connection.executemany("INSERT INTO t (k, v) VALUES (?, ?)", [(1, text), (2, "other")])
        if "taken" in layout:  # the columns named like the rowid point at the other row
            connection.execute("UPDATE t SET rowid = 3 - k")
    connection.close()
    rows = database_table_page(database=database, table_index=0)["rows"]
    size = len(text.encode("utf-16-le" if layout == "utf-16" else "utf-8"))
    assert [row[:2] for row in rows] == [[1, {"cut": "ü" * 100, "bytes": size}], [2, "other"]]


def test_text_that_is_not_utf8_is_shown_with_replacement_characters(tmp_path):
    database = _register(
        tmp_path,
        "latin",
        "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT);",
        "INSERT INTO t VALUES (1, CAST(? AS TEXT))",
        (b"caf\xe9",),
    )
    assert database_table_page(database=database, table_index=0)["rows"] == [[1, "caf\ufffd"]]


def test_a_room_table_page_is_cut_as_the_browser_is(client, settings, tmp_path):
    """The rooms' table pages (dialogs.views.room_table) read through the same selector."""
    from dialogs.models import Dialogue
    from tests.builders import expert_named, worker_named

    settings.TABLE_CELL_MAX_CHARS = 2000
    database = _register(
        tmp_path,
        "letters",
        "CREATE TABLE letter (id INTEGER PRIMARY KEY, body TEXT);",
        "INSERT INTO letter VALUES (1, ?)",
        ("x" * MB,),
    )
    goal = goal_create(database=database, question="How many letters?", sql="SELECT count(*) FROM letter")
    worker, expert = worker_named("wes"), expert_named("eve")
    dialogue = Dialogue.objects.create(database=database, goal=goal, worker=worker, expert=expert)
    client.force_login(worker)
    response = client.get(reverse("dialogs:room_table", kwargs={"dialogue_id": dialogue.pk, "table_index": 0}))
    assert response.status_code == 200 and len(response.content) < 10_000
    assert response.json()["rows"] == [[1, {"cut": "x" * 2000, "bytes": MB}]]


# --- The curation page of a large database ------------------------------------------------------------------------


def _many_tables(path, count: int) -> str:
    """`count` tables with identifier-like names (each a check) and no keys (each outside the largest group)."""
    script = "".join(
        f"CREATE TABLE TBL_{n:04d} (id INTEGER PRIMARY KEY, item_name TEXT, QTY INTEGER, note TEXT);"
        f"INSERT INTO TBL_{n:04d} VALUES (1, 'first {n}', 3, NULL), (2, 'second {n}', 4, 'kept');"
        for n in range(count)
    )
    return _sqlite(path, script)


def test_the_curation_page_of_2000_tables_is_small_and_its_checks_lead_to_their_page(
    client, ada, tmp_path, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks():
        database = database_register(db_id="warehouse", source_path=_many_tables(tmp_path / "w.sqlite", 2000))
    curation.database_version_profile(version=database.current_version)
    client.force_login(ada)
    url = reverse("annotation:database_curate", args=["warehouse"])

    first = client.get(url)
    assert first.status_code == 200
    assert len(first.content) < 1_000_000, f"{len(first.content):,} bytes"
    html = first.content.decode()
    assert html.count('class="curate-table') == 50
    assert "Page 1 of 40" in html and "2000 of 2000 tables" in html
    assert re.search(r"The first 100 of \d{4} checks", html)

    # A check about a table on page 3 (tables 100 to 149) links there, and the table is there.
    link = re.search(r'<a href="([^"]*)">Table TBL_0120 has no readable name\.</a>', html)
    unreachable = re.search(r'<a href="([^"]*)">Table TBL_0100 is reached by no join\.</a>', html)
    assert unreachable, "the first open checks hold table 100's"
    assert unreachable.group(1) == "?page=3#table-100"
    third = client.get(url + unreachable.group(1).split("#")[0]).content.decode()
    assert 'id="table-100"' in third and 'id="table-149"' in third and 'id="table-150"' not in third
    assert len(third) < 1_000_000
    assert link is None, "table 120's check is not among the first 100"

    # The filter by name reaches any table and its checks, which then link within the page.
    found = client.get(url, {"q": "tbl_0120"}).content.decode()
    assert 'id="table-120"' in found and found.count('class="curate-table') == 1
    assert '<a href="#table-120">Table TBL_0120 has no readable name.</a>' in found

    # An edit made on page 3 comes back to page 3, at the table.
    edit = reverse("annotation:database_curate_edit", args=["warehouse", "names"]) + "?page=3"
    response = client.post(edit, {"table": "TBL_0120", "name": "stock item"})
    assert response.status_code == 302 and response["Location"] == url + "?page=3#table-120"
    database.refresh_from_db()
    assert database.curation["table_names"] == {"TBL_0120": "stock item"}

    # The database page lists its tables a page at a time too, each button opening its own table by schema index.
    browse = reverse("annotation:database_detail", args=["warehouse"])
    listed = client.get(browse, {"page": 3}).content.decode()
    assert listed.count('class="link table-open"') == 100 and "Page 3 of 20" in listed
    assert 'data-index="200" data-testid="table-TBL_0200"' in listed and 'data-testid="table-TBL_0300"' not in listed
    found = client.get(browse, {"q": "tbl_1999"}).content.decode()
    assert found.count('class="link table-open"') == 1 and 'data-index="1999"' in found
    assert "No table is named like" in client.get(browse, {"q": "nothing such"}).content.decode()
