"""Static extraction of tool definitions from Python source (libcst; the user's code is never run).

`schemalint.loaders.python` is the entry point; this package holds the pieces: the module index
(imports, constants, classes), the annotation-to-JSON-Schema builder that mimics pydantic, the
docstring parsers, the per-framework rules and the literal tool-definition reader.
Every module here imports libcst at import time: import this package only when a file is linted.
"""
