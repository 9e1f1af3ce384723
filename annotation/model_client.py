"""The platform's one client of a language model: an OpenAI-compatible chat-completions endpoint chosen by
MODEL_BASE_URL, MODEL_API_KEY and MODEL_NAME (README "Model assistance"). Nothing set means no model features
anywhere: every screen and message that would use a model asks `model_configured()` first."""

from django.conf import settings


def model_configured() -> bool:
    """Whether a model endpoint is set up (a base URL and a model name)."""
    return bool(settings.MODEL_BASE_URL and settings.MODEL_NAME)
