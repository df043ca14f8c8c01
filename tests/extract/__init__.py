"""Tests of kg/extract/."""
