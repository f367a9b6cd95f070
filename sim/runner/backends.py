"""Backends that play shard tasks: in this process, in a process pool, or on Ray.

Each calls ``on_done(summary)`` in the driver as shards finish, in whatever order they
finish; the data never depends on that order. Ray is imported only by the Ray backend.
Interrupting (Ctrl-C) cancels shards not yet started; finished shards stay on disk.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
from collections.abc import Callable, Sequence

from sim.runner.shard import ShardSummary, ShardTask, run_shard

OnDone = Callable[[ShardSummary], None]
BACKENDS: tuple[str, ...] = ("ray", "process", "serial")


def run_serial(tasks: Sequence[ShardTask], on_done: OnDone) -> None:
    """Play every shard in this process, in order."""
    for task in tasks:
        on_done(run_shard(task))


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the driver, which stops them all at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_process(tasks: Sequence[ShardTask], on_done: OnDone, workers: int) -> None:
    """Play shards in a pool of ``workers`` fresh processes (spawned, not forked). On Ctrl-C
    or any error the pool is terminated: shards already reported stay, the rest are dropped
    (a half-written part never replaces a whole one)."""
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(workers, initializer=_ignore_sigint)
    try:
        for summary in pool.imap_unordered(run_shard, tasks, chunksize=1):
            on_done(summary)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def run_ray(
    tasks: Sequence[ShardTask], on_done: OnDone, workers: int, address: str | None
) -> float:
    """Play shards as Ray tasks: on a local Ray instance started here (no dashboard) with
    ``workers`` CPUs, or on the existing cluster at ``address``. Returns the seconds spent
    starting or joining Ray."""
    import time

    import ray

    start = time.perf_counter()
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
    startup = time.perf_counter() - start
    remote = ray.remote(num_cpus=1, max_retries=2)(run_shard)
    queue = list(tasks)
    pending: list[object] = []
    try:
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        in_flight = 2 * (workers if not address else int(cpus))
        while queue or pending:
            while queue and len(pending) < in_flight:
                pending.append(remote.remote(queue.pop(0)))
            done, pending = ray.wait(pending, num_returns=1)
            on_done(ray.get(done[0]))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
    return startup
