"""Configuration: find, read and validate ``[tool.jaxlint]`` / ``jaxlint.toml``.

The configuration for a file is the nearest one found walking up from the
file's directory: a ``jaxlint.toml`` / ``.jaxlint.toml`` (keys at top level) or
a ``pyproject.toml`` with a ``[tool.jaxlint]`` table.  When none is found the
configuration found from the current directory applies (or the defaults).
``--config PATH`` replaces the search with one file for every path.

Command-line options are layered on top of every configuration, as Ruff does:
``--select`` replaces the selection, ``--extend-select`` adds to it,
``--ignore`` removes from it.

Every problem raises :class:`ConfigError` with one line naming the file and
the offending key or code.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

import pathspec

from jaxlint.paths import resolved
from jaxlint.cache import DEFAULT_CACHE_DIR_NAME
from jaxlint.workspace.bazel import runs_with_x64
from jaxlint.workspace.ruleinfo import RuleInfo, UnknownSelector, selection
from jaxlint.settings import LintSettings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG_FILENAMES = (".jaxlint.toml", "jaxlint.toml", "pyproject.toml")


class ConfigError(Exception):
    """A configuration problem, described in one line (several problems of one
    file: one line each, joined by newlines)."""


# key -> (expected type description, validator)
def _is_str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_per_file(v: Any) -> bool:
    return isinstance(v, dict) and all(_is_str_list(x) for x in v.values())


# the files a folder walk lints unless `include` says otherwise (Ruff's default, less pyproject.toml)
DEFAULT_INCLUDE = ("*.py", "*.pyi", "*.ipynb")

_KEYS: dict[str, tuple[str, Any]] = {
    "select": ("a list of rule codes", _is_str_list),
    "ignore": ("a list of rule codes", _is_str_list),
    "extend-select": ("a list of rule codes", _is_str_list),
    "per-file-ignores": ("a table of glob = [rule codes]", _is_per_file),
    "exclude": ("a list of glob patterns", _is_str_list),
    "extend-exclude": ("a list of glob patterns", _is_str_list),
    "include": ("a list of glob patterns", _is_str_list),
    "extend-include": ("a list of glob patterns", _is_str_list),
    "x64": ("a boolean", lambda v: isinstance(v, bool)),
    "respect-gitignore": ("a boolean", lambda v: isinstance(v, bool)),
    "max-unrolled-loop": (
        "a positive integer",
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0,
    ),
    "cache-dir": ("a string", lambda v: isinstance(v, str) and v != ""),
    # source roots for module names across the project (jaxlint/project/roots.py)
    "src": ("a list of paths", _is_str_list),
    # a baseline file (jaxlint/output/baseline.py), relative to this configuration file
    "baseline": ("a file name (string)", lambda v: isinstance(v, str) and v.strip() != ""),
    # `check` uses the facts `jaxlint observe` recorded (jaxlint/workspace/observed.py):
    # true for the default file (in the cache directory), or a file relative to this one
    "observed": ("true, false or a file name (string)",
                 lambda v: isinstance(v, bool) or (isinstance(v, str) and v.strip() != "")),
    # where the project publishes the rule pages, e.g. "https://example.org/rules/{code}.html"
    "docs-url": ("an http(s) URL containing {code}",
                 lambda v: isinstance(v, str) and v.startswith(("http://", "https://"))
                 and "{code}" in v),
    # [tool.jaxlint.runtime]: read by `jaxlint confirm`/`bench` (jaxlint/runtime/specs.py)
    "runtime": ("a table", lambda v: isinstance(v, dict)),
}

# keys of [tool.jaxlint.runtime] (their values are checked by jaxlint/runtime/specs.py)
RUNTIME_KEYS = ("inputs", "default-dim", "timeout", "runs", "run", "run-timeout", "memory-limit")

# keys passed through to the rules as LintSettings.options
_OPTION_KEYS = ("max-unrolled-loop",)


def _type_name(v: Any) -> str:
    return {bool: "boolean", int: "integer", float: "float", str: "string", list: "array",
            dict: "table"}.get(type(v), type(v).__name__)


@dataclass
class Config:
    """One configuration file's contents (validated), or the defaults."""

    root: Path  # the directory globs are relative to
    path: Optional[Path] = None  # None for the built-in defaults
    select: Optional[list[str]] = None
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=list)
    extend_exclude: list[str] = field(default_factory=list)
    include: Optional[list[str]] = None  # None: DEFAULT_INCLUDE
    extend_include: list[str] = field(default_factory=list)
    x64: bool = False
    respect_gitignore: bool = True
    options: dict[str, object] = field(default_factory=dict)
    cache_dir: Optional[str] = None
    src: Optional[list[str]] = None  # None: the project root and its src/ (as Ruff)
    baseline: Optional[str] = None
    docs_url: Optional[str] = None
    observed: Union[bool, str] = False  # `check --observed` by default (a facts file, or True)
    runtime: dict[str, Any] = field(default_factory=dict)  # validated by jaxlint.runtime

    @property
    def label(self) -> str:
        return str(self.path) if self.path is not None else "<defaults>"

    @property
    def baseline_path(self) -> Optional[Path]:
        """The configured baseline file (relative to this file's directory)."""
        return self.root / self.baseline if self.baseline else None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: invalid TOML: not valid UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc).splitlines()[0] if str(exc) else "syntax error"
        raise ConfigError(f"{path}: invalid TOML: {msg}") from None


