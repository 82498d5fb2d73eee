"""Apply a Finding's JSON Patch operations to a document, for tests of rule fixes."""

from __future__ import annotations

import copy
from typing import Any

from schemalint.diagnostics import Fix
from schemalint.model import split_pointer


def apply_fix(document: Any, fix: Fix) -> Any:
    result = copy.deepcopy(document)
    for operation in fix.operations:
        *parents, last = split_pointer(operation.path)
        container = result
        for token in parents:
            container = container[int(token)] if isinstance(container, list) else container[token]
        if isinstance(container, list):
            if operation.op == "add":
                container.insert(len(container) if last == "-" else int(last), copy.deepcopy(operation.value))
            elif operation.op == "replace":
                container[int(last)] = copy.deepcopy(operation.value)
            else:
                del container[int(last)]
        elif operation.op == "remove":
            del container[last]
        else:
            container[last] = copy.deepcopy(operation.value)
    return result
