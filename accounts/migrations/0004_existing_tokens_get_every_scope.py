"""Tokens made before scopes existed keep working as they did: every scope, no expiry."""

from typing import Any

from django.db import migrations

EVERY_SCOPE = ["read", "upload", "manage"]


def grant_every_scope(apps: Any, schema_editor: Any) -> None:
    ApiToken = apps.get_model("accounts", "ApiToken")
    # (read in Python: a JSON list compares alike on every database)
    for token in ApiToken.objects.only("pk", "scopes"):
        if not token.scopes:
            ApiToken.objects.filter(pk=token.pk).update(scopes=EVERY_SCOPE)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_apitoken_scopes_and_expiry")]

    operations = [migrations.RunPython(grant_every_scope, migrations.RunPython.noop)]
