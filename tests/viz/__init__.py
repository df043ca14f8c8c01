"""Tests of kg/viz/."""
