"""Tests of kg/store/."""
