"""The archive's pages, one module per area.  Each view validates its input, calls a
selector or service, and renders a template; what a page shows is decided in its
template.

- ``browse``: home and the game search;
- ``game``: the game page and its replay;
- ``matches``: match list and scoresheets;
- ``people``: events (standings, cross-table) and players (profiles);
- ``uploads``: upload form, progress page and reports;
- ``errors``: the 404 and 500 pages.
"""
