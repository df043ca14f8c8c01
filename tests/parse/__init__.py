"""Tests of kg/parse/."""
