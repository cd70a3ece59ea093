"""A linear head on the frozen sentence encoder (what fits on this 2-core machine in minutes, where
fine-tuning the whole encoder did not finish): sentence vectors v -> W v, W fitted so that the
cosine of W a and W b matches the pair's target (training-pairs), with W kept near the identity
(general meaning is not unlearnt). Because mean pooling is linear, W is folded into the ONNX model
as a MatMul on every token vector (export_head.py), and Node's pooling is unchanged.

  cv:    leave-questions-out on the Beetle tuning half (FOLDS groups of its questions)
  final: fits on every pair, writes W as .npy

  nice -n 10 python scripts/rater-model/fit_head.py cv PAIRS.jsonl
  nice -n 10 python scripts/rater-model/fit_head.py final PAIRS.jsonl W.npy
"""
from __future__ import annotations

import argparse
import json
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from fine_tune import FOLDS, base_model, figures  # noqa: E402

STEPS = 300
LR = 1e-2


def vectors(texts: list[str], cache: str) -> dict[str, np.ndarray]:
    if os.path.exists(cache):
        data = np.load(cache, allow_pickle=True).item()
        if all(t in data for t in texts):
            return data
    model = base_model()
    v = model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
    data = dict(zip(texts, v))
    np.save(cache, data, allow_pickle=True)
    return data


def fit(pairs: list[dict], vec: dict[str, np.ndarray], keep: float) -> torch.Tensor:
    a = torch.tensor(np.stack([vec[p["text"]] for p in pairs]))
    b = torch.tensor(np.stack([vec[p["point"]] for p in pairs]))
    y = torch.tensor([p["target"] for p in pairs], dtype=torch.float32)
    w = torch.eye(a.shape[1], requires_grad=True)
    opt = torch.optim.Adam([w], lr=LR)
    eye = torch.eye(a.shape[1])
    for _ in range(STEPS):
        c = (F.normalize(a @ w.T, dim=-1) * F.normalize(b @ w.T, dim=-1)).sum(-1)
        loss = F.mse_loss(c, y) + keep * ((w - eye) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return w.detach()


def closeness(pairs: list[dict], vec: dict[str, np.ndarray], w: torch.Tensor) -> list[tuple[str, float]]:
    best: dict = {}
    for p in pairs:
        a = F.normalize(torch.tensor(vec[p["text"]]) @ w.T, dim=-1)
        b = F.normalize(torch.tensor(vec[p["point"]]) @ w.T, dim=-1)
        x = float((a * b).sum())
        key = (p["group"], p["text"])
        if key not in best or x > best[key][1]:
            best[key] = (p["label"], x)
    return list(best.values())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["cv", "final"])
    parser.add_argument("pairs")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--keep", type=float, default=1e-3)
    args = parser.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(13)
    pairs = [json.loads(line) for line in open(args.pairs) if line.strip()]
    vec = vectors(sorted({p["text"] for p in pairs} | {p["point"] for p in pairs}), args.pairs + ".vectors.npy")
    if args.mode == "final":
        np.save(args.out, fit(pairs, vec, args.keep).numpy())
        print("saved", args.out)
        return
    groups = sorted({p["group"] for p in pairs if p["source"] == "beetle"})
    folds = [groups[i::FOLDS] for i in range(FOLDS)]
    eye = torch.eye(384)
    for keep in (1e-1, 1e-2, 1e-3, 1e-4):
        base_rows, rows = [], []
        for held in folds:
            test = [p for p in pairs if p["group"] in set(held)]
            w = fit([p for p in pairs if p["group"] not in set(held)], vec, keep)
            base_rows += closeness(test, vec, eye)
            rows += closeness(test, vec, w)
        print(f"keep {keep}: base", json.dumps(figures(base_rows)), "| head", json.dumps(figures(rows)), flush=True)


if __name__ == "__main__":
    main()
