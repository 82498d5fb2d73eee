"""The embedding backends, the vector cache and the pairwise search (real models, no mocks)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from schemalint import progress
from schemalint.cli import main
from schemalint.similarity import embed as embed_module
from schemalint.similarity.backends import (
    STATIC_DIGEST_FILE,
    STATIC_MODEL_DIR,
    SentenceTransformersBackend,
    StaticBackend,
    choose_backend,
    locate_sentence_transformers_model,
    sentence_transformers_installed,
)
from schemalint.similarity.cache import VectorCache, float32_row, text_key
from schemalint.similarity.embed import embed_texts, take_notices
from schemalint.similarity.pairs import candidate_pairs
from schemalint.similarity.static_encoder import StaticEncoder, StaticModelError, read_safetensors

REPO = Path(__file__).resolve().parent.parent
needs_st = pytest.mark.skipif(not sentence_transformers_installed(), reason="the `embeddings` extra is not installed")


def test_packaged_static_model_matches_its_notice() -> None:
    notice = (STATIC_MODEL_DIR / "NOTICE").read_text(encoding="utf-8")
    assert "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db" in notice
    assert "Apache License" in (STATIC_MODEL_DIR / "LICENSE").read_text(encoding="utf-8")
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        digest = hashlib.sha256((STATIC_MODEL_DIR / name).read_bytes()).hexdigest()
        assert f"{name}" in notice and digest in notice, name
    config = json.loads((STATIC_MODEL_DIR / "config.json").read_text(encoding="utf-8"))
    assert config["hidden_dim"] == 256 and config["embedding_dtype"] == "int8"


def test_shipped_weights_digest_is_the_weights_sha256(tmp_path: Path) -> None:
    """The cache key is read from model.safetensors.sha256, not hashed per run: it must be right."""
    actual = hashlib.sha256((STATIC_MODEL_DIR / "model.safetensors").read_bytes()).hexdigest()
    assert (STATIC_MODEL_DIR / STATIC_DIGEST_FILE).read_text(encoding="ascii") == f"{actual}  model.safetensors\n"
    assert StaticBackend().weights_digest() == actual
    (tmp_path / "model.safetensors").write_bytes(b"other weights")  # a folder without the file: hashed
    assert StaticBackend(tmp_path).weights_digest() == hashlib.sha256(b"other weights").hexdigest()


def test_weights_digest_is_remembered_in_the_cache_across_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hashing a 90 MB model every warm run costs more than the rest of SL502: the digest is kept in the
    cache, keyed by the file's path, size and mtime, and recomputed when the file changes."""
    from schemalint.similarity import backends

    weights = tmp_path / "model" / "model.safetensors"
    weights.parent.mkdir()
    weights.write_bytes(b"weights one")
    first = hashlib.sha256(b"weights one").hexdigest()
    memo = tmp_path / "cache" / "digests"
    assert StaticBackend(weights.parent).weights_digest(memo) == first
    assert (tmp_path / "cache" / ".gitignore").is_file() and len(list(memo.iterdir())) == 1
    # same size and mtime, other bytes: a new process reads the memo instead of hashing
    stat = weights.stat()
    weights.write_bytes(b"weights 1!!")
    os.utime(weights, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    monkeypatch.setattr(backends, "_digest_memo", {})
    assert StaticBackend(weights.parent).weights_digest(memo) == first
    weights.write_bytes(b"weights two, longer")  # changed: hashed again
    assert StaticBackend(weights.parent).weights_digest(memo) == hashlib.sha256(b"weights two, longer").hexdigest()
    for remembered in memo.iterdir():  # a damaged memo is not believed
        remembered.write_text("garbage", encoding="ascii")
    monkeypatch.setattr(backends, "_digest_memo", {})
    assert StaticBackend(weights.parent).weights_digest(memo) == hashlib.sha256(b"weights two, longer").hexdigest()


def _real_texts() -> list[str]:
    texts = []
    for line in (REPO / "tests" / "data" / "similarity-heldout.jsonl").read_text(encoding="utf-8").splitlines():
        pair = json.loads(line)
        for tool in (pair["a"], pair["b"]):
            texts += [tool["name"], tool["description"], json.dumps(tool.get("parameters"))]
    return texts


def test_static_encoder_equals_model2vec() -> None:
    """static_encoder.py reimplements model2vec's StaticModel.encode: same vectors, to the bit in practice."""
    model2vec = pytest.importorskip("model2vec")
    real = _real_texts()
    texts = [*real, "", "   ", "\u2603 \U0001d518", "word " * 2000, "冻结账户" * 400, "x" * 9000]
    expected = model2vec.StaticModel.from_pretrained(str(STATIC_MODEL_DIR)).encode(texts, show_progress_bar=False)
    actual = StaticEncoder.from_folder(STATIC_MODEL_DIR).encode(texts)
    assert actual.dtype == np.float32 and actual.shape == expected.shape
    assert np.abs(actual - expected).max() <= 1e-6
    assert not actual[len(real)].any()  # no tokens: a zero vector, as model2vec gives


def test_pure_python_rows_equal_the_numpy_encoder_to_the_bit() -> None:
    encoder = StaticEncoder.from_folder(STATIC_MODEL_DIR)
    texts = [*_real_texts()[:300], "", "   ", "\u2603 \U0001d518", "word " * 2000, "冻结账户" * 400, "x" * 9000]
    rows = encoder.encode_rows(texts)
    assert rows == encoder.encode(texts).tolist()
    assert rows[300] == [0.0] * 256  # no tokens: a zero vector
    assert all(abs(math.fsum(v * v for v in row) - 1) < 1e-6 for row in rows if any(row))


def test_safetensors_reader_rejects_what_it_cannot_read(tmp_path: Path) -> None:
    tensors = read_safetensors(STATIC_MODEL_DIR / "model.safetensors")
    assert tensors["embeddings"].shape == (29525, 256) and tensors["embeddings"].dtype == np.int8
    (tmp_path / "short.safetensors").write_bytes(b"abc")
    with pytest.raises(StaticModelError):
        read_safetensors(tmp_path / "short.safetensors")
    header = json.dumps({"w": {"dtype": "BF16", "shape": [1], "data_offsets": [0, 2]}}).encode()
    (tmp_path / "bf16.safetensors").write_bytes(len(header).to_bytes(8, "little") + header + b"\0\0")
    with pytest.raises(StaticModelError, match="BF16"):
        read_safetensors(tmp_path / "bf16.safetensors")


def test_static_backend_gives_unit_vectors_that_rank_paraphrases_first() -> None:
    vectors = StaticBackend().encode(
        ["get the current weather in a city", "current weather conditions for a town", "delete a git branch"]
    )
    assert vectors.shape == (3, 256) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2


def test_cache_round_trip_is_keyed_by_model_and_text(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path, "static-abc")
    keys = [text_key("a"), text_key("b")]
    cache.store(keys, np.eye(2, dtype=np.float32))
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8").strip().endswith("*")
    found = VectorCache(tmp_path, "static-abc").lookup([text_key("b"), text_key("c"), text_key("a")])
    assert sorted(found) == [0, 2]
    assert float32_row(found[0]) == [0.0, 1.0] and float32_row(found[2]) == [1.0, 0.0]
    assert VectorCache(tmp_path, "static-other").lookup(keys) == {}


def test_cache_shard_is_the_documented_binary_layout(tmp_path: Path) -> None:
    """magic, version, dims, count, CRC-32; the 16-byte keys; little-endian float32 rows (readable without numpy)."""
    import zlib

    keys = [text_key("a"), text_key("b")]
    VectorCache(tmp_path, "m").store(keys, [[0.5, -1.0, 2.0], [3.0, 0.25, -0.125]])
    (shard,) = (tmp_path / "vectors" / "m").glob("*.vec")
    data = shard.read_bytes()
    assert data[:16] == b"SLVC" + (3).to_bytes(4, "little") + (3).to_bytes(4, "little") + (2).to_bytes(4, "little")
    assert data[16:20] == zlib.crc32(data[20:]).to_bytes(4, "little")
    assert data[20:52] == b"".join(keys)
    assert np.frombuffer(data[52:], dtype="<f4").tolist() == [0.5, -1.0, 2.0, 3.0, 0.25, -0.125]
    assert len(keys[0]) == 16 and keys[0] == hashlib.sha256(b"a").digest()[:16]


def test_cache_ignores_corrupt_shards_and_compacts(tmp_path: Path) -> None:
    folder = tmp_path / "vectors" / "m"
    folder.mkdir(parents=True)
    (folder / "broken.vec").write_bytes(b"not a shard")
    header = b"SLVC" + (3).to_bytes(4, "little") + (3).to_bytes(4, "little") + (1).to_bytes(4, "little")
    (folder / "truncated.vec").write_bytes(header + b"\0" * 4 + text_key("0") + b"\0" * 11)
    (folder / "future.vec").write_bytes(b"SLVC" + (4).to_bytes(4, "little") + header[8:] + b"\0" * 4 + text_key("0"))
    (folder / "v2.vec").write_bytes(b"SLVC" + (2).to_bytes(4, "little") + header[8:] + text_key("0") + b"\0" * 12)
    np.savez(folder / "old-format.npz", keys=np.array([text_key("0").hex()], dtype="U32"), vectors=np.ones((1, 3)))
    cache = VectorCache(tmp_path, "m")
    assert cache.lookup([text_key("0")]) == {}  # none of them is read
    for i in range(20):
        cache.store([text_key(str(i))], np.full((1, 3), i, dtype=np.float32))
    assert len(list(folder.glob("*.vec"))) <= 17
    assert not list(folder.glob("*.tmp"))
    found = VectorCache(tmp_path, "m").lookup([text_key("0"), text_key("19")])
    assert float32_row(found[0]) == [0.0] * 3 and float32_row(found[1]) == [19.0] * 3


def test_cache_with_other_dims_or_unwritable_folder_is_ignored(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path, "m")
    cache.store([text_key("a")], [[1.0, 0.0]])
    cache.store([text_key("b")], [[1.0, 0.0, 0.0]])  # another width: one of the two shards is skipped
    assert len(cache.lookup([text_key("a"), text_key("b")])) == 1
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    VectorCache(blocked, "m").store([text_key("a")], [[1.0]])  # cannot write: no error
    assert VectorCache(blocked, "m").lookup([text_key("a")]) == {}


def test_embed_texts_reuses_the_cache(tmp_path: Path) -> None:
    settings = {"embedding-backend": "static", "cache-dir": str(tmp_path)}
    first = embed_texts(["alpha tool", "beta tool"], settings)
    second = embed_texts(["beta tool", "gamma tool"], settings)
    assert (first.computed, second.computed) == (2, 1)
    assert np.allclose(first.vectors[1], second.vectors[0])
    assert second.backend == "static" and second.notice is None


@pytest.mark.parametrize(
    ("tools", "cold_imports"),
    [
        (2, "['tokenizers']"),  # the static encoder, without model2vec or numpy
        (embed_module.SMALL_ENCODE_TEXTS + 1, "['numpy', 'tokenizers']"),  # many new texts: numpy encodes them
    ],
)
def test_a_fully_cached_run_imports_no_model_code(tools: int, cold_imports: str, tmp_path: Path) -> None:
    """A warm run of up to SMALL_SET_TEXTS tools imports no model code and no numpy."""
    assert tools <= embed_module.SMALL_SET_TEXTS
    script = textwrap.dedent(
        f"""
        import sys
        from schemalint.rules.sl502_similar_descriptions import SimilarDescriptions
        from schemalint.testing import run_rule
        tools = [{{"name": "get_weather", "description": "Get the weather for a city."}},
                 {{"name": "fetch_conditions", "description": "Return the current weather conditions at a place."}}]
        more = range({tools - 2})
        tools += [{{"name": f"tool_{{i}}", "description": f"Archive ticket {{i}} of a project."}} for i in more]
        settings = {{"embedding-backend": "static", "cache-dir": {str(tmp_path)!r}}}
        run_rule(SimilarDescriptions(), tools, settings=settings)
        heavy = ("model2vec", "tokenizers", "torch", "sentence_transformers", "numpy")
        print(sorted(m for m in heavy if m in sys.modules))
        """
    )
    run = [sys.executable, "-c", script]
    cold = subprocess.run(run, capture_output=True, text=True, cwd=REPO, check=True)
    warm = subprocess.run(run, capture_output=True, text=True, cwd=REPO, check=True)
    assert cold.stdout.strip() == cold_imports
    assert warm.stdout.strip() == "[]"


def test_unknown_backend_name_falls_back_with_a_notice() -> None:
    choice = choose_backend("word2vec")
    assert choice.backend.name == "static" and choice.notice and "word2vec" in choice.notice


def test_missing_model_falls_back_to_static_with_a_notice(tmp_path: Path) -> None:
    choice = choose_backend("sentence-transformers", str(tmp_path / "no-such-model"))
    assert choice.backend.name == "static"
    assert choice.notice and "using the static backend" in choice.notice


@pytest.mark.parametrize("floor", [0.3, 0.7])  # unselective (top-k first) and selective (sort over floor)
@pytest.mark.parametrize("top_k", [None, 2])
def test_block_pairs_match_brute_force(top_k: int | None, floor: float, monkeypatch: pytest.MonkeyPatch) -> None:
    from schemalint.similarity import pairs as pairs_module

    monkeypatch.setattr(pairs_module, "BLOCK_ROWS", 7)  # several blocks
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(30, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    found = candidate_pairs(vectors, floor, top_k)
    full = vectors @ vectors.T
    expected = set()
    for i in range(30):
        order = [j for j in np.argsort(-full[i]) if j != i]
        for j in order if top_k is None else order[:top_k]:
            if full[i, j] >= floor:
                expected.add((min(i, j), max(i, j)))
    assert set(found) == expected
    assert all(abs(found[p] - full[p]) < 1e-5 for p in found)


@pytest.mark.parametrize("floor", [-1.0, 0.99])
def test_block_pairs_with_tied_cosines(floor: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Groups of identical vectors: every row keeps top_k of its equal neighbours, whether the floor is
    selective or not, and nothing else."""
    from schemalint.similarity import pairs as pairs_module

    monkeypatch.setattr(pairs_module, "BLOCK_ROWS", 7)
    rng = np.random.default_rng(1)
    distinct = rng.normal(size=(6, 8)).astype(np.float32)
    distinct /= np.linalg.norm(distinct, axis=1, keepdims=True)
    vectors = distinct[[i % 6 for i in range(40)]]  # six groups of equal vectors, interleaved
    found = candidate_pairs(vectors, floor, 3)
    assert all(i % 6 == j % 6 for i, j in found)
    assert all(sum(i in pair for pair in found) >= 3 for i in range(40))


@needs_st
def test_sentence_transformers_backend_loads_the_packaged_model_offline() -> None:
    model_dir = locate_sentence_transformers_model(None)
    backend = SentenceTransformersBackend(model_dir)
    assert backend.weights_digest() == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
    vectors = backend.encode(["reset my password", "I forgot my password", "order a pizza"])
    assert vectors.shape == (3, 384)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    # installed and loadable, yet never picked unless asked for by name
    assert choose_backend("auto").backend.name == "static"
    assert choose_backend().backend.name == "static"
    assert choose_backend("sentence-transformers").backend.name == "sentence-transformers"


@needs_st
def test_unloadable_model_falls_back_to_static_and_says_so(tmp_path: Path) -> None:
    broken = tmp_path / "broken-model"
    broken.mkdir()
    (broken / "model.safetensors").write_bytes(b"\x00" * 64)
    take_notices()
    settings = {"embedding-backend": "sentence-transformers", "embedding-model": str(broken), "cache-dir": ""}
    result = embed_module.embed_texts(["one text", "another text"], settings)
    assert result.backend == "static"
    assert result.notice and "cannot load" in result.notice and "static backend" in result.notice
    assert take_notices() == [result.notice]


def test_cache_keeps_keys_that_end_in_a_zero_byte(tmp_path: Path) -> None:
    # numpy's fixed-width bytes arrays strip trailing NULs; keys must survive a round trip whatever they are
    texts = [f"text {i}" for i in range(2000)]
    keys = [text_key(t) for t in texts]
    VectorCache(tmp_path, "m").store(keys, np.ones((len(keys), 2), dtype=np.float32))
    found = VectorCache(tmp_path, "m").lookup(keys)
    assert len(found) == len(keys)


def test_progress_is_reported_for_many_texts_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int, int]] = []
    monkeypatch.setattr(progress, "report", lambda what, done, total: calls.append((what, done, total)))
    settings = {"embedding-backend": "static", "cache-dir": str(tmp_path)}
    embed_texts([f"tool number {i}" for i in range(10)], settings)
    assert calls == []  # few texts: nothing to show
    embed_texts([f"another tool {i}" for i in range(embed_module.PROGRESS_MIN_TEXTS + 1)], settings)
    assert calls[-1] == ("embedding descriptions (static)", 301, 301)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty", [True, False])
def test_progress_is_shown_by_the_command_line_on_a_terminal_only(
    tty: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = _Terminal() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(progress, "report", None)
    tools = [{"name": f"tool_{i}", "description": f"Does thing number {i}."} for i in range(301)]
    (tmp_path / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit):
        main(["check", "tools.json", "--no-config", "--select", "SL502"])
    shown = stream.getvalue()
    assert ("\rschemalint: embedding descriptions (static) 301/301\n" in shown) is tty
    assert "embedding descriptions" not in shown or tty


@needs_st
@pytest.mark.parametrize("config", ["", 'embedding-backend = "auto"\n'])
def test_an_installed_sentence_transformers_is_not_used_unless_named(config: str, tmp_path: Path) -> None:
    """With the `embeddings` extra installed, a run that does not name the backend uses static
    embeddings and never imports torch: the same findings as on a machine without the extra."""
    tools = [
        {"name": "get_current_weather", "description": "Get the current weather conditions for a city."},
        {"name": "fetch_outside_conditions", "description": "Returns how warm and windy it is right now at a place."},
    ]
    (tmp_path / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
    (tmp_path / ".schemalint.toml").write_text(config + 'cache-dir = ""\n', encoding="utf-8")
    environment = {k: v for k, v in os.environ.items() if k != embed_module.BACKEND_ENV}
    environment["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    command = [sys.executable, "-X", "importtime", "-m", "schemalint", "check", "tools.json", "--select", "SL502"]
    result = subprocess.run(
        [*command, "--output-format", "json"], cwd=tmp_path, env=environment, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    (finding,) = json.loads(result.stdout)
    assert finding["data"]["backend"] == "static"
    imported = {line.split("|")[-1].strip().split(".")[0] for line in result.stderr.splitlines() if "|" in line}
    assert "schemalint" in imported and not imported & {"torch", "sentence_transformers", "transformers"}
