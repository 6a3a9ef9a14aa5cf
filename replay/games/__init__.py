"""Game plug-ins: one module per game, each registering a :class:`replay.rules.Rules`."""
