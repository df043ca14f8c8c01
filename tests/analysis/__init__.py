"""Tests of kg/analysis/."""
