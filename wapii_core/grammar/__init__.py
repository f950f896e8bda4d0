"""Constrained decoding: OpenAPI spec → grammar of legal calls, and the engine that enforces it.

- :mod:`.types` reduces JSON schemas to value types; :mod:`.endpoints` lists an API's endpoints
  with typed arguments (from the judge's spec index, so only legal arguments are offered);
- :mod:`.lark` and :mod:`.values` write llguidance Lark grammars (keys in any order, each at most
  once, required ones present; typed values in a language's literal syntax);
- adapters build the call syntax on top (``wapii_axios_js.grammar``) and return a
  :class:`Constraint` from ``adapter.constraint(spec, setup)``, cached per spec and adapter;
- :mod:`.run_constraints` gives a constraining backend the constraint of each request of a run;
- :mod:`.engine` is the engine interface a backend uses (:func:`get_engine`: llguidance).
"""

from wapii_core.grammar.constraint import Constraint, adapter_constraint, cached
from wapii_core.grammar.engine import CompiledGrammar, Engine, Matcher, accepts, allowed_prefix, get_engine

__all__ = ["CompiledGrammar", "Constraint", "adapter_constraint", "Engine", "Matcher", "accepts", "allowed_prefix", "cached", "get_engine"]
