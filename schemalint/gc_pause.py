"""`paused_gc()`: no cyclic garbage collection while a large batch of long-lived objects is built.

Loading 10,000 tools and linting them creates millions of objects that all stay alive until the
report is written; each full collection of the cyclic garbage collector walks every one of them, and
for nothing. Reference counting still frees everything that is not
in a cycle at once; cycles made meanwhile are left to a later full collection.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Collection is off inside the block, and back as it was (on, or off if the caller turned it off) after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:  # (a host program's own frozen objects stay frozen)
                # what the block made is long-lived (loaded tools, findings): move it straight to the
                # oldest generation, collected only as it grows, instead of scanning it all in the first
                # collection after the pause. Nothing is exempted for good.
                gc.freeze()
                gc.unfreeze()
            gc.enable()
