// A busy kernel that gemm_tune enqueues ahead of each timed launch (kernels/device/lead_in.cu).
// While it runs the host prepares the next launch (argument checks, tensor maps) and records its
// start event, so that the event is reached only when the kernel is already queued behind it:
// without it, a launch that follows a wait on the GPU is timed with the host's work included.
#pragma once

struct CUstream_st;

namespace tessera::kernels::device {

// Enqueues on `stream` one single-thread kernel that spins for `microseconds` of the GPU's global
// timer (wall time: the same length at any clock); false where the launch failed (the error is
// cleared).
bool launch_lead_in(CUstream_st* stream, double microseconds);

}  // namespace tessera::kernels::device
