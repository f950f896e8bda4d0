"""Multi-step tasks (docs/workflows.md): a task's ``calls`` chained through the mock's answers
(the references between them: :mod:`wapii_core.base.references`).

- :mod:`.replay`: the expected run of a task (its ``setup`` and ``calls`` replayed on a fresh mock),
  and the mock a program of the task runs against;
- :mod:`.state`: the end state compared (objects by content, generated identifiers matched, changes
  the task did not ask for named as collateral damage);
- :mod:`.judge`: one program's requests aligned with the expected calls and judged, with the end
  state, into the sample's verdict.
"""
