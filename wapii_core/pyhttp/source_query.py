"""What the code *wrote* for a request's query: the typed values of a literal ``params=`` and the literal
URL, read from the extracted call's source in wapii's own process.

Reference mode judges query values as the code wrote them (``limit=50`` is the number 50, as the
reference's axios config kept it), which the bytes on the wire cannot tell (``50`` and ``"50"`` are
both sent as ``limit=50``). Anything recorded while the program runs could be rewritten by the
program, so the types come from its source instead: the first request call's ``params=`` when it is
a literal (a dict, or a list of pairs), or a name bound to a literal by a top-level assignment of the
extracted code before the call, and no other request call of the code is given another query (the
source cannot tell which call ran), and that call surely runs when the code runs to its end (not under
a condition, a loop or a ``try``, not in a function never called: :func:`_reached`); its URL when that
is a string literal. A value computed at run time
gives no type: the query value then counts as the string that was sent. The normalisation still
keeps a typed value only where the library writes it as exactly what was sent
(:meth:`wapii_core.pyhttp.library.PythonLibrary.sends_as`).
"""

from __future__ import annotations

import ast
from typing import Any

from wapii_core.pyhttp.recording import typed_params

from wapii_core.pyhttp.library import PYTHON_REQUEST_METHODS
URL_SECOND = ("request", "stream")
"""Calls whose URL is the second positional argument (after the method)."""


def _literal(node: ast.AST | None, names: dict[str, Any]) -> tuple[bool, Any]:
    if node is None:
        return False, None
    if isinstance(node, ast.Name):
        return (node.id in names), names.get(node.id)
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _request_call(tree: ast.AST) -> ast.Call | None:
    """The request call, in source order: the first request method given ``params=``, else the first
    given a URL literal (``://``), else the first given a computed URL (so that
    ``os.environ.get("X")`` is passed over)."""
    calls = sorted((node for node in ast.walk(tree) if isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in (*PYTHON_REQUEST_METHODS, *URL_SECOND)),
                   key=lambda node: (node.lineno, node.col_offset))

    def url_of(node: ast.Call) -> ast.AST | None:
        position = 1 if node.func.attr in URL_SECOND else 0  # type: ignore[union-attr]
        keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
        return keywords.get("url") or (node.args[position] if len(node.args) > position else None)

    def literal_url(node: ast.Call) -> bool:
        url = url_of(node)
        return isinstance(url, ast.Constant) and isinstance(url.value, str) and "://" in url.value

    def computed_url(node: ast.Call) -> bool:
        url = url_of(node)
        return url is not None and not isinstance(url, ast.Constant)

    for wanted in (lambda node: any(k.arg == "params" for k in node.keywords), literal_url, computed_url):
        found = next((node for node in calls if wanted(node)), None)
        if found is not None:
            return found
    return None


def _the_only_query(tree: ast.AST, found: ast.Call, params: Any, names: dict[str, Any]) -> bool:
    """Whether ``found``'s ``params=`` is the only query the code can send: every other request call
    given ``params=`` gives the same literal. A call the program never makes (``if False:
    requests.get(url, params={"limit": 50})`` before the one it makes with ``"50"``) must not type
    the values another call sent."""
    for node in ast.walk(tree):
        if node is found or not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                                 and node.func.attr in (*PYTHON_REQUEST_METHODS, *URL_SECOND)):
            continue
        other = next((keyword.value for keyword in node.keywords if keyword.arg == "params"), None)
        if other is None:
            continue
        known, value = _literal(other, names)
        if not known or value != params or typed_params(value) != typed_params(params):
            return False
    return True


_SKIPPING = (ast.Return, ast.Break, ast.Continue, ast.Raise, ast.Yield, ast.YieldFrom)
"""Statements and expressions after which the rest of a block may not run (a ``raise`` that a ``with``
swallows, a ``return`` of the function, a generator's pause)."""
_PARTIAL = (ast.IfExp, ast.BoolOp, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
"""Expressions whose parts may not all be evaluated."""


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _own_nodes(statement: ast.AST) -> list[ast.AST]:
    """The nodes of ``statement`` outside the functions and lambdas it defines."""
    out, pending = [], [statement]
    while pending:
        node = pending.pop()
        out.append(node)
        pending += [child for child in ast.iter_child_nodes(node)
                    if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))]
    return out


