# Streams and events with Numba CUDA.
#
# Source: the article "CUDA by Numba Examples" (towardsdatascience.com) ("CUDA by Numba 示例", part 3 of 4:
# streams and events, by Carlos Costa). The seed keeps the article's prose but only one of its
# code blocks (the `cuda.pinned` + `stream.auto_synchronize()` form of example 3.1). The other
# examples below follow the article's own code for them (examples 3.1-3.7, as published with the
# article), run one after the other as the notebook cells would:
#   3.1  one array normalized (a <- a / sum(a)) on one stream, pinned memory, then the seed's
#        auto_synchronize() form of the same;
#   3.2  10 arrays, one stream each (section "将独立内核与流解耦"), host-clock timing;
#   3.3  the same 10 arrays on a single stream ("现在让我们来比较一下单流");
#   3.4  two events timing one kernel ("为内核执行计时的事件");
#   3.5  the CUDATimer context manager built on events;
#   3.6  events timing the single-stream version, 3.7 events timing the 10-stream version
#        ("计时流的事件"), each with the article's sleep(5) before reading the events.
# Added here, not in the article:
#   3.8  an event recorded on stream A and waited on by stream B (event.wait(stream_b)): B's
#        divide_by runs only after A's reduction, without the host blocking; A goes on with
#        independent work that B does not wait for. (The article's only event.wait() calls wait
#        on the same stream the event was recorded on.)
#   NVTX ranges around each example (push_range/pop_range), so each shows on a timeline.
#
# Expect about 12-15 s, 10 of them in the two sleep(5) calls.

import warnings
from time import perf_counter, sleep

import numpy as np
import numba
import nvtx
from numba import cuda
from numba.core.errors import NumbaPerformanceWarning

print(np.__version__)
print(numba.__version__)

# Ignore NumbaPerformanceWarning
warnings.simplefilter("ignore", category=NumbaPerformanceWarning)
try:  # recent numba-cuda raises its own class, not numba.core's (not in the article)
    from numba.cuda.core.errors import NumbaPerformanceWarning as _CudaPerformanceWarning
    warnings.simplefilter("ignore", category=_CudaPerformanceWarning)
except ImportError:
    pass

cuda.detect()

threads_per_block = 256
blocks_per_grid = 32 * 40

@cuda.jit
def partial_reduce(array, partial_reduction):
    i_start = cuda.grid(1)
    threads_per_grid = cuda.blockDim.x * cuda.gridDim.x
    s_thread = 0.0
    for i_arr in range(i_start, array.size, threads_per_grid):
        s_thread += array[i_arr]

    s_block = cuda.shared.array((threads_per_block,), numba.float32)
    tid = cuda.threadIdx.x
    s_block[tid] = s_thread
    cuda.syncthreads()

    i = cuda.blockDim.x // 2
    while (i > 0):
        if (tid < i):
            s_block[tid] += s_block[tid + i]
        cuda.syncthreads()
        i //= 2

    if tid == 0:
        partial_reduction[cuda.blockIdx.x] = s_block[0]

@cuda.jit
def single_thread_sum(partial_reduction, sum):
    sum[0] = 0.0
    for element in partial_reduction:
        sum[0] += element


@cuda.jit
def divide_by(array, val_array):
    i_start = cuda.grid(1)
    threads_per_grid = cuda.gridsize(1)
    for i in range(i_start, array.size, threads_per_grid):
        array[i] /= val_array[0]


# ---------------------------------------------------------------------------------------------
nvtx.push_range("Example 3.1: Numba CUDA stream semantics")
# Define host array
a = np.ones(10_000_000, dtype=np.float32)
print(f"Old sum: {a.sum():.2f}")

# Example 3.1: Numba CUDA Stream Semantics

