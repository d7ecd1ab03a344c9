"""The timing the torch anchor scripts share (grouped_mm_torch.py, scaled_mm_torch.py,
attention_torch.py): the median of CUDA-event timings of single calls after a warm-up, in
milliseconds, each call queued behind a GPU sleep.

The sleep matters: without it the start event fires as soon as it is recorded and the kernel
only after torch's host work for the call (argument checks, cuDNN's graph lookup, grouped_mm's
metadata), so that host time is counted as GPU time. tessera's C++ benches launch behind a
lead-in kernel for the same reason (bench/timing.hpp), and the Python benches behind the same
sleep (bench/torch_pairs.py): every side of a comparison is GPU time."""
import statistics


def time_ms(torch, fn, reps, warmup=5, lead_cycles=4_000_000):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(lead_cycles)  # (~2 ms at 1.98 GHz: the call's host work ends inside it)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)
