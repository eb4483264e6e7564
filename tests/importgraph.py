"""Which companion module imports which, read from the source's syntax trees (nothing is
imported to find out). Every import counts, at the top of a module or inside a function, so
a cycle or a layer crossed by a late import is found too; imports only for the type checker
(under `if TYPE_CHECKING:`) are left out, as they never run."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
TOP = "companion.__init__"  # the package's own module (its version), named apart from it


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts == ("companion", "__init__"):
        return TOP
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of companion/, by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(tree: ast.AST) -> list[tuple[str, list[str], int]]:
    """(module, names taken from it, line) for every import that runs."""
    out: list[tuple[str, list[str], int]] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.module, [a.name for a in node.names], node.lineno))
        todo.extend(ast.iter_child_nodes(node))
    return out


def _target(name: str, known: dict[str, Path]) -> str | None:
    """The companion module an imported name resolves to (its nearest known parent)."""
    if name == "companion":
        return TOP
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


@functools.cache
def imports() -> dict[str, dict[str, int]]:
    """{module: {companion module it imports: line}}; `from package import module` counts
    as importing that module. Read once per test run (do not change what it returns)."""
    known = modules()
    known_names = set(known) | {"companion.web"}  # web/, installed as the package's pages
    graph: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        edges: dict[str, int] = {}
        for module, taken, line in _imported(ast.parse(path.read_text(), str(path))):
            if module != "companion" and not module.startswith("companion."):
                continue
            targets = [f"{module}.{t}" for t in taken if f"{module}.{t}" in known_names] \
                or [module]
            for t in targets:
                target = t if t in known_names else _target(t, known)
                if target is not None and target != name:
                    edges.setdefault(target, line)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found
