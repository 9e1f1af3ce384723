"""Request bodies off the event loop: a large upload must not stall everybody else's requests (docs/curation.md,
"Uploading a file"; bench/upload.py measures it).

Two places handled a body on the server's one event loop, in one go:

1. Twisted, under Daphne, parsed every multipart/form-data body with the standard library's e-mail parser into
   `Request.args`, which Daphne never reads: the whole body read into memory and parsed in Python, on the loop. A
   158 MB upload stalled every other request of the process for about 3.6 s (bench/upload.py). `install_daphne_body`
   turns that parse off.
2. Django's ASGI handler copies the body from the ASGI messages into its spooled temporary file on the loop, without
   ever yielding while messages are queued (Daphne queues the whole body at once). `BodyOffLoopASGIHandler` writes it
   in batches from a thread instead, yielding to the loop between them.
"""

import asyncio
import tempfile

from django.conf import settings
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler

# Body bytes gathered from the ASGI messages before one write in a thread: few thread hops for a large body, little
# memory held per request.
WRITE_BATCH_BYTES = 1 << 20
DAPHNE_BODY_MESSAGE_BYTES = 1 << 20


class BodyOffLoopASGIHandler(ASGIHandler):
    """Django's ASGI handler, with the request body written to its temporary file from a thread."""

    async def read_body(self, receive):
        # As Django's own (django.core.handlers.asgi.ASGIHandler.read_body): a file that rolls over to disk past
        # FILE_UPLOAD_MAX_MEMORY_SIZE; only the writes of a large body move off the loop.
        body_file = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b")
        batch, batched = [], 0
        try:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    raise RequestAborted()
                if message.get("body"):
                    batch.append(message["body"])
                    batched += len(message["body"])
                more = message.get("more_body", False)
                if batched >= WRITE_BATCH_BYTES or (batch and not more):
                    data = b"".join(batch)
                    batch, batched = [], 0
                    if more or body_file.tell() + len(data) > settings.FILE_UPLOAD_MAX_MEMORY_SIZE:
                        await asyncio.to_thread(body_file.write, data)
                    else:  # a small body in one piece: a thread hop would cost more than the write
                        body_file.write(data)
                if not more:
                    break
        except BaseException:
            body_file.close()
            raise
        body_file.seek(0)
        return body_file


def install_daphne_body() -> None:
    """Stop Twisted from parsing form bodies that Daphne hands to the application unparsed (point 1 above)."""
    try:
        from daphne.http_protocol import WebRequest
    except ImportError:  # pragma: no cover - another ASGI server
        return
    if getattr(WebRequest, "_wozsql_form_parse_off", False):
        return
    original_init = WebRequest.__init__

    def __init__(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        # Daphne queues the body in messages of request_buffer_size bytes, all at once on the loop (8 KiB by default,
        # and its command line does not set it): in 1 MiB messages a 158 MB body is 158 reads, not 19,000.
        self.server.request_buffer_size = max(self.server.request_buffer_size, DAPHNE_BODY_MESSAGE_BYTES)
        # twisted.web.http.Request.requestReceived parses multipart and urlencoded bodies into self.args when this
        # is true; Daphne passes self.content on as it came.
        self._parsePOSTFormSubmission = False

    WebRequest.__init__ = __init__
    WebRequest._wozsql_form_parse_off = True
