"""The one thing pyproject.toml cannot declare: the split search's optional C loop.

``optional=True``: where no C compiler is at hand the install goes on without
it, and the bots run the same search in Python (``cardhall.bots.hands``), slower.
"""

from setuptools import Extension, setup

SOURCES = [f"src/cardhall/bots/{name}.c"
           for name in ("_search", "_search_tables", "_search_loop", "_search_sift")]

setup(ext_modules=[Extension("cardhall.bots._search", SOURCES,
                             depends=["src/cardhall/bots/_search.h"],
                             extra_compile_args=["-O2", "-fno-fast-math", "-std=c11"],
                             optional=True)])
