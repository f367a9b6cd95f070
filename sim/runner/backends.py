"""Backends that play shard tasks: in this process, in a process pool, or on Ray.

Each calls ``on_done(summary)`` in the driver as shards finish, in whatever order they
finish; the data never depends on that order. Ray is imported only by the Ray backend.
Interrupting (Ctrl-C) cancels shards not yet started; finished shards stay on disk. A shard
that fails with a one-line error (:class:`InputError`, :class:`RunError`: a worker running
other code, a full disk) fails the run with that line, whichever backend played it.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue as queues
import re
import signal
import socket
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from sim.errors import InputError, RunError
from sim.runner import shard as shard_module
from sim.runner.code_identity import CodeIdentity
from sim.runner.shard import (
    GameReport,
    ShardSummary,
    ShardTask,
    pack,
    run_packed,
    run_packed_reporting,
    run_shard,
    set_worker_report,
)

if TYPE_CHECKING:
    from ray import ObjectRef

OnDone = Callable[[ShardSummary], None]
BACKENDS: tuple[str, ...] = ("ray", "process", "serial")


def run_serial(
    tasks: Sequence[ShardTask], on_done: OnDone, report: GameReport | None = None
) -> None:
    """Play every shard in this process, in order (``report``: games finished inside a
    shard, see :func:`sim.runner.shard.run_shard`)."""
    for task in tasks:
        on_done(run_shard(task, report))


#: Seconds between a pool worker's checks that its driver is still alive.
WATCH_EVERY = 0.5


def _init_worker(
    driver: int,
    reports: multiprocessing.Queue[tuple[int, int, float]] | None = None,
    report_every: float = 2.0,
) -> None:
    """A pool worker leaves Ctrl-C to the driver, which stops them all at once, and ends
    itself once the driver is gone (killed with -9, say): an orphan would play on, keep the
    worker pool's resource tracker alive and write parts that no driver records. Games
    finished inside a shard go to the driver through ``reports``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if reports is not None:
        # The driver's interval (which a test may have set), not this process's default.
        set_worker_report(
            lambda shard, games, seconds: reports.put((shard, games, seconds)), report_every
        )
    threading.Thread(target=_watch_driver, args=(driver,), daemon=True).start()


def _watch_driver(driver: int) -> None:
    """Exit the worker at once when its parent is no longer ``driver`` (it was re-parented)."""
    while os.getppid() == driver:
        time.sleep(WATCH_EVERY)
    os._exit(1)


def _shard_overrun(shard: int, limit: float) -> RunError:
    return RunError(
        f"shard {shard} ran past the shard time limit ({limit:g} s) and was stopped; finished "
        "shards are kept: find the slow strategy (--decision-timeout ends a stuck game), or "
        "raise --shard-timeout, and run the same command to resume"
    )


