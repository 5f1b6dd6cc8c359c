#!/usr/bin/env python3
"""Latency of ``jaxlint server`` as an editor sees it.

    python bench/lsp_latency.py [--corpus DIR] [--edits N] [--rounds R]

The files are real JAX code from the pinned benchmark corpus
(``bench/make_corpus.py``, built when missing): numpyro 0.22.0's
``numpyro/distributions/continuous.py``, cut at the top-level statement
nearest to 1,000 and to 5,000 lines.

``--with-findings`` appends a function with three findings to each file, so
that the positions pass (run only for files with findings) is measured too.

Measured over stdio with pygls's client, the server a separate process:

* start to first diagnostics: from launching ``python -m jaxlint server`` to the
  ``publishDiagnostics`` of the 1,000-line file opened right after
  ``initialize`` (what a user waits for when opening a file in a new editor);
* diagnostics after an edit: an edit (a comment line inserted mid-file, then
  removed, alternately; sent as incremental ``didChange``) until the
  ``publishDiagnostics`` of that version arrives; median of N edits per file;
* a helper module updated after an edit of its caller (the project-wide model):
  in a two-module project whose helper is the 1,000-line file plus a function with
  ``if x > 0``, the caller's buffer (unsaved) gains or loses ``@jax.jit`` (its
  function renamed each time, so the helper's facts are new each time), until the
  helper's diagnostics are published again; median of N/2 edits.

The edit latency is also given as a ratio to a full ``lint_source`` of the same
text in this process, measured next to each session, because machines here are
noisy (the load average is printed too), and with the CPU time the server
process used (from /proc), which waiting for a busy core does not inflate.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from jaxlint.server.server import REFRESH_DEBOUNCE_S

HERE = Path(__file__).resolve().parent
SOURCE_FILE = "numpyro-0.22.0/numpyro/distributions/continuous.py"
SERVER = [sys.executable, "-m", "jaxlint", "server"]

# appended with --with-findings: three sharp bits (JAX101, JAX301, JAX901), so that the
# positions pass and the diagnostics are part of what each edit costs
SHARP_BITS = """

def _sharp_bits(key):
    x = jnp.zeros((3, 3))
    x[1, :] = 1.0
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    return jax.tree_map(lambda v: v, (x, a, b))
"""


def cut(text: str, target: int) -> str:
    """The text up to the top-level statement boundary nearest to ``target`` lines."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines)
              if line[:1] not in ("", " ", "\t", "\n", "#", ")", "]", "}")
              and (i == 0 or not lines[i - 1].rstrip().endswith((",", "(", "\\")))
              and line.startswith(("def ", "class ", "@"))]
    best = min(starts, key=lambda i: abs(i - target)) if starts else len(lines)
    # keep the decorators with their function
    while best > 0 and lines[best - 1].startswith("@"):
        best -= 1
    return "".join(lines[:best])


def in_process_ms(text: str, path: str, rounds: int) -> float:
    from jaxlint.workspace.config import ConfigStore, Overrides
    from jaxlint.lint.linter import lint_source
    from jaxlint.workspace.ruleinfo import load_rule_infos

    settings = ConfigStore(load_rule_infos(), Overrides(), Path(path).parent).settings_for(Path(path))
    lint_source(text, path, settings)  # warm the imports
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        lint_source(text, path, settings)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def cpu_ms(pid: int) -> float:
    """CPU time (user + system) a process has used, from /proc (0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


class Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("jaxlint-bench", "1")
        self.published: dict[str, list[tuple[float, types.PublishDiagnosticsParams]]] = {}
        self.event = asyncio.Event()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: types.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append((time.perf_counter(), params))
            self.event.set()

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def _log(params: types.LogMessageParams) -> None:
            pass

    async def wait_version(self, uri: str, version: int, timeout: float = 120) -> float:
        deadline = time.perf_counter() + timeout
        while True:
            for t, p in self.published.get(uri, []):
                if p.version == version:
                    return t
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no diagnostics for {uri} v{version}")
            self.event.clear()
            try:
                await asyncio.wait_for(self.event.wait(), timeout=max(deadline - time.perf_counter(), 0.01))
            except asyncio.TimeoutError:
                pass


async def measure(files: dict[str, Path], edits: int) -> dict:
    client = Client()
    t_start = time.perf_counter()
    await client.start_io(*SERVER)
    root = next(iter(files.values())).parent
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="bench")]))
    client.initialized(types.InitializedParams())
    out: dict = {}
    first = True
    for label, path in files.items():
        uri = path.as_uri()
        text = path.read_text()
        t_open = time.perf_counter()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        t = await client.wait_version(uri, 1)
        (_, params), = [x for x in client.published[uri] if x[1].version == 1]
        out[label] = {"findings": len(params.diagnostics), "open_ms": (t - t_open) * 1000}
        if first:
            out["start_to_first_ms"] = (t - t_start) * 1000
            out["start_cpu_ms"] = cpu_ms(client._server.pid)
            first = False
        mid = len(text.splitlines()) // 2
        latencies = []
        cpu_before = cpu_ms(client._server.pid)
        version = 1
        for i in range(edits):
            version += 1
            if i % 2 == 0:
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(mid, 0), types.Position(mid, 0)),
                    text=f"# edit {i}\n")
            else:
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(mid, 0), types.Position(mid + 1, 0)), text="")
            t0 = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[change]))
            t1 = await client.wait_version(uri, version)
            latencies.append((t1 - t0) * 1000)
        out[label]["edit_ms"] = latencies
        out[label]["edit_cpu_ms"] = (cpu_ms(client._server.pid) - cpu_before) / edits
    out["project_ms"] = await measure_project(client, next(iter(files.values())), max(edits // 2, 2))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return out


HELPER_TAIL = """

