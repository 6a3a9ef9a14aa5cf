"""``{% fixed_url 'name' %}``: the URL of a route without arguments (the navigation's
links on every page), reversed once per script prefix instead of on every render as
``{% url %}`` does (a tenth of the replay page's CPU went to those reverses)."""

from __future__ import annotations

import functools

from django import template
from django.urls import get_script_prefix, reverse

register = template.Library()


@functools.cache
def _reversed(name: str, prefix: str) -> str:
    return reverse(name)


@register.simple_tag
def fixed_url(name: str) -> str:
    """``reverse(name)``, kept for the process (the prefix is part of the key)."""
    return _reversed(name, get_script_prefix())
