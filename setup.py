"""The one thing pyproject.toml cannot declare: the split search's optional C loop.

``optional=True``: where no C compiler is at hand the install goes on without
it, and the bots run the same search in Python (``cardhall.bots.hands``), slower.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("cardhall.bots._search", ["src/cardhall/bots/_search.c"],
                             extra_compile_args=["-O2", "-fno-fast-math", "-std=c11"],
                             optional=True)])