# Pin memory
with cuda.pinned(a):
    # Create a CUDA stream
    stream = cuda.stream()

    # Array copy to device and creation in the device. With Numba, you pass the
    # stream as an additional argument to API functions.
    dev_a = cuda.to_device(a, stream=stream)
    dev_a_reduce = cuda.device_array((blocks_per_grid,), dtype=dev_a.dtype, stream=stream)
    dev_a_sum = cuda.device_array((1,), dtype=dev_a.dtype, stream=stream)

    # When launching kernels, stream is passed to the kernel launcher ("dispatcher")
    # configuration, and it comes after the block dimension (`threads_per_block`)
    partial_reduce[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_reduce)
    single_thread_sum[1, 1, stream](dev_a_reduce, dev_a_sum)
    divide_by[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_sum)

    # Array copy to host: like the copy to device, when a stream is passed, the copy
    # is asynchronous. Note: the printed output will probably be nonsensical since
    # the write has not been synchronized yet.
    dev_a.copy_to_host(a, stream=stream)

# Whenever we want to ensure that all operations in a stream are finished from
# the point of view of the host, we call:
stream.synchronize()

# After that call, we can be sure that `a` has been overwritten with its
# normalized version
print(f"New sum: {a.sum():.2f}")
nvtx.pop_range()

# The same, written with stream.auto_synchronize() (the seed's code block).
nvtx.push_range("Example 3.1 with auto_synchronize")
a = np.ones(10_000_000, dtype=np.float32)
with cuda.pinned(a):
    stream = cuda.stream()
    with stream.auto_synchronize():
        dev_a = cuda.to_device(a, stream=stream)
        dev_a_reduce = cuda.device_array((blocks_per_grid,), dtype=dev_a.dtype, stream=stream)
        dev_a_sum = cuda.device_array((1,), dtype=dev_a.dtype, stream=stream)
        partial_reduce[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_reduce)
        single_thread_sum[1, 1, stream](dev_a_reduce, dev_a_sum)
        divide_by[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_sum)
        dev_a.copy_to_host(a, stream=stream)
print(f"New sum (auto_synchronize): {a.sum():.2f}")
nvtx.pop_range()


# ---------------------------------------------------------------------------------------------
nvtx.push_range("Example 3.2: multiple streams")
# Example 3.2: Multiple streams

N_streams = 10
# Do not memory-collect (deallocate) arrays within this context
with cuda.defer_cleanup():
    # Create 10 streams
    streams = [cuda.stream() for _ in range(1, N_streams + 1)]

    # Create base arrays
    arrays = [
        i * np.ones(10_000_000, dtype=np.float32) for i in range(1, N_streams + 1)
    ]

    for i, arr in enumerate(arrays):
        print(f"Old sum (array {i}): {arr.sum():12.2f}")

    tics = []  # Launch start times
    for i, (stream, arr) in enumerate(zip(streams, arrays)):
        tic = perf_counter()
        with cuda.pinned(arr):
            dev_a = cuda.to_device(arr, stream=stream)
            dev_a_reduce = cuda.device_array(
                (blocks_per_grid,), dtype=dev_a.dtype, stream=stream
            )
            dev_a_sum = cuda.device_array((1,), dtype=dev_a.dtype, stream=stream)

            partial_reduce[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_reduce)
            single_thread_sum[1, 1, stream](dev_a_reduce, dev_a_sum)
            divide_by[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_sum)

            dev_a.copy_to_host(arr, stream=stream)

        toc = perf_counter()  # Stop time of launches
        print(f"Launched processing {i} in {1e3 * (toc - tic):.2f} ms")

        # Ensure that the reference to the GPU arrays are deleted, this will
        # ensure garbage collection at the exit of the context.
        del dev_a, dev_a_reduce, dev_a_sum

        tics.append(tic)

    tocs = []
    for i, (stream, arr) in enumerate(zip(streams, arrays)):
        stream.synchronize()
        toc = perf_counter()  # Stop time of sync
        tocs.append(toc)
        print(f"New sum (array {i}): {arr.sum():12.2f}")
    for i in range(4):
        print(f"Performed processing {i} in {1e3 * (tocs[i] - tics[i]):.2f} ms")

    print(f"Total time {1e3 * (tocs[-1] - tics[0]):.2f} ms")
