"""``kibitz``: a command-line client for a Kibitz server (docs/client.md).

``kibitz push`` uploads KGN files and folders with a token and prints the verdicts;
``kibitz pull`` downloads games matching the search filters as KGN or NDJSON, and
resumes from a saved sync cursor.  It talks to the server over HTTP only: nothing of
the server's packages (nor the engine) is imported, so a bot author needs no database.
"""

__version__ = "0.1.0"
