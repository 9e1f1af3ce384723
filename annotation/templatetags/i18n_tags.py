"""{% javascript_catalogue_url %}: the page's JavaScript catalogue at its versioned, cached address
(config/javascript_catalogue.py)."""

from django import template
from django.utils import translation

from config.javascript_catalogue import catalogue_url

register = template.Library()


@register.simple_tag
def javascript_catalogue_url() -> str:
    return catalogue_url(translation.get_language())
