"""Tests of kg/report/."""
