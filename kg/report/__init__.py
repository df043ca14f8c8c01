"""The report of a build: ``report.json``/``report.md``, ``report.html``, PNG plots, graph exports."""
