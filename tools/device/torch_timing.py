"""The timing the torch anchor scripts share (grouped_mm_torch.py, scaled_mm_torch.py): the
median of CUDA-event timings of single calls after a warm-up, in milliseconds."""
import statistics


def time_ms(torch, fn, reps, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)
