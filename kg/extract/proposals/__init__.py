"""What a paper itself introduces: ``we propose X``, ``we introduce X, a ...``,
``X, a novel ...``, ``called X``, ``dubbed X``, ``named X``, ``our method X``,
a benchmark ``we present``.

Pure functions over clean text; the spaCy component only calls
:func:`find_proposals`. Every word the detector uses is in one data file,
``kg/data/proposals/lexicon.toml`` (how to add one: ``kg/data/proposals/
README.md``). The detector's parts, one concern each:

- :mod:`~kg.extract.proposals.lexicon`: the word lists, read from the data file
- :mod:`~kg.extract.proposals.patterns`: the regexes of naming sentences, built from them
- :mod:`~kg.extract.proposals.anchors`: where each pattern is tried (anchor words, gates)
- :mod:`~kg.extract.proposals.rules`: the rule table, each rule with its example
- :mod:`~kg.extract.proposals.steps`: the guards, typing and recording rules are made of
- :mod:`~kg.extract.proposals.cues`: :func:`find_proposals`, a loop over the table
- :mod:`~kg.extract.proposals.pairs`: acronym pairs the paper makes its own
- :mod:`~kg.extract.proposals.record`: the :class:`Proposal` and the guards on a name
- :mod:`~kg.extract.proposals.classify`: the type a proposed name gets
- :mod:`~kg.extract.proposals.repository`: the name of the paper's code repository
- :mod:`~kg.extract.proposals.spans`: sentence starts, whole words, name and acronym

Examples
--------
>>> [p.name for p in find_proposals("To fix it, we propose ToMoE, a method that prunes.")]
['ToMoE']
>>> [(p.name, p.type) for p in find_proposals(
...     "We introduce Layerwise Learning Rate (LLR), an adaptive scheme.")]
[('Layerwise Learning Rate', 'method'), ('LLR', 'method')]
>>> [(p.name, p.type) for p in find_proposals("We present MMBench-X, a new benchmark for VLMs.")]
[('MMBench-X', 'dataset')]
"""
from __future__ import annotations

from kg.extract.proposals.cues import find_proposals
from kg.extract.proposals.record import Proposal
from kg.extract.proposals.repository import repository_names

__all__ = ["Proposal", "find_proposals", "repository_names"]
