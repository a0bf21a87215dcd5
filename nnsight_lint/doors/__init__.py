"""The ways in: the command line and its formats, the Python API, the flake8 plugin, the LSP server, the runtime hook."""
