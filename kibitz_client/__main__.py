"""``python -m kibitz_client``: the ``kibitz`` command."""

from kibitz_client.cli import main

raise SystemExit(main())
