"""The agent being scored: an agent spec (:mod:`agents.specs`), or a Python class named on the
command line as ``module.path:ClassName``.

Importing a module runs its code, so a class is only ever imported because the user typed its
name on the command line; the suite files, run folders and results never name one. The class
must subclass :class:`agents.base.Agent`; it is built once per configuration with whichever of
``env_id``, ``env_options`` and ``seed`` its constructor accepts, and re-seeded before every
game by the arena (``reset(seed)``). To run in worker processes or on Ray the instance must
pickle (the module importable there); otherwise use ``--workers 1``.
"""

from __future__ import annotations

import importlib
import inspect
import re
from dataclasses import dataclass
from typing import Any

from agents.base import Agent
from agents.specs import KINDS, make, parse_spec

IMPORT_PATH = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Za-z_]\w*)$")


@dataclass(frozen=True)
class Candidate:
    text: str  # as recorded in results: the spec, or module:Class
    agent_class: type[Agent] | None = None  # set for module:Class

    def build(self, env_id: str, env_options: dict[str, Any]) -> str | Agent:
        """What the arena plays for this configuration: the spec string (checked by building it
        once now), or an instance of the class."""
        if self.agent_class is None:
            make(self.text, env_id, env_options)
            return self.text
        accepted = inspect.signature(self.agent_class).parameters
        offered: dict[str, Any] = {"env_id": env_id, "env_options": dict(env_options), "seed": None}
        return self.agent_class(**{key: value for key, value in offered.items() if key in accepted})


def resolve(text: str) -> Candidate:
    """The candidate named by ``text``; ValueError with one line saying what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("--agent needs a spec (e.g. heuristic, policy:PATH, pretrained) or module:Class")
    try:
        return Candidate(parse_spec(text).text)
    except ValueError as err:
        found = IMPORT_PATH.match(text.strip())
        if found is None or found.group(1).lower() in KINDS:
            raise
        spec_error = err
    module_name, class_name = found.groups()
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"agent {text!r}: not an agent spec ({spec_error}), nor an importable class "
                         f"(module {module_name!r}: {err})") from None
    agent_class = getattr(module, class_name, None)
    if not (inspect.isclass(agent_class) and issubclass(agent_class, Agent)):
        what = "not found" if agent_class is None else f"a {type(agent_class).__name__}, not a class"
        if inspect.isclass(agent_class):
            what = "not a subclass of agents.base.Agent"
        raise ValueError(f"agent {text!r}: {class_name} in module {module_name} is {what}")
    return Candidate(text.strip(), agent_class)
