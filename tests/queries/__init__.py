"""Tests of kg/queries/."""
