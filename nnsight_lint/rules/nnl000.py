"""# NNL000: the file cannot be read as Python

## Symptom
nnsight-lint reports `NNL000 invalid syntax: ...` at the place the parser stopped.

## Cause
The file (or notebook cell) is not valid Python, is not valid UTF-8 / its declared encoding, or a
notebook is not valid nbformat 4 JSON. Nothing else in it can be checked until it parses.

## Fix safety
There is no automatic fix.

## How to silence
Fix the syntax, or exclude the file.
"""
CODE = "NNL000"
NAME = "invalid-syntax"
SUMMARY = "the file cannot be parsed"
DEFAULT = True
SINCE = BEFORE = None
FIX = None
RAISES = ()


def check(model, context):
    return iter(())  # reported by the engine, which is the one that parses
