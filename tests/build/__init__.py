"""Tests of kg/build/."""
