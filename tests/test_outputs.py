"""kg.outputs: the stages that name their files themselves agree with its names."""
from __future__ import annotations

from kg import outputs


def test_every_output_name_is_the_build_folders():
    """The stages that name their files themselves agree with kg.outputs."""
    from kg.rdf.stage import RDF_FORMATS
    from kg.report.plots import PLOTS
    from kg.store import STORE_DIR
    from kg.viz.site import DESCRIPTIONS

    assert RDF_FORMATS == outputs.RDF_FILES and STORE_DIR == outputs.STORE_DIR
    described = {n for names in DESCRIPTIONS.values() for n in names}
    assert described | {outputs.INDEX_HTML, f"{outputs.PLOTS_DIR}/"} \
        == outputs.KNOWN_OUTPUTS
    assert all("/" not in name for name in PLOTS)