def _cannot_fail(statement: ast.stmt) -> bool:
    """A statement that neither raises nor leaves its block: ``pass``, a constant, a literal assigned to a name."""
    if isinstance(statement, ast.Pass) or (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
        return True
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return all(isinstance(t, ast.Name) for t in targets) and _literal(statement.value, {})[0]
    return False


def _main_guard(tree: ast.Module, node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` is a module-level ``if __name__ == "__main__":`` (the harness runs the code as
    ``__main__``) in a module that never rebinds ``__name__``."""
    if not (isinstance(node, ast.If) and parents.get(node) is tree and isinstance(node.test, ast.Compare)):
        return False
    test = node.test
    sides = [test.left, *test.comparators]
    if not (len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides)
            and any(isinstance(s, ast.Constant) and s.value == "__main__" for s in sides)):
        return False
    return not any((isinstance(n, ast.Name) and n.id == "__name__" and not isinstance(n.ctx, ast.Load))
                   or (isinstance(n, ast.alias) and (n.asname or n.name) == "__name__")
                   or (isinstance(n, ast.Global) and "__name__" in n.names) for n in ast.walk(tree))


_CONTEXTS = ("ClientSession", "Client", "AsyncClient", "Session", *PYTHON_REQUEST_METHODS, *URL_SECOND)
"""What a ``with`` on the way to the call may open: a library's session or client, or a request (none of
them swallows an exception)."""
_LOG_LEVELS = ("debug", "info", "warning", "error", "exception", "critical")


def _bound(tree: ast.Module, name: str, imports: bool = True) -> bool:
    """Whether the code binds ``name`` itself (a ``def``, a ``class``, an assignment, a ``global``; with
    ``imports``, an import too)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return True
        if imports and isinstance(node, ast.alias) and (node.asname or node.name).split(".")[0] == name:
            return True
    return False


def _replaced_attribute(tree: ast.Module, attribute: str) -> bool:
    """Whether the code may replace a module's or an object's ``attribute`` (``httpx.Client = ...``)."""
    return any((isinstance(node, ast.Attribute) and node.attr == attribute and not isinstance(node.ctx, ast.Load))
               or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr")
               for node in ast.walk(tree))


def _plain_contexts(tree: ast.Module, node: ast.With | ast.AsyncWith) -> bool:
    """Whether every context of ``node`` is a library's session, client or request (:data:`_CONTEXTS`),
    which lets an exception through: a ``contextlib.suppress`` or a context of the code's own could
    swallow the exception that skips the call."""
    for item in node.items:
        call = item.context_expr
        if not isinstance(call, ast.Call):
            return False
        func = call.func
        if isinstance(func, ast.Name) and func.id in _CONTEXTS and not _bound(tree, func.id, imports=False):
            continue
        if isinstance(func, ast.Attribute) and func.attr in _CONTEXTS and not _replaced_attribute(tree, func.attr):
            continue
        return False
    return True


def _quiet_handlers(tree: ast.Module, node: ast.Try) -> bool:
    """Whether the handlers, ``else`` and ``finally`` of ``node`` send nothing: they call nothing but
    ``print`` and ``logging``'s level functions (so that a call that raises before sending, caught, is not
    followed by another that sends what the first one's literal would type)."""
    for part in (*node.handlers, *node.orelse, *node.finalbody):
        for inner in _own_nodes(part):
            if not isinstance(inner, ast.Call):
                continue
            func = inner.func
            if isinstance(func, ast.Name) and func.id == "print" and not _bound(tree, "print"):
                continue
            if (isinstance(func, ast.Attribute) and func.attr in _LOG_LEVELS and isinstance(func.value, ast.Name)
                    and func.value.id == "logging" and not _replaced_attribute(tree, func.attr)):
                continue
            return False
    return True


def _reached(tree: ast.Module, node: ast.AST, parents: dict[ast.AST, ast.AST], seen: frozenset = frozenset()) -> bool:
    """Whether the code surely evaluates ``node`` when it runs to its end: it is not under a condition
    (but ``if __name__ == "__main__":``), a loop, a lambda or a comprehension; no statement before it in
    its blocks can leave them (a ``return``), and in a ``try`` body or a ``with`` body only statements
    that cannot fail precede it (an exception there would skip it and the code would go on); a ``try``
    on the way handles errors with nothing but ``print`` and ``logging`` (:func:`_quiet_handlers`), a
    ``with`` opens nothing but a library's session, client or request (:func:`_plain_contexts`); a
    function it is in is a module-level one, defined once, undecorated, called (awaited or run, when it
    is ``async``) from a place that is itself reached.

    Reference mode's typed query values come only from a call that ran: the literal of a call under
    ``if False:`` (or in a function never called) must not type what another call sent.
    """
    child = node
    while child is not tree:
        parent = parents.get(child)
        if parent is None or isinstance(parent, _PARTIAL) and not (isinstance(parent, ast.BoolOp)
                                                                    and child is parent.values[0]):
            return False
        in_body = isinstance(child, ast.stmt) and child in getattr(parent, "body", ())
        if isinstance(parent, ast.Try) and not (in_body and _quiet_handlers(tree, parent)):
            return False
        if isinstance(parent, (ast.If, ast.While, ast.For, ast.AsyncFor, ast.ClassDef, ast.Match)
                      ) or type(parent).__name__ == "TryStar":
            if not (_main_guard(tree, parent, parents) and in_body):
                return False
        if isinstance(parent, (ast.With, ast.AsyncWith)) and (not _plain_contexts(tree, parent) or (
                isinstance(child, ast.withitem) and child is not parent.items[0])):
            return False
        if in_body:
            before = parent.body[:parent.body.index(child)]
            if any(isinstance(n, _SKIPPING) for statement in before for n in _own_nodes(statement)):
                return False
            if isinstance(parent, (ast.With, ast.AsyncWith, ast.Try)) and not all(map(_cannot_fail, before)):
                return False  # an exception there would skip the call and the code would go on
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if isinstance(child, ast.stmt) and child in parent.body:
                return _called(tree, parent, parents, seen)
            return False  # a default value or an annotation
        child = parent
    return True


def _called(tree: ast.Module, function: ast.FunctionDef | ast.AsyncFunctionDef, parents: dict[ast.AST, ast.AST],
            seen: frozenset) -> bool:
    """Whether the module-level ``function`` surely runs: defined once and never rebound, undecorated, no
    generator, and called from a reached place outside itself (an ``async`` one awaited or run by
    ``asyncio.run``)."""
    name = function.name
    if function in seen or parents.get(function) is not tree or function.decorator_list:
        return False
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(function)):
        return False
    bindings = [n for n in ast.walk(tree) if (isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                                               and n.name == name)
                or (isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load))
                or (isinstance(n, ast.alias) and (n.asname or n.name) == name)
                or (isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names)]
    if bindings != [function]:
        return False
    inside = set(ast.walk(function))
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == name) \
                or call in inside:
            continue
        site: ast.AST = call
        if isinstance(function, ast.AsyncFunctionDef):
            outer = parents.get(call)
            runs = (isinstance(outer, ast.Call) and call in outer.args and isinstance(outer.func, ast.Attribute)
                    and outer.func.attr == "run" and isinstance(outer.func.value, ast.Name)
                    and outer.func.value.id == "asyncio")
            if not (isinstance(outer, ast.Await) or runs):
                continue
            site = outer
        if _reached(tree, site, parents, seen | {function}):
            return True
    return False


def written_query(call: str) -> dict[str, Any]:
    """``{"url": str | None, "params": {name: typed value} | None}`` of the first request call in
    ``call`` (the adapter's extraction); ``{}`` when the source does not parse."""
    try:
        tree = ast.parse(call)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return {}
    names: dict[str, Any] = {}
    found = _request_call(tree)
    if found is None:
        return {}
    for statement in getattr(tree, "body", []):
        if statement.lineno >= found.lineno:
            break
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            known, value = _literal(statement.value, names)
            if known:
                names[statement.targets[0].id] = value
            else:
                names.pop(statement.targets[0].id, None)
    keywords = {keyword.arg: keyword.value for keyword in found.keywords if keyword.arg}
    position = 1 if found.func.attr in URL_SECOND else 0  # type: ignore[union-attr]
    url_node = keywords.get("url") or (found.args[position] if len(found.args) > position else None)
    has_url, url = _literal(url_node, names)
    has_params, params = _literal(keywords.get("params"), names)
    if has_params and not (_the_only_query(tree, found, params, names) and _reached(tree, found, _parents(tree))):
        has_params = False  # a call that may not have run types nothing
    return {"url": url if has_url and isinstance(url, str) else None,
            "params": typed_params(params) if has_params else None}
