from __future__ import annotations

from schemalint.model import Severity
from schemalint.rules.base import EngineRule


class UnusedSuppression(EngineRule):
    """
    ## What it does
    Reports a `# schemalint: disable=...` comment (YAML, Python) or a `per-file-ignores` entry that
    silenced no finding in this run: each unused code or slug is named, and so is an entry that is
    not a rule at all. Only rules that were enabled count: with `--select SL2`, a comment that
    disables SL301 is not reported, since SL301 did not run.

    ## Why is this bad?
    A suppression outlives the problem it hid. Once the schema is fixed it silently waits to hide
    the next, unrelated finding on that line or in that file. Removing it keeps suppressions honest.

    ## Example
    ```yaml
    parameters:
      type: object
      additionalProperties: false  # schemalint: disable=SL303
    ```

    ## Use instead
    ```yaml
    parameters:
      type: object
      additionalProperties: false
    ```

    ## Options
    None. Unused `per-file-ignores` are reported at their line in the configuration file, and only
    when the run walked folders (never for a pre-commit run over a few staged files, where the
    entry may cover files that were not linted).

    ## Fix safety
    No automatic fix: delete the comment or the entry.
    """

    severity = Severity.WARNING
    summary = "a disable comment or ignore that matched nothing"