def run_process(
    tasks: Sequence[ShardTask],
    on_done: OnDone,
    workers: int,
    code: CodeIdentity,
    shard_timeout: float | None = None,
    report: GameReport | None = None,
) -> None:
    """Play shards in a pool of ``workers`` fresh processes (spawned, not forked), each
    refusing shards of other ``code``; at most one shard per worker is in flight, so each
    starts when it is handed out and ``shard_timeout`` counts from then. On Ctrl-C, a shard
    past its time limit, a worker that dies or any error, the workers are killed at once:
    shards already reported stay, the rest are dropped (a half-written part never replaces
    a whole one). ``report`` hears the games finished inside shards (sent by the workers
    through a queue, read between waits)."""
    context = multiprocessing.get_context("spawn")
    reports = context.Queue() if report is not None else None
    pool = ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(os.getpid(), reports, shard_module.REPORT_EVERY),
    )
    queue = list(tasks)
    started: dict[Future[ShardSummary], tuple[int, float]] = {}
    try:
        while queue or started:
            while queue and len(started) < workers:
                task = queue.pop(0)
                future = pool.submit(run_packed, pack(task, code))
                started[future] = (task.shard, time.monotonic())
            wait_for = 1.0
            if shard_timeout is not None:
                first = min(t for _, t in started.values())
                wait_for = max(0.0, min(wait_for, first + shard_timeout - time.monotonic()))
            done, _ = wait(list(started), timeout=wait_for, return_when=FIRST_COMPLETED)
            _pass_reports(reports, report)
            for future in done:
                started.pop(future)
                try:
                    summary = future.result()
                except BrokenProcessPool:
                    raise RunError(
                        "a worker process died while playing a shard (ended by a strategy, a "
                        "signal or the out-of-memory killer); finished shards are kept: run "
                        "the same command to resume"
                    ) from None
                on_done(summary)
            if shard_timeout is not None:
                now = time.monotonic()
                for shard, t in started.values():
                    if now - t > shard_timeout:
                        raise _shard_overrun(shard, shard_timeout)
    except BaseException:
        _kill_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _pass_reports(
    reports: multiprocessing.Queue[tuple[int, int, float]] | None, report: GameReport | None
) -> None:
    """Hand ``report`` what the workers sent since the last look, without waiting."""
    if reports is None or report is None:
        return
    while True:
        try:
            report(*reports.get_nowait())
        except queues.Empty:
            return


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Stop every worker of ``pool`` now (``shutdown`` alone waits for running shards)."""
    processes = dict(getattr(pool, "_processes", None) or {})
    for process in processes.values():
        process.kill()
    for process in processes.values():
        process.join(timeout=5)


#: ``host:port`` or ``ray://host:port`` (a Ray client address); ``auto`` finds a local cluster.
_ADDRESS = re.compile(r"^(?:ray://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$")
#: Seconds to wait for the cluster's port to answer before giving up.
CONNECT_TIMEOUT = 5.0


def check_address_format(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a Ray address, None for ``auto``; ``InputError`` for anything else."""
    if address == "auto":
        return None
    m = _ADDRESS.match(address)
    port = int(m.group(2)) if m else 0
    if m is None or not 1 <= port <= 65535:
        shown = address if len(address) <= 60 else address[:57] + "..."
        raise InputError(
            f"--address {shown!r} is not allowed (host:port with a port from 1 to 65535, "
            "ray://host:port, or auto)"
        )
    return m.group(1).strip("[]"), port


def check_address(address: str) -> None:
    """``InputError`` at once unless ``address`` is ``auto`` or a ``[ray://]host:port`` whose
    port accepts a connection within :data:`CONNECT_TIMEOUT` seconds (Ray itself would wait
    minutes for a closed port)."""
    where = check_address_format(address)
    if where is None:
        return
    host, port = where
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        why = (
            f"no answer within {CONNECT_TIMEOUT:g} s"
            if isinstance(exc, TimeoutError)
            else (exc.strerror or str(exc))
        )
        raise InputError(
            f"--address {address}: no Ray cluster answers there ({why}); start one with "
            "'ray start --head' or check the address"
        ) from None


def _one_line_cause(exc: BaseException, code: CodeIdentity) -> BaseException | None:
    """The one-line error a failed Ray task stands for: the :class:`InputError` or
    :class:`RunError` it raised, or a :class:`RunError` when the worker could not even load
    the shard's entry point (Ray's system error: code too different to check)."""
    import ray

    cause = getattr(exc, "cause", None)
    if isinstance(cause, InputError | RunError):
        return cause
    text = str(cause)
    if isinstance(cause, ray.exceptions.RaySystemError) or text.startswith(
        "The remote function failed to import"
    ):
        # The reason is the last "...Error: ..." line of Ray's text (its lines are wrapped).
        flat = " ".join(text.split())
        starts = [m.start() for m in re.finditer(r"\w+Error: ", flat)]
        why = flat[starts[-1] :] if starts else "its code could not be loaded"
        return RunError(
            f"a Ray worker could not load its shard ({why}): it runs other code than the "
            f"driver ({code.label()}); run tourney from a directory without another "
            "checkout's sim/ and strategies/, and install the same version on every node"
        )
    return None


