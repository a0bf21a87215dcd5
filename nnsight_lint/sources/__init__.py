"""What is read: which files, a file or notebook as the text the linter sees, settings, the cache."""