def clip(x):
    if x > 0:
        return x
    return -x
"""


def caller(i: int) -> str:
    jit = "@jax.jit\n" if i % 2 == 0 else ""
    return f"import jax\n\nfrom app.helper import clip\n\n\n{jit}def step{i}(x):\n    return clip(x) * 2\n"


async def measure_project(client: Client, big: Path, edits: int) -> list[float]:
    """Caller edited (unsaved) -> the helper's diagnostics published again (its JAX201
    there or gone), in ms."""
    root = Path(tempfile.mkdtemp(dir=big.parent, prefix="proj"))
    (root / "app").mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0.1"\n')
    (root / "app" / "__init__.py").write_text("")
    helper, main = root / "app" / "helper.py", root / "app" / "main.py"
    helper.write_text(big.read_text() + HELPER_TAIL)
    main.write_text(caller(0))
    for path in (helper, main):
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=path.as_uri(), language_id="python", version=1, text=path.read_text())))

    def helper_findings() -> int:
        got = client.published.get(helper.as_uri(), [])
        return sum(d.code == "JAX201" for d in got[-1][1].diagnostics) if got else -1

    async def until(count: int, seen: int) -> float:
        deadline = time.perf_counter() + 120
        while True:
            got = client.published.get(helper.as_uri(), [])
            if len(got) > seen and helper_findings() == count:
                return got[-1][0]
            if time.perf_counter() > deadline:
                raise TimeoutError("the helper was not published again")
            client.event.clear()
            try:
                await asyncio.wait_for(client.event.wait(), timeout=1)
            except asyncio.TimeoutError:
                pass

    await until(1, 0)  # the caller's facts reached the helper
    times = []
    for i in range(1, edits + 1):
        seen = len(client.published.get(helper.as_uri(), []))
        t0 = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=main.as_uri(), version=i + 1),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=caller(i))]))
        times.append((await until(1 if i % 2 == 0 else 0, seen) - t0) * 1000)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path("/tmp/jaxlint-corpus"))
    ap.add_argument("--edits", type=int, default=40, help="edits per file per round")
    ap.add_argument("--rounds", type=int, default=3, help="server sessions")
    ap.add_argument("--with-findings", action="store_true",
                    help="append a function with three findings to each file")
    args = ap.parse_args()
    src = args.corpus / SOURCE_FILE
    if not src.is_file():
        subprocess.run([sys.executable, str(HERE / "make_corpus.py"), str(args.corpus)], check=True)
    full = src.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for target in (1000, 5000):
            text = cut(full, target)
            if args.with_findings:  # the file imports jax and jax.numpy as jnp
                text += SHARP_BITS
            path = Path(tmp) / f"continuous_{target}.py"
            path.write_text(text)
            files[f"{len(text.splitlines())} lines"] = path
        floors: list[dict] = []
        rounds: list[dict] = []
        load = [os.getloadavg()[0]]
        for _ in range(args.rounds):  # the floor is measured next to each session
            floors.append({label: in_process_ms(p.read_text(), str(p), 3) for label, p in files.items()})
            rounds.append(asyncio.run(measure(files, args.edits)))
        load.append(os.getloadavg()[0])
    import platform

    from importlib.metadata import version

    import jaxlint

    print(f"jaxlint {jaxlint.__version__}, CPython {platform.python_version()}, "
          f"libcst {version('libcst')}, pygls {version('pygls')}, {os.cpu_count()} CPUs, "
          f"load average {load[0]:.1f} before / {load[1]:.1f} after; "
          f"{args.rounds} server sessions x {args.edits} edits per file")
    starts = [r["start_to_first_ms"] for r in rounds]
    first_label = next(iter(files))
    print(f"start to first diagnostics ({first_label}): median {statistics.median(starts):.0f} ms "
          f"(min {min(starts):.0f}, max {max(starts):.0f}); server CPU time until then: median "
          f"{statistics.median(r['start_cpu_ms'] for r in rounds):.0f} ms")
    print("| file | findings | full lint in-process, ms | diagnostics after an edit: "
          "median ms (p10-p90) | x full lint | server CPU per edit, ms | open to diagnostics, ms |")
    print("|---|---|---|---|---|---|---|")
    for label in files:
        lat = sorted(x for r in rounds for x in r[label]["edit_ms"])
        med = statistics.median(lat)
        p10, p90 = lat[len(lat) // 10], lat[(len(lat) * 9) // 10]
        floor = statistics.median(f[label] for f in floors)
        ratio = statistics.median(statistics.median(r[label]["edit_ms"]) / f[label]
                                  for r, f in zip(rounds, floors))
        opens = statistics.median(r[label]["open_ms"] for r in rounds)
        cpu = statistics.median(r[label]["edit_cpu_ms"] for r in rounds)
        print(f"| {label} | {rounds[0][label]['findings']} | {floor:.0f} | "
              f"{med:.0f} ({p10:.0f}-{p90:.0f}) | {ratio:.2f} | {cpu:.0f} | {opens:.0f} |")
    lat = sorted(x for r in rounds for x in r["project_ms"])
    print(f"helper published again after an edit of its caller: median {statistics.median(lat):.0f} ms "
          f"(p10 {lat[len(lat) // 10]:.0f}, p90 {lat[(len(lat) * 9) // 10]:.0f}; "
          f"{len(lat)} edits; the server waits {REFRESH_DEBOUNCE_S * 1000:.0f} ms after an edit "
          "before the project run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