nvtx.pop_range()


# ---------------------------------------------------------------------------------------------
nvtx.push_range("Example 3.3: single stream")
# Example 3.3: Single stream

# Do not memory-collect (deallocate) arrays within this context
with cuda.defer_cleanup():
    # Create 1 streams
    streams = [cuda.stream()] * N_streams

    # Create base arrays
    arrays = [
        i * np.ones(10_000_000, dtype=np.float32) for i in range(1, N_streams + 1)
    ]

    for i, arr in enumerate(arrays):
        print(f"Old sum (array {i}): {arr.sum():12.2f}")

    tics = []  # Launch start times
    for i, (stream, arr) in enumerate(zip(streams, arrays)):
        tic = perf_counter()

        with cuda.pinned(arr):
            dev_a = cuda.to_device(arr, stream=stream)
            dev_a_reduce = cuda.device_array(
                (blocks_per_grid,), dtype=dev_a.dtype, stream=stream
            )
            dev_a_sum = cuda.device_array((1,), dtype=dev_a.dtype, stream=stream)

            partial_reduce[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_reduce)
            single_thread_sum[1, 1, stream](dev_a_reduce, dev_a_sum)
            divide_by[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_sum)

            dev_a.copy_to_host(arr, stream=stream)

        toc = perf_counter()  # Stop time of launches
        print(f"Launched processing {i} in {1e3 * (toc - tic):.2f} ms")

        # Ensure that the reference to the GPU arrays are deleted, this will
        # ensure garbage collection at the exit of the context.
        del dev_a, dev_a_reduce, dev_a_sum

        tics.append(tic)

    tocs = []
    for i, (stream, arr) in enumerate(zip(streams, arrays)):
        stream.synchronize()
        toc = perf_counter()  # Stop time of sync
        tocs.append(toc)
        print(f"New sum (array {i}): {arr.sum():12.2f}")
    for i in range(4):
        print(f"Performed processing {i} in {1e3 * (tocs[i] - tics[i]):.2f} ms")

    print(f"Total time {1e3 * (tocs[-1] - tics[0]):.2f} ms")
nvtx.pop_range()


# ---------------------------------------------------------------------------------------------
nvtx.push_range("Example 3.4: simple events")
# Example 3.4: Simple events

# Events need to be initialized, but this does not start timing.
# We create two events, one at the start of computations, and one at the end.
event_beg = cuda.event()
event_end = cuda.event()

# Create CUDA stream
stream = cuda.stream()

with cuda.pinned(arr):
    # Queue array copy/create in `stream`
    dev_a = cuda.to_device(arr, stream=stream)
    dev_a_reduce = cuda.device_array((blocks_per_grid,), dtype=dev_a.dtype, stream=stream)

    # Here we issue our first event recording. `event_beg` from this line onwards
    # will keep track of the current time in the GPU.
    event_beg.record(stream=stream)

    # Launch the kernel asynchronously
    partial_reduce[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_reduce)

    # Launch a "record" which will be triggered when the kernel run ends
    event_end.record(stream=stream)

    # Future tasks submitted to the stream will wait for `event_end` to complete.
    event_end.wait(stream=stream)

    # Synchronize this event with the CPU, so we can use its value.
    event_end.synchronize()

# Now we calculate the time it took to execute the kernel. Note that we do not
# need to wait/synchronize `event_beg` since its execution is contingent upon
# event_end having waited/synchronized
timing_ms = event_beg.elapsed_time(event_end)  # in miliseconds

print(f"Elapsed time {timing_ms:.2f} ms")
nvtx.pop_range()


