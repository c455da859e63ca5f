"""The `wasteland` command."""

import os
import sys


def one_blas_thread() -> None:
    """Holds numpy's OpenBLAS to one thread, unless the user set a number: its idle
    threads spin while they wait for work, nothing here multiplies matrices big enough to
    gain from them, and in `simulate`'s process pool each worker's spinning thread took CPU
    from the other's fights (1,000 2d20 fights on 2 processes: 7.0-7.9 s with it, 5.9 s
    without). It only counts before numpy is first imported, so the command's entry point
    calls it first, and once numpy is in (the command run inside a test) it leaves the
    environment alone; importing the package never calls it (a library sets nothing
    global)."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
