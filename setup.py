"""The one thing pyproject.toml cannot declare: the split search's optional C loop.

``optional=True``: where no C compiler is at hand the install goes on without
it, and the bots run the same search in Python (``cardhall.bots.split.hands``), slower.

The loop counts bits at every step; on an x86-64 processor that has its own
instruction for it (every one since about 2008), the build uses it (``-mpopcnt``:
5-7% of the loop's time), since the install builds for the machine it runs on.
"""

import platform
from pathlib import Path

from setuptools import Extension, setup

SOURCES = [f"src/cardhall/bots/split/{name}.c"
           for name in ("_search", "_search_tables", "_search_loop", "_search_sift",
                        "_search_blocks")]


def _has_popcnt() -> bool:
    """Whether this machine is x86-64 with the popcnt instruction (Linux reports it)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return False
    try:
        return "popcnt" in Path("/proc/cpuinfo").read_text().split()
    except OSError:
        return False


FLAGS = ["-O2", "-fno-fast-math", "-std=c11"] + (["-mpopcnt"] if _has_popcnt() else [])

setup(ext_modules=[Extension("cardhall.bots.split._search", SOURCES,
                             depends=["src/cardhall/bots/split/_search.h"],
                             extra_compile_args=FLAGS, optional=True)])
