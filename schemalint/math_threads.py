"""`one_math_thread()`: numpy's BLAS and torch on one thread, for the runs where more cost more.

Their thread pools are sized once, from these environment variables, when the library is imported:
a thread per core by default. When forked workers already have the other cores, or when the
matrices are small, the extra threads only compete and spin-wait (OpenBLAS) and burn CPU.
"""

from __future__ import annotations

import os

#: what sizes the thread pools of numpy's BLAS (OpenBLAS, MKL) and torch (OpenMP) at import
MATH_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_math_thread(variables: tuple[str, ...] = MATH_THREAD_VARIABLES) -> None:
    """Ask for one thread through `variables`. A setting of the user's wins; a library imported
    already keeps its pool."""
    for name in variables:
        os.environ.setdefault(name, "1")
