"""A task's fault plan as data (the mock's :mod:`~wapii_core.mock.faults` applies it): the models
live here so that a dataset's loader can check a plan without importing the mock."""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel, ConfigDict, Field


class FaultRule(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: int = Field(ge=429, le=599)
    operation: Optional[str] = None
    after: int = Field(0, ge=0)
    times: int = Field(1, ge=1, le=10_000)
    retry_after: int = Field(1, ge=0, le=3600)


class FaultPlan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    faults: list[FaultRule] = []
