"""The project-wide model: module names, per-file summaries, cross-module
import resolution and callers.  Imports nothing from the engine (jaxlint.model,
jaxlint.rules); see docs/project-model.md."""

from jaxlint.project.index import CallSite, ProjectIndex, Target
from jaxlint.project.roots import ModuleName, SourceRoots, find_project_root
from jaxlint.project.summary import SUMMARY_VERSION, absolute_module, extract_summary

__all__ = [
    "CallSite",
    "ModuleName",
    "ProjectIndex",
    "SUMMARY_VERSION",
    "SourceRoots",
    "Target",
    "absolute_module",
    "extract_summary",
    "find_project_root",
]
