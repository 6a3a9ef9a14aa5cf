"""One page of a long list, as every list page shows it: 50 items a page and the page
range with ellipses around the current page."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

#: items a list page shows
PER_PAGE = 50


def page_of(request: HttpRequest, items: Any, per_page: int = PER_PAGE) -> tuple[Page[Any], Any]:
    """The page ``?page=`` asks for (the last for one past it, the first for nonsense)
    and its elided page range."""
    page = Paginator(items, per_page).get_page(request.GET.get("page"))
    return page, page.paginator.get_elided_page_range(page.number, on_each_side=2)
