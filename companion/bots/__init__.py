"""Simulated players: for the balance simulator, the demo, soak and property tests."""
