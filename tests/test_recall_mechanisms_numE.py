"""Issue 22 (branch numE): a function of another module whose only uses there are
calls keeps the shapes and kinds those calls pass, also where that module names the
function in prose: a comment, or a string that is more than the name
(``print("loss equals row 3:", ...)``).  Before, any such mention counted as the
name escaping (passed as a value), so the function's parameters were unknown.  A
string that is exactly the name (``getattr(losses, "loss")``) still counts as a use.

Recall case 352 (bench/recall/cases/352-oob-row-loss-module-3493, from
https://github.com/jax-ml/jax/issues/3493) is the first INVALID tree's shape; the
second is the same mechanism written with a comment and a logging call in another
package layout.  Observed with JAX 0.10.2: index 20 (7) of the 4-row output returns
row 3, no IndexError.  The VALID twins index inside the rows and stay silent."""

from __future__ import annotations

from tests.project_files import lint_files

MSG = ("index {i} is out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read "
       "is clamped to the nearest valid index (silently the wrong element)")

LOSSES = """\
import jax
import jax.numpy as jnp


def loss(params, obs):
    network_output = params * obs  # shape [4, 10]
    network_output = network_output[{row}]
    loss = jnp.sum(jax.lax.stop_gradient(params[0]) * network_output)
    return loss
"""

TRAIN = """\
import jax
import jax.numpy as jnp

from losses import loss


@jax.jit
def update(params, obs):
    grad = jax.grad(loss)(params, obs)
    return params + grad


params = jnp.ones((10,))
obs = jnp.ones((4, 10))

if __name__ == "__main__":
    print(update(params, obs))
    print("loss equals row 3:", bool(loss(params, obs) == jnp.sum(params * obs[3])))
"""

HEADS = """\
import jax.numpy as jnp


def pick_row(table, weights):
    scores = table * weights
    return scores[{row}].sum()
"""

STEP = """\
import logging

import jax
import jax.numpy as jnp

from agent.heads import pick_row


@jax.jit
def step(table, weights):
    # pick_row reads one row of the scores
    return jax.value_and_grad(pick_row, argnums=1)(table, weights)


if __name__ == "__main__":
    table = jnp.ones((4, 6))
    weights = jnp.ones((6,))
    print(step(table, weights))
    print(pick_row(table, weights))
    logging.info("pick_row finished")
"""

def test_prose_string_keeps_the_call_shapes(tmp_path, monkeypatch):
    # recall case 352's tree (https://github.com/jax-ml/jax/issues/3493)
    found = lint_files(tmp_path, monkeypatch, {"losses.py": LOSSES.format(row=20), "train.py": TRAIN},
                       select="JAX121")
    assert found == [("JAX121", "losses.py", 7, 37, MSG.format(i=20))]


def test_prose_string_valid_twin(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"losses.py": LOSSES.format(row=3), "train.py": TRAIN},
                       select="JAX121")
    assert found == []


def test_comment_and_log_string_keep_the_call_shapes(tmp_path, monkeypatch):
    files = {"agent/__init__.py": "", "agent/heads.py": HEADS.format(row=7), "agent/step.py": STEP}
    found = lint_files(tmp_path, monkeypatch, files, select="JAX121")
    assert found == [("JAX121", "agent/heads.py", 6, 19, MSG.format(i=7))]


def test_comment_and_log_string_valid_twin(tmp_path, monkeypatch):
    files = {"agent/__init__.py": "", "agent/heads.py": HEADS.format(row=2), "agent/step.py": STEP}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX121") == []



def test_prose_mentions_counts_comments_and_prose_only():
    from jaxlint.model.kinds import prose_mentions

    text = (
        "from losses import loss\n"
        "# loss is differentiated below\n"
        "fn = getattr(losses, \"loss\")\n"
        "print(\"loss equals row 3:\", f\"{loss(x)}\", 'the loss', \"\"\"loss\"\"\")\n"
        "losses_total = loss(x)\n"
    )
    # the comment, "loss equals row 3:" and 'the loss'; not the exact strings, nor the f-string's code
    assert prose_mentions(text, "loss") == 3
    assert prose_mentions(text, "losses.loss") == 0
    assert prose_mentions('x = "#"; y = loss(x)  # loss\n', "loss") == 1  # the comment only
    assert prose_mentions("    don't call loss here\n", "loss") == 0  # a string not closed on the line
    assert prose_mentions("x = (\n", "loss") == 0


# JAX120 reports at the singular operation also when it sits on a later line of a `where`
# written over several lines (recall case 1114, https://github.com/GalSim-developers/JAX-GalSim/pull/194:
# the label is on `jnp.power(k, ...)`'s line): a `# noqa` goes on the reported line.
# Observed with JAX 0.10.2: the gradients at p = 0 are NaN; the double-where twin's is 0.
MULTILINE = """\
import jax
import jax.numpy as jnp
from jax import lax


def entropy_term(p):
    return jnp.where(
        p > 0,
        p * jnp.log(p),
        0.0,
    )


def log_ratio(x, y):
    return lax.select(
        x > 0,
        jnp.log(x) - jnp.log(y),
        jnp.zeros_like(x),
    )


def entropy_term_ok(p):
    safe = jnp.where(p > 0, p, 1.0)
    return jnp.where(
        p > 0,
        p * jnp.log(safe),
        0.0,
    )


if __name__ == "__main__":
    p = jnp.array([0.0, 0.5])
    print(jax.grad(lambda q: entropy_term(q).sum())(p))
    print(jax.grad(lambda q: log_ratio(q, jnp.ones(2)).sum())(p))
    print(jax.grad(lambda q: entropy_term_ok(q).sum())(p))
"""


def test_multiline_where_reports_at_the_operation(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"ops.py": MULTILINE}, select="JAX120")
    assert found == [
        ("JAX120", "ops.py", 9, 13,
         "`jnp.log(p)` is computed for every element, also where `p > 0` is false and masks it out; its "
         "derivative is infinite/NaN where `p` is 0, so the gradient of this `where` is NaN (0 * inf). Guard "
         "`p` with the same condition too (double where: `jnp.where(cond, p, 1.0)` inside)"),
        ("JAX120", "ops.py", 17, 9,
         "`jnp.log(x)` is computed for every element, also where `x > 0` is false and masks it out; its "
         "derivative is infinite/NaN where `x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard "
         "`x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)"),
    ]


def test_multiline_where_noqa_on_the_operation_line(tmp_path, monkeypatch):
    text = MULTILINE.replace("        p * jnp.log(p),\n", "        p * jnp.log(p),  # noqa: JAX120\n")
    found = lint_files(tmp_path, monkeypatch, {"ops.py": text}, select="JAX120")
    assert [f[2] for f in found] == [17]