# ---------------------------------------------------------------------------------------------
nvtx.push_range("Example 3.5: CUDATimer context manager")
# Example 3.5: Context Manager for CUDA Timer using Events
class CUDATimer:
    def __init__(self, stream):
        self.stream = stream
        self.event = None  # in ms

    def __enter__(self):
        self.event_beg = cuda.event()
        self.event_end = cuda.event()
        self.event_beg.record(stream=self.stream)
        return self

    def __exit__(self, type, value, traceback):
        self.event_end.record(stream=self.stream)
        self.event_end.wait(stream=self.stream)
        self.event_end.synchronize()
        self.elapsed = self.event_beg.elapsed_time(self.event_end)


stream = cuda.stream()
dev_a = cuda.to_device(arrays[0], stream=stream)
dev_a_reduce = cuda.device_array((blocks_per_grid,), dtype=dev_a.dtype, stream=stream)
with CUDATimer(stream) as cudatimer:
    partial_reduce[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_reduce)
print(f"Elapsed time {cudatimer.elapsed:.2f} ms")
nvtx.pop_range()


# ---------------------------------------------------------------------------------------------
nvtx.push_range("Example 3.6: timing a single stream with events")
# Example 3.6: Timing a single streams with events

N_streams = 10

# Do not memory-collect (deallocate) arrays within this context
with cuda.defer_cleanup():
    # Create 1 stream
    streams = [cuda.stream()] * N_streams

    # Create base arrays
    arrays = [
        i * np.ones(10_000_000, dtype=np.float32) for i in range(1, N_streams + 1)
    ]

    events_beg = []  # Launch start times
    events_end = []  # End start times
    for i, (stream, arr) in enumerate(zip(streams, arrays)):
        with cuda.pinned(arr):
            # Declare events and record start
            event_beg = cuda.event()
            event_end = cuda.event()
            event_beg.record(stream=stream)

            # Do all CUDA operations
            dev_a = cuda.to_device(arr, stream=stream)
            dev_a_reduce = cuda.device_array(
                (blocks_per_grid,), dtype=dev_a.dtype, stream=stream
            )
            dev_a_sum = cuda.device_array((1,), dtype=dev_a.dtype, stream=stream)
            partial_reduce[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_reduce)
            single_thread_sum[1, 1, stream](dev_a_reduce, dev_a_sum)
            divide_by[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_sum)
            dev_a.copy_to_host(arr, stream=stream)

            # Record end
            event_end.record(stream=stream)

        events_beg.append(event_beg)
        events_end.append(event_end)

        del dev_a, dev_a_reduce, dev_a_sum

sleep(5)  # Wait for all events to finish, does not affect GPU timing
for event_end in events_end:
    event_end.synchronize()

# The first `event_beg` launched is the earliest event. But the last `event_end`
# is not known a priori. We find which event that is with:
elapsed_times = [events_beg[0].elapsed_time(event_end) for event_end in events_end]
i_stream_last = np.argmax(elapsed_times)

print(f"Last stream: {i_stream_last}")
print(f"Total time {elapsed_times[i_stream_last]:.2f} ms")
nvtx.pop_range()


# ---------------------------------------------------------------------------------------------
nvtx.push_range("Example 3.7: timing multiple streams with events")
# Example 3.7: Timing multiple streams with events

# Do not memory-collect (deallocate) arrays within this context
with cuda.defer_cleanup():
    # Create 10 streams
    streams = [cuda.stream() for _ in range(1, N_streams + 1)]

    # Create base arrays
    arrays = [
        i * np.ones(10_000_000, dtype=np.float32) for i in range(1, N_streams + 1)
    ]

    events_beg = []  # Launch start times
    events_end = []  # End start times
    for i, (stream, arr) in enumerate(zip(streams, arrays)):
        with cuda.pinned(arr):
            # Declare events and record start
            event_beg = cuda.event()
            event_end = cuda.event()
            event_beg.record(stream=stream)

            # Do all CUDA operations
            dev_a = cuda.to_device(arr, stream=stream)
            dev_a_reduce = cuda.device_array(
                (blocks_per_grid,), dtype=dev_a.dtype, stream=stream
            )
            dev_a_sum = cuda.device_array((1,), dtype=dev_a.dtype, stream=stream)
            partial_reduce[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_reduce)
            single_thread_sum[1, 1, stream](dev_a_reduce, dev_a_sum)
            divide_by[blocks_per_grid, threads_per_block, stream](dev_a, dev_a_sum)
            dev_a.copy_to_host(arr, stream=stream)

            # Record end
            event_end.record(stream=stream)

        events_beg.append(event_beg)
        events_end.append(event_end)

        del dev_a, dev_a_reduce, dev_a_sum

