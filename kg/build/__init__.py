"""``kg build``: the stages in order, the output folder, a build read back, the graph stage."""
