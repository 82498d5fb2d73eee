import gc
from pathlib import Path
from typing import Any

import pytest

from schemalint.gc_pause import paused_gc


@pytest.fixture
def collector_on():
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


def test_collection_is_off_inside_and_back_on_after(collector_on):
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_back_on_after_an_exception(collector_on):
    with pytest.raises(ValueError), paused_gc():
        raise ValueError
    assert gc.isenabled()


def test_a_caller_that_turned_collection_off_keeps_it_off(collector_on):
    gc.disable()
    with paused_gc():
        pass
    assert not gc.isenabled()


def test_objects_made_inside_stay_collectable(collector_on):
    with paused_gc():
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
    assert gc.get_freeze_count() == 0  # nothing is left frozen
    assert gc.collect() >= 1  # the cycle made during the pause is found by a later collection


def test_objects_a_host_froze_stay_frozen(collector_on):
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with paused_gc():
            pass
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_the_editor_and_live_server_entry_points_lint_with_collection_paused(
    monkeypatch: pytest.MonkeyPatch, collector_on: None
) -> None:
    from schemalint import engine
    from schemalint.config import Config
    from schemalint.loaders.jsonyaml import load_json

    seen: list[bool] = []
    real_run_rules = engine.run_rules

    def recording_run_rules(*args: Any, **kwargs: Any) -> engine.LintResult:
        seen.append(gc.isenabled())
        return real_run_rules(*args, **kwargs)

    monkeypatch.setattr(engine, "run_rules", recording_run_rules)
    tools = '[{"name": "get_item", "description": "Get an item.", "parameters": {"type": "object"}}]'
    engine.lint_source(tools, "tools.json")
    engine.lint_documents([load_json(tools, "tools.json")], Config(root=Path.cwd()))
    assert seen == [False, False]
    assert gc.isenabled()