sleep(5)  # Wait for all events to finish, does not affect GPU timing
for event_end in events_end:
    event_end.synchronize()

# The first `event_beg` launched is the earliest event. But the last `event_end`
# is not known a priori. We find which event that is with:
elapsed_times = [events_beg[0].elapsed_time(event_end) for event_end in events_end]
i_stream_last = np.argmax(elapsed_times)

print(f"Last stream: {i_stream_last}")
print(f"Total time {elapsed_times[i_stream_last]:.2f} ms")
nvtx.pop_range()


# ---------------------------------------------------------------------------------------------
# Example 3.8 (added here, not in the article): an event recorded on one stream and waited on
# by another. Stream A copies `a` in and reduces it to its sum, then records `sum_ready`.
# Stream B waits for `sum_ready` on the device (the host does not block), divides `a` by the
# sum A produced and copies it back. Meanwhile A goes on normalizing `b`, which B does not
# wait for. The host memory stays pinned until both streams are synchronized.
nvtx.push_range("Example 3.8: record on stream A, wait on stream B")
stream_a = cuda.stream()
stream_b = cuda.stream()
a = 3 * np.ones(10_000_000, dtype=np.float32)  # normalized across streams A and B
b = 7 * np.ones(10_000_000, dtype=np.float32)  # independent work, stream A only
sum_ready = cuda.event()
with cuda.pinned(a, b):
    # Producer: stream A
    dev_a = cuda.to_device(a, stream=stream_a)
    dev_a_reduce = cuda.device_array((blocks_per_grid,), dtype=dev_a.dtype, stream=stream_a)
    dev_a_sum = cuda.device_array((1,), dtype=dev_a.dtype, stream=stream_a)
    partial_reduce[blocks_per_grid, threads_per_block, stream_a](dev_a, dev_a_reduce)
    single_thread_sum[1, 1, stream_a](dev_a_reduce, dev_a_sum)
    sum_ready.record(stream=stream_a)

    # Consumer: stream B waits for the point recorded on A, then uses A's result.
    sum_ready.wait(stream=stream_b)
    divide_by[blocks_per_grid, threads_per_block, stream_b](dev_a, dev_a_sum)
    dev_a.copy_to_host(a, stream=stream_b)

    # More work on A, queued after the record point: B does not wait for it.
    dev_b = cuda.to_device(b, stream=stream_a)
    dev_b_reduce = cuda.device_array((blocks_per_grid,), dtype=dev_b.dtype, stream=stream_a)
    dev_b_sum = cuda.device_array((1,), dtype=dev_b.dtype, stream=stream_a)
    partial_reduce[blocks_per_grid, threads_per_block, stream_a](dev_b, dev_b_reduce)
    single_thread_sum[1, 1, stream_a](dev_b_reduce, dev_b_sum)
    divide_by[blocks_per_grid, threads_per_block, stream_a](dev_b, dev_b_sum)
    dev_b.copy_to_host(b, stream=stream_a)

    stream_b.synchronize()
    print(f"Stream B done, new sum (a): {a.sum():.2f}")
    stream_a.synchronize()
    print(f"Stream A done, new sum (b): {b.sum():.2f}")
nvtx.pop_range()

assert abs(float(a.sum()) - 1.0) < 1e-3 and abs(float(b.sum()) - 1.0) < 1e-3
print("done")
