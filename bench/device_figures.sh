#!/bin/bash
# The runtime companion's figures on an accelerator, in one short script (docs/runtime.md,
# "Measured on GPU"): environment, `jaxlint bench` on the perf fixture, observe's overhead,
# then confirm and observe scored on the recall set and the runtime programs, side by side.
#
#   bash bench/device_figures.sh OUTDIR [STEP ...]     STEP: env bench overhead scores labels
#
# Uses `python3` (or $PY) with JAX installed for the accelerator.  When `jaxlint` is not
# importable there, the wheels in .whl/ (libcst, ...) go to a temporary folder, which
# and this checkout are put on PYTHONPATH; without a `jaxlint` script beside that Python,
# one is written to a temporary folder first on PATH.
# Each step has its own time limit and writes as it goes, so a step cut short still leaves
# what it printed.  Environment: REPEAT (observe_overhead rounds, default 2), JOBS (scores,
# default 12), CASES (recall cases to score, default all), STEP_TIMEOUT (seconds per step, default 150).
set -u
OUTDIR=${1:?usage: device_figures.sh OUTDIR [STEP ...]}
shift
STEPS=${*:-env bench overhead scores}
mkdir -p "$OUTDIR"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
PY=${PY:-python3}
REPEAT=${REPEAT:-2}
JOBS=${JOBS:-12}
T=${STEP_TIMEOUT:-150}

JLV=$(mktemp -d "${TMPDIR:-/tmp}/jaxlint-device.XXXXXX")
mkdir -p "$JLV/bin" "$JLV/site"
if ! "$PY" -c "import jaxlint.cli, libcst" 2>/dev/null; then
  # this Python's own packages (JAX for the accelerator) stay first-class: the wheels go to
  # a folder on PYTHONPATH, with this checkout
  if ls .whl/*.whl >/dev/null 2>&1; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --upgrade --target "$JLV/site" .whl/*.whl || exit 1
  fi
  export PYTHONPATH="$ROOT:$JLV/site${PYTHONPATH:+:$PYTHONPATH}"
fi
PY=$(command -v "$PY")
PY=$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY")
JAXLINT=$(dirname "$PY")/jaxlint
if [ ! -x "$JAXLINT" ]; then
  # no `jaxlint` script beside this Python: one that runs it
  JAXLINT="$JLV/bin/jaxlint"
  printf '#!%s\nimport sys\nfrom jaxlint.cli import main\nsys.exit(main())\n' "$PY" > "$JAXLINT"
  chmod +x "$JAXLINT"
  export PATH="$JLV/bin:$PATH"
fi

for step in $STEPS; do
  start=$(date +%s)
  case $step in
    env)
      { "$PY" -c "import sys, jax, jaxlib, numpy; print(sys.version.split()[0], 'jax', jax.__version__, 'jaxlib', jaxlib.__version__, 'numpy', numpy.__version__); print(jax.devices())"
        nvidia-smi -L 2>/dev/null; nproc; "$PY" -m pip list 2>/dev/null | grep -i -E '^(flax|optax|equinox|dm-haiku|libcst) '
      } > "$OUTDIR/env.txt" 2>&1 ;;
    bench)
      d=$(mktemp -d)
      sed -e 's/N_STEPS = 300/N_STEPS = 1000/' -e 's/"static:300"/"static:1000"/' tests/fixtures/runtime/perf.py > "$d/perf.py"
      (cd "$d" && COLUMNS=240 timeout -k 5 "$T" "$JAXLINT" bench --no-cache --runs 20 -j 1 perf.py) > "$OUTDIR/bench.txt" 2>&1 ;;
    overhead)
      timeout -k 5 "$T" "$PY" bench/observe_overhead.py --repeat "$REPEAT" --facts > "$OUTDIR/overhead.txt" 2>&1 ;;
    scores)
      # the three share the machine: their wall times are not timings, only their verdicts
      timeout -k 5 "$T" "$PY" bench/recall/confirm_score.py --jaxlint "$JAXLINT" -j "$JOBS" -v --json "$OUTDIR/confirm.json" ${CASES:-} > "$OUTDIR/confirm.txt" 2>&1 &
      timeout -k 5 "$T" "$PY" bench/observe_score.py --jaxlint "$JAXLINT" -j "$JOBS" -v --json "$OUTDIR/observe.json" ${CASES:-} > "$OUTDIR/observe.txt" 2>&1 &
      timeout -k 5 "$T" "$PY" bench/runtime_programs.py --mode one -j 4 > "$OUTDIR/programs.txt" 2>&1 &
      wait ;;
    labels)
      # every label of the recall set re-checked with this machine's JAX (check.py runs each
      # case on the CPU unless JAX_PLATFORMS is set): does the set still hold on newer JAX?
      timeout -k 5 "$T" "$PY" bench/recall/check.py -j "$JOBS" --timeout 60 ${CASES:-} > "$OUTDIR/labels.txt" 2>&1 ;;
    *) echo "unknown step: $step" >&2 ;;
  esac
  echo "$step: $(( $(date +%s) - start )) s" | tee -a "$OUTDIR/steps.txt"
done
