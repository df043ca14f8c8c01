"""kg.extract.concept_filter: features, the step-function model, keyword mentions."""
from __future__ import annotations

import numpy as np

from kg.extract import concept_filter as cf
from kg.extract import extract_texts
from kg.extract.candidates import chunk_candidates, load_tables, token_keys


def _features(words: list[str]):
    tk = token_keys(words)
    c = chunk_candidates(words, load_tables(), tk)
    ctx = cf.context(words, list(range(0, 2 * len(words), 2)), {0}, tk, (), ())
    rows = cf.open_rows(c, ctx)
    return c, rows, cf.features(c, rows, ctx, cf.load_tables())


def test_features_have_one_column_per_name_and_are_finite() -> None:
    c, rows, X = _features(["We", "study", "offline", "reinforcement", "learning", "."])
    assert X.shape == (len(rows), len(cf.FEATURES))
    assert np.isfinite(X).all()
    j = rows.index(c.keys.index("offlinereinforcementlearning"))
    assert X[j, cf.FEATURES.index("words")] == 3
    assert X[j, cf.FEATURES.index("bg_df")] > 0          # the background knows the phrase


def test_step_model_scores_by_cuts() -> None:
    m = cf.Model(cuts=np.array([[1.0, np.inf], [np.inf, np.inf]]),
                 value=np.array([[-1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]), baseline=0.0,
                 threshold=0.5)
    p = cf.scores(np.array([[0.5, 0.0], [1.0, 0.0], [2.0, 0.0]]), m)
    assert p[0] < 0.5 and p[1] < 0.5 and p[2] > 0.5     # x <= cut goes left


def test_shipped_model_matches_features() -> None:
    m = cf.load_model()
    assert m.cuts.shape[0] == len(cf.FEATURES)
    assert 0.0 < m.threshold < 1.0


def test_keyword_mentions_come_out_of_extraction() -> None:
    text = ("We study robustness to distribution shift in federated learning and propose a "
            "counterfactual data augmentation scheme. Robustness improves on three benchmarks.")
    ex = extract_texts([text], keywords=True)[0]
    kws = [m for m in ex.mentions if m.layer == "keyword"]
    assert kws, ex.mentions
    for m in kws:
        assert text[m.start:m.end] == m.text and m.key and m.type == "keyword"
    spans = [(m.start, m.end) for m in ex.mentions]
    assert spans == sorted(spans)
    kw = {(m.start, m.end) for m in kws}
    assert not any(a < e and s < b for a, b in kw for s, e in spans if (s, e) not in kw)


def test_keywords_stay_out_of_the_graph_stages() -> None:
    text = "We study robustness to distribution shift in federated learning."
    ex = extract_texts([text], keywords=True)[0]
    assert all(m.layer != "keyword" for m in cf.without_keywords(ex).mentions)


def test_extraction_is_deterministic() -> None:
    texts = ["Sparse autoencoders find interpretable features in language model activations.",
             "We study robustness to distribution shift in federated learning and propose a "
             "counterfactual data augmentation scheme. Robustness improves on three "
             "benchmarks."] * 3
    a = [[m.to_json() for m in e.mentions] for e in extract_texts(texts, keywords=True)]
    assert a[:2] == a[2:4] == a[4:]
    assert any(m["layer"] == "keyword" for ms in a for m in ms)


def test_keywords_are_opt_in() -> None:
    text = ("We study robustness to distribution shift in federated learning and propose a "
            "counterfactual data augmentation scheme. Robustness improves on three benchmarks.")
    assert not any(m.layer == "keyword" for m in extract_texts([text])[0].mentions)
    with_kw = extract_texts([text], keywords=True)[0]
    assert cf.without_keywords(with_kw) == extract_texts([text])[0]


def test_cli_extract_keywords_flag(capsys, tmp_path) -> None:
    import json

    from kg.cli import main

    listing = tmp_path / "listing.txt"
    listing.write_text("Federated Robustness\nAda Lovelace\n\nWe study robustness to distribution "
                       "shift in federated learning and propose a counterfactual data "
                       "augmentation scheme. Robustness improves on three benchmarks.\n")

    def layers(*flags: str) -> list[str]:
        assert main(["extract", "-q", *flags, str(listing)]) == 0
        return [m["layer"] for line in capsys.readouterr().out.splitlines()
                for m in json.loads(line)["mentions"]]

    assert "keyword" in layers("--keywords")
    assert "keyword" not in layers()
