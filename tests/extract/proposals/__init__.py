"""Tests of kg/extract/proposals/."""
