"""The timing the Python benches share (python_gemm_bench.py, python_attention_bench.py,
python_grouped_bench.py): tessera and its torch anchor in one process, `reps` pairs of launches
each behind a GPU sleep (the launches queue before it ends: host work is hidden, as for a kernel
in a stream), the order alternating from pair to pair (neither always runs on the other's warm
L2), each launch between two CUDA events; the medians in milliseconds."""
import statistics


def time_pairs(torch, mine, theirs, reps, warmup, lead_cycles):
    for _ in range(warmup):
        mine()
        theirs()
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
    t_mine, t_theirs = [], []
    for r in range(reps):
        first, second = (mine, theirs) if r % 2 == 0 else (theirs, mine)
        torch.cuda._sleep(lead_cycles)
        ev[0].record()
        first()
        ev[1].record()
        second()
        ev[2].record()
        ev[2].synchronize()
        a, b = ev[0].elapsed_time(ev[1]), ev[1].elapsed_time(ev[2])
        t_mine.append(a if r % 2 == 0 else b)
        t_theirs.append(b if r % 2 == 0 else a)
    return statistics.median(t_mine), statistics.median(t_theirs)
