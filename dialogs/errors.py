"""The one exception a refused action of the dialogs app raises, whichever service refused it (lobby, room, solo)."""


class DialogueError(Exception):
    """A refused action. `code` is stable (clients switch on it); `message` is for the person."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
