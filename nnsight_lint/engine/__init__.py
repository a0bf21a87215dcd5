"""The engine: pre-filter, one parse (in pieces, on a deep thread when needed), rules, `# noqa`, positions, fixes."""
