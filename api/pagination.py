"""Page-number pagination; the querysets it pages have a total order, so pages are
stable while the archive grows only at the front (newest first)."""

from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
