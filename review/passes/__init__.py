"""Review passes: claims, corrections, decisions and final validation (services), the queues and the review screen,
the agreement figures, and their pages."""
