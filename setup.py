"""The package's one C extension; everything else is in pyproject.toml.

The embedded index's ranking loop (shared/tutor_memory/adapters/_ranking.c says why it is C).
Optional: where no C compiler is found the install goes on and the index ranks with numpy (the
same hits, more slowly). -ffp-contract=off: no fused multiply-add, so BM25's doubles are
numpy's bit for bit.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tutor_memory.adapters._ranking",
            sources=["shared/tutor_memory/adapters/_ranking.c"],
            extra_compile_args=["-ffp-contract=off"],
            optional=True,
        )
    ]
)
