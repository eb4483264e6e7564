"""The aim rule on the MicroPython unix port: the very cases CPython passes (tests/wire)."""

from wire.aim_cases import CASES, LOCKS, expected_changes


def test_every_case_gives_the_same_changes_on_micropython(micropython):
    names = sorted(CASES)
    cases = [expected_changes(name) for name in names]
    got = micropython.ask(*[["aim", window, looks] for window, looks, _ in cases])
    for name, (_, _, changes), answer in zip(names, cases, got, strict=True):
        assert answer == changes, name


def test_locks_and_windows_on_micropython(micropython):
    got = micropython.ask(*[["lock", masks] for masks, _ in LOCKS])
    assert got == [want for _, want in LOCKS]
    assert micropython.ask(["window_rounds", 500, 18000], ["window_rounds", 500, 10000]) == [
        28,
        50,
    ]
