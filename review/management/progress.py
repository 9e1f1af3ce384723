"""A one-line text progress bar for the dataset commands (stderr; plain lines when stderr is not a terminal)."""

import time


class ProgressBar:
    """`update(label, fraction)` redraws the bar; on a non-terminal it prints one line per label, at most."""

    WIDTH = 30

    def __init__(self, stream, *, interactive: bool | None = None):
        self.stream = stream
        self.interactive = stream.isatty() if interactive is None else interactive
        self.label = None
        self.drawn_at = 0.0

    def update(self, label: str, fraction: float) -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        if not self.interactive:
            if label != self.label:
                self.label = label
                self.stream.write(f"{label}…\n")
                self.stream.flush()
            return
        now = time.monotonic()
        if label == self.label and now - self.drawn_at < 0.1 and fraction < 1:
            return
        self.label, self.drawn_at = label, now
        filled = int(self.WIDTH * fraction)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r{label:<20} [{bar}] {fraction * 100:5.1f}%")
        self.stream.flush()

    def close(self) -> None:
        if self.interactive and self.label is not None:
            self.stream.write("\n")
            self.stream.flush()
