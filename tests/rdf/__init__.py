"""Tests of kg/rdf/."""
