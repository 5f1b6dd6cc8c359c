"""JAX301: a PRNG key consumed more than once."""

from __future__ import annotations

import libcst as cst

from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model.walk import arg_at
from jaxlint.engine.rule import Invalid, Rule, Valid


class PrngKeyReuse(Rule):
    code = "JAX301"
    name = "prng-key-reuse"
    summary = "The same PRNG key is consumed twice (or once per loop iteration), giving identical random numbers"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Random Numbers (seed 000); tutorial § random keys (seed 002); study notes § PRNG (seed 003)"
    what_it_does = (
        "Tracks PRNG keys through each function (legacy `random.PRNGKey` and typed "
        "`random.key` alike) and flags:\n\n"
        "* a key passed to a second `jax.random` sampler (`normal`, `uniform`, `split`, "
        "`bernoulli`, `categorical`, `permutation`...) with no split or rebinding in between;\n"
        "* a key used after `jax.random.split(key)` has consumed it;\n"
        "* a key defined outside a loop (or comprehension) and consumed inside it without a new "
        "key per iteration.\n\n"
        "`key, sub = split(key)`, `keys = split(key, n)` with each key used once, `for k in "
        "keys`, and `fold_in(key, i)` (which derives a new key without consuming) stay silent. "
        "Uses on different branches of an `if` are not a reuse."
    )
    why_bad = (
        "JAX's random functions are pure: the same key gives the same numbers. Reusing a key "
        "makes supposedly independent samples identical or correlated, with no error and no "
        "warning (JAX's `jax_debug_key_reuse` checker is off by default and does not see legacy "
        "`PRNGKey` keys at all). Models initialise with tied weights, noise repeats every step, "
        "dropout masks repeat."
    )
    example = (
        "```python\nkey = random.PRNGKey(0)\nW = random.normal(key, (5, 10))\nb = random.normal(key, (5,))\n```"
    )
    use_instead = (
        "```python\nkey = random.PRNGKey(0)\nkey, w_key, b_key = random.split(key, 3)\n"
        "W = random.normal(w_key, (5, 10))\nb = random.normal(b_key, (5,))\n```"
    )
    fix_safety = (
        "No automatic fix: inserting a `split` changes every random number drawn afterwards, "
        "and which key should be split is a modelling decision."
    )
    VALID = [
        Valid("from jax import random\nkey = random.key(0)\nkey, subkey = random.split(key)\nx = random.normal(subkey, shape=(1,))\nkey, subkey = random.split(key)\ny = random.normal(subkey, shape=(1,))\n"),
        Valid("from jax import random\nkey = random.key(0)\nkey, *subkeys = random.split(key, 4)\nfor subkey in subkeys:\n    print(random.normal(subkey, shape=(1,)))\n"),
        Valid("import jax\n\ndef init(key, n):\n    keys = jax.random.split(key, n)\n    return [jax.random.normal(k, (3,)) for k in keys]\n"),
        Valid("import jax\n\ndef noise(key, steps):\n    out = []\n    for i in range(steps):\n        k = jax.random.fold_in(key, i)\n        out.append(jax.random.normal(k))\n    return out\n"),
        Valid("import jax\n\ndef sample(key, use_normal):\n    if use_normal:\n        return jax.random.normal(key)\n    return jax.random.uniform(key)\n"),
        Valid("import jax\n\ndef loop(key, n):\n    for _ in range(n):\n        key, sub = jax.random.split(key)\n        x = jax.random.normal(sub)\n    return key\n"),
        Valid("import jax\n\ndef f(key, flag):\n    if flag:\n        return jax.random.normal(key)\n    x = jax.random.uniform(key)\n    return x\n"),
        Valid("import jax\nk1, k2 = jax.random.split(jax.random.PRNGKey(0))\na = jax.random.normal(k1)\nb = jax.random.normal(k2)\n"),
        Valid("import jax\nimport jax.numpy as jnp\n\ndef rollout(key, n):\n    def step(carry, _):\n        x, k = carry\n        k, sub = jax.random.split(k)\n        return (x + jax.random.normal(sub, x.shape), k), x\n    return jax.lax.scan(step, (jnp.zeros(2), key), None, length=n)\n"),
    ]
    INVALID = [
        Invalid(
            "from jax import random\nkey = random.key(0)\nprint(random.normal(key, shape=(1,)))\nprint(random.normal(key, shape=(1,)))\n",
            expected=[(4, 7)],
            message_contains="line 3",
        ),
        Invalid(
            "import jax\nfrom jax import random\nkey = random.PRNGKey(0)\nWtrue = random.normal(key, (5, 10))\nbtrue = random.normal(key, (5,))\nX = random.normal(key, (20, 10))\n",
            expected=[(5, 9), (6, 5)],
        ),
        Invalid(
            "import jax\n\ndef f(key):\n    k1, k2 = jax.random.split(key)\n    return jax.random.normal(key) + jax.random.normal(k1)\n",
            expected=[(5, 12)],
            message_contains="split",
        ),
        Invalid(
            "import jax\n\ndef noisy(x, key, steps):\n    for _ in range(steps):\n        x = x + jax.random.normal(key, x.shape)\n    return x\n",
            expected=[(5, 17)],
            message_contains="loop",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\ndef rollout(key, n):\n    def step(x, _):\n        return x + jax.random.normal(key, x.shape), x\n    return jax.lax.scan(step, jnp.zeros(2), None, length=n)\n",
            expected=[(6, 20)],
            message_contains="lax.scan body",
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef f(key):\n    return [jax.random.uniform(key) for _ in range(3)]\n",
            expected=[(5, 13)],
        ),
        Invalid(
            "import jax\n\nclass Agent:\n    def act(self, obs):\n        a = jax.random.categorical(self.rng, obs)\n        noise = jax.random.normal(self.rng, obs.shape)\n        return a, noise\n",
            expected=[(6, 17)],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        q = ctx.qualname(node.func)
        if q is None or not q.startswith("jax.random."):
            return
        short = q.rsplit(".", 1)[1]
        if short not in apis.RANDOM_CONSUMERS:
            return
        key_expr = arg_at(node, 0, "key")
        if key_expr is None:
            return
        token = ctx.key_token(key_expr)
        if token is None:
            return
        if self._closure_key_in_loop_body(key_expr, node, short):
            return
        prev = ctx.consume_key(token, node, short)
        if prev is None:
            return
        prev_node, prev_how = prev
        name = ctx.code(key_expr).strip()
        if prev_how == "split":
            msg = (
                f"`{name}` was already split on line {{related_line}}; a split key must not be "
                f"used again. Use the keys `split` returned (e.g. `{name}, sub = jax.random.split({name})` "
                f"and pass `sub`)"
            )
        else:
            msg = (
                f"`{name}` was already consumed by `random.{prev_how}` on line {{related_line}}: "
                f"both calls get the same random bits. Split it first, e.g. "
                f"`k1, k2 = jax.random.split({name})`, and give each call its own key"
            )
        self.report(node, msg, related=prev_node)

    _LOOP_BODIES = ("lax.scan", "lax.fori_loop", "lax.while_loop", "lax.map", "lax.associative_scan")

    def _closure_key_in_loop_body(self, key_expr, node: cst.Call, how: str) -> bool:
        """A key from the enclosing scope consumed in a scan/fori_loop/while_loop
        body: the body is traced once and runs every iteration with that key."""
        ctx = self.ctx
        if not isinstance(key_expr, cst.Name) or ctx.local(key_expr.value) is not None:
            return False
        loop = next(
            (r for r in ctx.unit.reasons if r.startswith("a body passed to") and r.endswith(self._LOOP_BODIES)),
            None,
        )
        if loop is None:
            return False
        prim = loop.rsplit(" ", 1)[1]
        self.report(
            node,
            f"`{key_expr.value}` comes from the enclosing scope and is consumed by `random.{how}` "
            f"inside a {prim} body, which runs every iteration with the same key: every step "
            f"draws the same random numbers. Carry the key through the loop and split it each "
            f"step, or pass per-step keys as `xs` (`jax.random.split({key_expr.value}, n)`)",
        )
        return True

    def _leave_loop(self, node: cst.CSTNode) -> None:
        ctx = self.ctx
        if not ctx.loop_stack:
            return
        frame = ctx.loop_stack[-1]
        kind = "comprehension" if not isinstance(node, (cst.For, cst.While)) else "loop"
        for token, (site, how) in list(ctx.consumed_keys()):
            if token in frame.entry_consumed or token.loop_depth >= frame.depth:
                continue
            holders = [n for n, v in frame.entry_env.items() if v.key is token]
            still = [n for n in holders if getattr(ctx.local(n), "key", None) is token]
            attr_still = ctx.attr_key(token.label) is token
            if still or attr_still or (
                not holders and token.loop_depth < frame.depth and token.label not in frame.rebound
            ):
                name = still[0] if still else token.label
                self.report(
                    site,
                    f"`{name}` is consumed by `random.{how}` inside a {kind} but never replaced, "
                    f"so every iteration draws the same random numbers. Split a new key each "
                    f"iteration (`{name}, sub = jax.random.split({name})`) or use "
                    f"`jax.random.fold_in({name}, i)`",
                )
                # report once per site
                frame.entry_consumed[token] = (site, how)

    leave_For = _leave_loop
    leave_While = _leave_loop
    leave_ListComp = _leave_loop
    leave_SetComp = _leave_loop
    leave_GeneratorExp = _leave_loop
    leave_DictComp = _leave_loop
