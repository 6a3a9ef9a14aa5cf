"""Kibitz's benchmark suite (``make bench``; docs/performance.md).  Not part of the
tests: it measures, it does not assert."""
