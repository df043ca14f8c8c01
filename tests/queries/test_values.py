"""Parameter values checked against the graph, and the closest names suggested."""
from __future__ import annotations

import time

import pytest

from kg import queries
from kg.errors import QueryError
from kg.queries.values import Track, closest, find_track, tracks
from tests import rdf_fixture

TRACKS = (Track("Deep Learning", "Deep Learning", ""),
          Track("Deep Learning · Robustness", "Robustness", "Deep Learning"),
          Track("Social Aspects", "Social Aspects", ""),
          Track("Social Aspects · Robustness", "Robustness", "Social Aspects"),
          Track("Theory · Online Learning, Bandits", "Online Learning, Bandits", "Theory"))


def test_closest_ranks_by_similarity_and_keeps_only_the_nearest():
    names = ["diffusion model", "fusion", "vision model", "diffusion model", "Diffusion Models"]
    assert closest("difusion model", names) == ["diffusion model", "Diffusion Models"]
    assert closest("Sergey Levin", ["Serge Lang", "Sergey Levin e", "Sergey Levine"]) == [
        "Sergey Levine", "Sergey Levin e"]
    assert closest("ab", ["ba", "ab ", "aB"]) == ["aB", "ab "]  # ties by name
    assert closest("qqqq", names) == []
    assert closest("model", ["models", "modal", "mode"], n=1) == ["models"]


def test_closest_is_fast_enough_on_many_names():
    # the error path only: e.g. every person of a 100,000-paper graph
    syllables = ["ka", "ren", "zhi", "mo", "lu", "sa", "tor", "vi", "an", "el", "qu", "dre"]
    names = [" ".join("".join(syllables[(i // 12 ** k) % 12] for k in range(j, j + 3)).title()
                      for j in (0, 3)) for i in range(300_000)]
    t0 = time.perf_counter()
    assert names[123_456] in closest(names[123_456][:-1], names)
    assert time.perf_counter() - t0 < 15  # about 2 s on a shared machine


def test_find_track_by_label_area_or_subarea():
    assert find_track("DEEP  learning", TRACKS) == "Deep Learning"
    assert find_track("deep learning · robustness", TRACKS) == "Deep Learning · Robustness"
    assert find_track("online learning, bandits", TRACKS) == "Theory · Online Learning, Bandits"
    with pytest.raises(QueryError, match="ambiguous: it is a subarea of Deep Learning · "
                                         "Robustness; Social Aspects · Robustness"):
        find_track("Robustness", TRACKS)
    with pytest.raises(QueryError, match="no track named 'Socal Aspects'; did you mean: Social "
                                         "Aspects?"):
        find_track("Socal Aspects", TRACKS)
    with pytest.raises(QueryError, match=r"the graph has no tracks"):
        find_track("Theory", ())


def test_values_against_a_store(stores):
    st = stores["concepts"]
    assert [t.label for t in tracks(st)] == ["Deep Learning", "Deep Learning · Large Language "
                                             "Models", "Deep Learning · Robustness", "Theory"]
    # the track is bound to its full label: the column shows it
    res = queries.run(st, "top-concepts", {"track": "large language MODELS"})
    assert {r[0] for r in res.values()} == {"Deep Learning · Large Language Models"}
    # a paper by its id in capitals, or by a name it proposes
    ids = {r[0] for r in queries.run(st, "similar-papers", {"paper": rdf_fixture.P1.upper()}
                                     ).values()}
    assert ids == {rdf_fixture.P1}
    with pytest.raises(QueryError, match=r"^no entity or concept named 'Lama'; did you mean: "):
        queries.run(st, "papers-mentioning", {"entity": "Lama"})
    with pytest.raises(QueryError, match=r"^no concept named 'quantisaton'; did you mean: "
                                         r"quantization\?$"):
        queries.run(st, "papers-about", {"concept": "quantisaton"})
    # an entity is not a concept
    with pytest.raises(QueryError, match="no concept named 'LLaMA-2'"):
        queries.run(st, "top-concepts", {"concept": "LLaMA-2"})
    # defaults are not checked; an empty value is no value
    assert len(queries.run(st, "top-entities", {"type": ""})) > 0


def test_a_name_several_papers_propose_lists_them(stores):
    st = stores["fixture"]
    rows = queries.run(st, "SELECT ?id ?n WHERE { ?p kgo:proposes ?e ; dcterms:identifier ?id . "
                           "?e skos:prefLabel ?n } ORDER BY ?n ?id").values()
    by_name: dict[str, list[str]] = {}
    for pid, name in rows:
        by_name.setdefault(name, []).append(pid)
    shared = [n for n, ids in by_name.items() if len(ids) > 1]
    single = [n for n, ids in by_name.items() if len(ids) == 1]
    assert single
    got = queries.run(st, "paper-authors", {"paper": single[0]}).values()
    assert {r[0] for r in got} == {by_name[single[0]][0]}
    if shared:  # the fixture may or may not have one: then the error lists both
        with pytest.raises(QueryError, match=r"papers answer to .*\(give the id\)"):
            queries.run(st, "paper-authors", {"paper": shared[0]})