def ray_start(workers: int, address: str | None) -> bool:
    """Start a local Ray instance (no dashboard) with ``workers`` CPUs, or join the cluster
    at ``address``, unless Ray is already running in this process; True when it started
    here (the caller then shuts it down)."""
    import ray

    if ray.is_initialized():
        return False
    if address:
        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise InputError(f"--address {address}: cannot join a Ray cluster ({first})") from None
    else:
        # "local": a private instance even on a machine where a `ray start` cluster runs
        # or RAY_ADDRESS is set (Ray would join those, and refuse num_cpus there);
        # --address is the one way a run joins a cluster.
        ray.init(
            address="local",
            num_cpus=workers,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    return True


def _ray_result(ref: ObjectRef[Any], shard: int, code: CodeIdentity) -> ShardSummary:
    """The summary of a finished Ray task playing ``shard``; its failure as a one-line
    error when it stands for one (see :func:`_one_line_cause`)."""
    import ray

    try:
        summary: ShardSummary = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = _one_line_cause(exc, code)
        if cause is None:
            raise
        raise cause from None
    except ray.exceptions.RayError as exc:  # a worker that died, a lost node
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise RunError(
            f"a Ray worker failed while playing shard {shard} "
            f"({type(exc).__name__}: {first_line[:160]}); finished shards are kept: "
            "run the same command to resume"
        ) from None
    return summary


def run_ray(
    tasks: Sequence[ShardTask],
    on_done: OnDone,
    workers: int,
    address: str | None,
    code: CodeIdentity,
    shard_timeout: float | None = None,
    report: GameReport | None = None,
) -> float:
    """Play shards as Ray tasks: on a local Ray instance started here (no dashboard) with
    ``workers`` CPUs, or on the existing cluster at ``address``; each worker refuses shards
    of other ``code``. With ``shard_timeout``, only as many shards as there are CPUs are in
    flight (each starts when it is handed out) and one that overruns stops the run. Returns
    the seconds spent starting or joining Ray. ``report`` hears the games finished inside
    shards (sent by the workers through a Ray queue, read at least every second)."""
    import ray

    start = time.perf_counter()
    started = ray_start(workers, address)
    startup = time.perf_counter() - start
    reports = None
    if report is not None:
        from ray.util.queue import Queue

        reports = Queue(actor_options={"num_cpus": 0})  # no CPU taken from the shards
    remote = ray.remote(num_cpus=1, max_retries=2)(run_packed_reporting)
    queue = list(tasks)
    pending: list[object] = []
    handed: dict[object, tuple[int, float]] = {}
    try:
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        slots = workers if not address else max(1, int(cpus))
        in_flight = slots if shard_timeout is not None else 2 * slots
        while queue or pending:
            while queue and len(pending) < in_flight:
                task = queue.pop(0)
                submitted: object = remote.remote(
                    pack(task, code), reports, shard_module.REPORT_EVERY
                )
                pending.append(submitted)
                handed[submitted] = (task.shard, time.monotonic())
            wait_for = None if reports is None else 1.0
            overrun_at = None
            if shard_timeout is not None:
                oldest = min(handed[r][1] for r in pending)
                overrun_at = oldest + shard_timeout
                until = max(0.0, overrun_at - time.monotonic())
                wait_for = until if wait_for is None else min(wait_for, until)
            done, pending = ray.wait(pending, num_returns=1, timeout=wait_for)
            if reports is not None and report is not None:
                for item in reports.get_nowait_batch(reports.qsize()):
                    report(*item)
                if not done and (overrun_at is None or time.monotonic() < overrun_at):
                    continue  # only a look at the reports
            if not done:
                shard, _ = min((handed[r] for r in pending), key=lambda st: st[1])
                assert shard_timeout is not None
                raise _shard_overrun(shard, shard_timeout)
            summary = _ray_result(done[0], handed[done[0]][0], code)
            handed.pop(done[0], None)
            on_done(summary)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
    return startup
