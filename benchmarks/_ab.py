"""The command line the before/after scripts share: two checkouts, a file, options for `schemalint check`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def ab_arguments(parser: argparse.ArgumentParser) -> tuple[argparse.Namespace, dict[str, Path], list[str]]:
    """Parsed options, the checkouts by name ("before", "after") and the options after `--`, which
    are passed on to `schemalint check`."""
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("file")
    parser.add_argument("--repeat", type=int, default=5)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    return args, {"before": args.before.resolve(), "after": args.after.resolve()}, argv[split + 1 :]
