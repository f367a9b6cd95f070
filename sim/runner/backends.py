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
import re
import signal
import socket
from collections.abc import Callable, Sequence

from sim.errors import InputError, RunError
from sim.runner.code_identity import CodeIdentity
from sim.runner.shard import ShardSummary, ShardTask, pack, run_packed, run_shard

OnDone = Callable[[ShardSummary], None]
BACKENDS: tuple[str, ...] = ("ray", "process", "serial")


def run_serial(tasks: Sequence[ShardTask], on_done: OnDone) -> None:
    """Play every shard in this process, in order."""
    for task in tasks:
        on_done(run_shard(task))


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the driver, which stops them all at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_process(
    tasks: Sequence[ShardTask], on_done: OnDone, workers: int, code: CodeIdentity
) -> None:
    """Play shards in a pool of ``workers`` fresh processes (spawned, not forked), each
    refusing shards of other ``code``. On Ctrl-C or any error the pool is terminated: shards
    already reported stay, the rest are dropped (a half-written part never replaces a whole
    one)."""
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(workers, initializer=_ignore_sigint)
    try:
        packed = (pack(task, code) for task in tasks)
        for summary in pool.imap_unordered(run_packed, packed, chunksize=1):
            on_done(summary)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


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


def run_ray(
    tasks: Sequence[ShardTask],
    on_done: OnDone,
    workers: int,
    address: str | None,
    code: CodeIdentity,
) -> float:
    """Play shards as Ray tasks: on a local Ray instance started here (no dashboard) with
    ``workers`` CPUs, or on the existing cluster at ``address``; each worker refuses shards
    of other ``code``. Returns the seconds spent starting or joining Ray."""
    import time

    import ray

    start = time.perf_counter()
    started = not ray.is_initialized()
    if started:
        if address:
            try:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                raise InputError(
                    f"--address {address}: cannot join a Ray cluster ({first})"
                ) from None
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
    startup = time.perf_counter() - start
    remote = ray.remote(num_cpus=1, max_retries=2)(run_packed)
    queue = list(tasks)
    pending: list[object] = []
    try:
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        in_flight = 2 * (workers if not address else int(cpus))
        while queue or pending:
            while queue and len(pending) < in_flight:
                pending.append(remote.remote(pack(queue.pop(0), code)))
            done, pending = ray.wait(pending, num_returns=1)
            try:
                summary = ray.get(done[0])
            except ray.exceptions.RayTaskError as exc:
                cause = _one_line_cause(exc, code)
                if cause is None:
                    raise
                raise cause from None
            on_done(summary)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
    return startup
