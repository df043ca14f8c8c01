"""Tests of kg/util/."""
