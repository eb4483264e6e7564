"""Pure code shared by the boards (MicroPython) and the companion (CPython).

Modules here use only what both runtimes have: no typing, no f-string `=`, no
dataclasses, no imports outside this folder. The boards get them copied to `/lib`.
"""
