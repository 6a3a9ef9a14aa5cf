#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# Commands that only read and write source files never serve anyone, so they run in
# the development profile when DEBUG is unset (``manage.py makemigrations --check``
# works in a fresh checkout).  Everything else keeps the secure default: DEBUG off.
DEV_ONLY_COMMANDS = frozenset({"makemigrations"})


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if len(sys.argv) > 1 and sys.argv[1] in DEV_ONLY_COMMANDS:
        os.environ.setdefault("DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
