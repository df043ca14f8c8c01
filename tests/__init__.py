"""kg's tests: tests/<folder>/test_<module>.py for kg/<folder>/<module>.py, the kernel's at the top."""
