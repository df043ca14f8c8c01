"""Small shared utilities: atomic files, safe text, progress, signals, memory, the start-up cache.

Each module imports only the kernel (:mod:`kg.errors`, :mod:`kg.identity`,
:mod:`kg.models`, :mod:`kg.outputs`) and the standard library; every stage may use them.
"""