def _table_of(path: Path, data: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The jaxlint table of a parsed file, or None when it has none (pyproject)."""
    if path.name == "pyproject.toml":
        tool = data.get("tool")
        if not isinstance(tool, dict) or "jaxlint" not in tool:
            return None
        table = tool["jaxlint"]
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [tool.jaxlint] must be a table")
        return table
    return data


def has_jaxlint_table(path: Path) -> bool:
    return _table_of(path, _read_toml(path)) is not None


def load_config(path: Path) -> Config:
    """Read and validate one configuration file."""
    path = Path(path).resolve()
    table = _table_of(path, _read_toml(path))
    where = "[tool.jaxlint]" if path.name == "pyproject.toml" else ""
    prefix = f"{path}: {where + ' ' if where else ''}"
    if table is None:
        raise ConfigError(f"{prefix}has no [tool.jaxlint] table")
    cfg = Config(root=path.parent, path=path)
    problems: list[str] = []  # every one is reported, in one run
    for key, value in table.items():
        if key not in _KEYS:
            hint = ""
            if key.replace("_", "-") in _KEYS:
                hint = f" (did you mean '{key.replace('_', '-')}'?)"
            elif key in ("tool", "jaxlint") and path.name != "pyproject.toml":
                hint = f" ({path.name} takes its keys at the top level, without a table)"
            else:
                import difflib

                close = difflib.get_close_matches(key, list(_KEYS), n=1, cutoff=0.75)
                if close:
                    hint = f" (did you mean '{close[0]}'?)"
            problems.append(f"{prefix}unknown key '{key}'{hint}; expected one of: {', '.join(_KEYS)}")
            continue
        expected, check = _KEYS[key]
        if not check(value):
            problems.append(f"{prefix}key '{key}' must be {expected}, got {_type_name(value)} {value!r}")
            continue
        if key == "runtime":
            unknown = sorted(set(value) - set(RUNTIME_KEYS))
            if unknown:
                problems.append(
                    f"{prefix}unknown key 'runtime.{unknown[0]}'; expected one of: "
                    + ", ".join(RUNTIME_KEYS)
                )
                continue
        attr = key.replace("-", "_")
        if key in _OPTION_KEYS:
            cfg.options[key] = value
        elif key == "per-file-ignores":
            cfg.per_file_ignores = {k: list(v) for k, v in value.items()}
        else:
            setattr(cfg, attr, list(value) if isinstance(value, list) else value)
    if problems:
        # the rule selectors of the keys that were read are checked now too, so that
        # one run names every problem of the file
        from jaxlint.workspace.ruleinfo import load_rule_infos

        problems += selector_problems(cfg, load_rule_infos())
        raise ConfigError("\n".join(problems))
    return cfg


def _selector_steps(cfg: "Config") -> list:
    steps: list = []
    if cfg.select is not None:
        steps.append(("=", cfg.select, "select", None))
    steps += [("+", cfg.extend_select, "extend-select", None), ("-", cfg.ignore, "ignore", None)]
    for glob, codes in cfg.per_file_ignores.items():
        steps.append(("=", codes, f"per-file-ignores.\"{glob}\"", None))
    return steps


def selector_problems(cfg: "Config", infos: Sequence[RuleInfo], steps: Optional[list] = None) -> list[str]:
    """One line per selector of ``cfg`` (or of ``steps``) that matches no rule."""
    out: list[str] = []
    for op, selectors, key, source in (_selector_steps(cfg) if steps is None else steps):
        for sel in selectors:
            try:
                selection(infos, [(op, [sel], key, source)])
            except UnknownSelector as exc:
                out.append(f"{exc.source or cfg.label}: unknown rule selector '{exc.selector}' in '{exc.key}'{exc.hint}")
    return out


def find_config_file(start: Path) -> Optional[Path]:
    """The nearest configuration file at or above ``start`` (a file or directory)."""
    start = Path(start).resolve()
    directory = start if start.is_dir() else start.parent
    for d in (directory, *directory.parents):
        found = config_file_in(d)
        if found is not None:
            return found
    return None


def config_file_in(directory: Path) -> Optional[Path]:
    for name in CONFIG_FILENAMES:
        candidate = directory / name
        if candidate.is_file():
            if name == "pyproject.toml" and not has_jaxlint_table(candidate):
                continue
            return candidate
    return None


@dataclass(frozen=True)
class Overrides:
    """Settings given on the command line, applied over every configuration."""

    select: Optional[tuple[str, ...]] = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    x64: Optional[bool] = None


def split_codes(values: Iterable[str]) -> tuple[str, ...]:
    """Flatten repeated comma-separated option values into selectors."""
    out: list[str] = []
    for value in values:
        out.extend(s.strip() for s in value.split(",") if s.strip())
    return tuple(out)


class ResolvedConfig:
    """A configuration bound to the rule set and the command-line overrides."""

    def __init__(self, cfg: Config, infos: Sequence[RuleInfo], overrides: Overrides) -> None:
        self.cfg = cfg
        self.root = cfg.root
        self._infos = tuple(infos)
        self._overrides = overrides
        self.select = self._base_selection()
        self.x64 = cfg.x64 if overrides.x64 is None else overrides.x64
        self.options = tuple(sorted(cfg.options.items()))
        self._per_file: list[tuple[pathspec.GitIgnoreSpec, frozenset[str]]] = []
        for glob, codes in cfg.per_file_ignores.items():
            ignored = self._select([("=", codes, f"per-file-ignores.\"{glob}\"", None)])
            self._per_file.append((_spec([glob]), ignored))
        self.exclude = _spec([*cfg.exclude, *cfg.extend_exclude])
        self.include = _spec([*(DEFAULT_INCLUDE if cfg.include is None else cfg.include), *cfg.extend_include])
        self.respect_gitignore = cfg.respect_gitignore
        self._settings: dict[tuple[frozenset[str], bool], LintSettings] = {}

    def _select(self, steps: list, start: Optional[frozenset[str]] = None) -> frozenset[str]:
        """``ruleinfo.selection`` of ``steps`` (from the default rules unless
        ``start`` is given); an unknown selector is a ConfigError."""
        try:
            return selection(self._infos, steps, start=start)
        except UnknownSelector as exc:
            # every unknown selector, not only the first
            lines = selector_problems(self.cfg, self._infos, steps) or [
                f"{exc.source or self.cfg.label}: unknown rule selector '{exc.selector}' in '{exc.key}'{exc.hint}"]
            raise ConfigError("\n".join(lines)) from None

    def _base_selection(self) -> frozenset[str]:
        """The default rules, then the configuration's select / extend-select /
        ignore, then the command line's, resolved in one pass over the rules."""
        cfg, ov = self.cfg, self._overrides
        steps: list = []
        if cfg.select is not None:
            steps.append(("=", cfg.select, "select", None))
        steps += [("+", cfg.extend_select, "extend-select", None), ("-", cfg.ignore, "ignore", None)]
        cli = "command line"
        if ov.select is not None:
            steps.append(("=", ov.select, "--select", cli))
        steps += [("+", ov.extend_select, "--extend-select", cli), ("-", ov.ignore, "--ignore", cli)]
        return self._select(steps)

    def relative(self, path: Path) -> Optional[str]:
        """``path`` relative to the config's directory (posix), or None if outside it."""
        try:
            return Path(path).resolve().relative_to(self.root).as_posix()
        except (ValueError, OSError):  # OSError: a link replaced while it is resolved
            return None

    def settings_for(self, path: Path) -> LintSettings:
        rel = self.relative(path) or Path(path).name
        ignored: set[str] = set()
        for spec, codes in self._per_file:
            if spec.match_file(rel):
                ignored |= codes
        select = self.select - ignored
        # a test that the project's Bazel target runs with `JAX_ENABLE_X64=1` (workspace/bazel.py)
        x64 = self.x64 or (self._overrides.x64 is None and runs_with_x64(str(path)))
        cached = self._settings.get((select, x64))
        if cached is None:
            cached = LintSettings(select=select, x64=x64, options=self.options)
            self._settings[(select, x64)] = cached
        return cached

    def is_included(self, path: Path) -> bool:
        """A file a folder walk lints (``include`` / ``extend-include``, as Ruff's).
        The file itself is not resolved: it may be a link that leads nowhere."""
        parent = self.relative(Path(path).parent)
        name = Path(path).name
        rel = name if parent in (None, ".") else f"{parent}/{name}"
        return self.include.match_file(rel)

    def is_excluded(self, path: Path, is_dir: bool) -> bool:
        rel = self.relative(path)
        if rel is None or rel == ".":
            rel = Path(path).name
        return self.exclude.match_file(rel + "/" if is_dir else rel)


def _spec(patterns: Sequence[str]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


class ConfigStore:
    """Finds and memoises the configuration that applies to each directory."""

    def __init__(
        self,
        infos: Sequence[RuleInfo],
        overrides: Overrides,
        cwd: Optional[Path] = None,
        config_path: Optional[Path] = None,
        observed: Optional[Any] = None,
    ) -> None:
        """``observed``: a ``workspace.observed.ConfiguredFacts`` when the facts that
        ``observed`` in the configuration names are to be given to every file's
        settings (the language server, the MCP server; the CLI decides with its options)."""
        self.observed = observed
        self.cwd = Path(cwd or os.getcwd()).resolve()
        self._infos = tuple(infos)
        self._overrides = overrides
        self._by_file: dict[Optional[Path], ResolvedConfig] = {}
        self._by_dir: dict[Path, ResolvedConfig] = {}
        self._by_path: dict[str, LintSettings] = {}
        self.fixed = config_path is not None
        if config_path is not None:
            self.root_config = self._resolve(Path(config_path).resolve())
        else:
            self.root_config = self._resolve(find_config_file(self.cwd))

    def _resolve(self, path: Optional[Path]) -> ResolvedConfig:
        if path not in self._by_file:
            cfg = load_config(path) if path is not None else Config(root=self.cwd)
            self._by_file[path] = ResolvedConfig(cfg, self._infos, self._overrides)
        return self._by_file[path]

    def for_dir(self, directory: Path) -> ResolvedConfig:
        """The configuration for files in ``directory`` (an absolute path)."""
        if self.fixed:
            return self.root_config
        found = self._by_dir.get(directory)
        if found is not None:
            return found
        chain: list[Path] = []
        d = directory
        result: Optional[ResolvedConfig] = None
        while True:
            if d in self._by_dir:
                result = self._by_dir[d]
                break
            chain.append(d)
            cfg_file = config_file_in(d)
            if cfg_file is not None:
                result = self._resolve(cfg_file)
                break
            if d.parent == d:
                result = self.root_config
                break
            d = d.parent
        for c in chain:
            self._by_dir[c] = result
        return result

    def for_path(self, path: Path) -> ResolvedConfig:
        return self.for_dir(resolved(path).parent)

    def settings_for(self, path: Path) -> LintSettings:
        # memoised: a project run asks several times per file, and each answer
        # resolves the path (system calls) and matches the per-file patterns
        key = str(path)
        settings = self._by_path.get(key)
        if settings is None:
            settings = self._by_path[key] = self.for_path(path).settings_for(path)
        if self.observed is not None:  # the facts file may have changed: asked each time
            facts = self.observed.facts(self.root_config.cfg)
            if facts is not None:
                settings = replace(settings, observed=facts.for_file(Path(os.path.abspath(path))))
        return settings


def cache_dir_for(cwd: Path, cli_value: Optional[str], config_path: Optional[Path]) -> Path:
    """The cache directory, resolved before the rules are known (for the rule
    snapshot and ``jaxlint clean``): reads only the root configuration file."""
    if cli_value:
        return Path(cli_value).resolve()
    env = os.environ.get("JAXLINT_CACHE_DIR")
    if env:
        return Path(env).resolve()
    path = Path(config_path).resolve() if config_path else find_config_file(cwd)
    if path is None:
        return Path(cwd).resolve() / DEFAULT_CACHE_DIR_NAME
    return configured_cache_dir(load_config(path))


def configured_cache_dir(cfg: Any) -> Path:
    """The cache directory a loaded configuration sets (``JAXLINT_CACHE_DIR`` first):
    ``cache-dir`` relative to its directory, else the default name there."""
    env = os.environ.get("JAXLINT_CACHE_DIR")
    if env:
        return Path(env).resolve()
    if cfg.cache_dir:
        return (Path(cfg.root) / cfg.cache_dir).resolve()
    return Path(cfg.root) / DEFAULT_CACHE_DIR_NAME
