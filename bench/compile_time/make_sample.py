#!/usr/bin/env python3
"""Draw the fixed sample of 200 conformance expressions used by the compile-time
benchmark (run once; its output, sample.jsonl, is committed and is the benchmark).

usage: make_sample.py /work/shared/conformance/cute_algebra.jsonl > sample.jsonl

Deterministic: seed 15, each operation family gets a share of the 200 proportional
to its share of the vectors (largest remainder), drawn without replacement."""
import json
import random
import re
import sys

N, SEED = 200, 15


def main():
    vectors = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    by_op = {}
    for v in vectors:
        by_op.setdefault(re.match(r"[a-z_]+", v["expr"]).group(0), []).append(v)
    total = len(vectors)
    quota = {op: N * len(vs) // total for op, vs in by_op.items()}
    rest = sorted(by_op, key=lambda op: (-(N * len(by_op[op]) % total), op))
    for op in rest[: N - sum(quota.values())]:
        quota[op] += 1
    rng = random.Random(SEED)
    for op in sorted(by_op):
        for v in rng.sample(by_op[op], quota[op]):
            print(json.dumps({"expr": v["expr"], "result": v["result"]}))


if __name__ == "__main__":
    main()
