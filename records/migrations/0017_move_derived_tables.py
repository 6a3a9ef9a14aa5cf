"""The derived tables move to the apps that keep them: the ratings' to ``ratings``, the
player-profile aggregates' to ``players``.  The tables are renamed (ALTER TABLE ..
RENAME: no row is copied or lost) and the models leave this app's state; each new
app's 0001 migration takes them into its own state with the tables as they are."""

from django.db import migrations

#: model -> the app that keeps it now
MOVED = {
    "Partnership": "ratings",
    "Rating": "ratings",
    "RatingChange": "ratings",
    "RatingHistory": "ratings",
    "RatingState": "ratings",
    "ProfileChange": "players",
    "ProfileGame": "players",
    "ProfileKind": "players",
    "ProfilePair": "players",
}


class Migration(migrations.Migration):
    dependencies = [
        ("records", "0016_profile_change_rows"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name=model, table=f"{app}_{model.lower()}")
                for model, app in MOVED.items()
            ],
            state_operations=[
                migrations.DeleteModel(
                    name="Partnership",
                ),
                migrations.DeleteModel(
                    name="ProfileChange",
                ),
                migrations.RemoveField(
                    model_name="profilegame",
                    name="game",
                ),
                migrations.RemoveField(
                    model_name="profilegame",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="profilekind",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="profilepair",
                    name="other",
                ),
                migrations.RemoveField(
                    model_name="profilepair",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="rating",
                    name="last_game",
                ),
                migrations.RemoveField(
                    model_name="rating",
                    name="player",
                ),
                migrations.DeleteModel(
                    name="RatingChange",
                ),
                migrations.RemoveField(
                    model_name="ratinghistory",
                    name="game",
                ),
                migrations.RemoveField(
                    model_name="ratinghistory",
                    name="player",
                ),
                migrations.DeleteModel(
                    name="RatingState",
                ),
                migrations.DeleteModel(
                    name="ProfileGame",
                ),
                migrations.DeleteModel(
                    name="ProfileKind",
                ),
                migrations.DeleteModel(
                    name="ProfilePair",
                ),
                migrations.DeleteModel(
                    name="Rating",
                ),
                migrations.DeleteModel(
                    name="RatingHistory",
                ),
            ],
        ),
    ]
