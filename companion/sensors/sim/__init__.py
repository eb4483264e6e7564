"""Simulated sensors that drive the real code paths: mock pins and boards on ptys."""
