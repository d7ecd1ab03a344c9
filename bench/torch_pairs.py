"""The timing the Python benches share (python_gemm_bench.py, python_attention_bench.py,
python_grouped_bench.py; attention_vs_torch.py through time_rotation): tessera and its torch
anchor in one process, `reps` pairs of launches each behind a GPU sleep (the launches queue
before it ends: host work is hidden, as for a kernel in a stream), the order alternating from
pair to pair (neither always runs on the other's warm L2), each launch between two CUDA events;
the medians in milliseconds."""
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


def time_rotation(torch, calls, reps, warmup, lead_cycles):
    """time_pairs for any number of calls (tessera and several anchors): each round runs every
    call once behind one GPU sleep, the order rotated by one from round to round (each call
    follows each other as often over `len(calls)` rounds), each launch between two CUDA
    events. The medians in milliseconds, in the order of `calls`."""
    n = len(calls)
    for _ in range(warmup):
        for c in calls:
            c()
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(n + 1)]
    times = [[] for _ in calls]
    for r in range(reps):
        order = [(r + i) % n for i in range(n)]
        torch.cuda._sleep(lead_cycles)
        ev[0].record()
        for slot, i in enumerate(order):
            calls[i]()
            ev[slot + 1].record()
        ev[n].synchronize()
        for slot, i in enumerate(order):
            times[i].append(ev[slot].elapsed_time(ev[slot + 1]))
    return [statistics.median(t) for t in times]
