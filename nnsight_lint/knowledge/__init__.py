"""What the linter knows about the world: nnsight releases (and, generated from the real packages, their APIs and the models they run)."""
