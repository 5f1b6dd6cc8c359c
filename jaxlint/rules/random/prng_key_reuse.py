"""JAX301 prng-key-reuse: The same PRNG key is consumed twice (or once per loop iteration), giving identical random numbers."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model.walk import arg_at


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
    use_instead = (
        "```python\nkey = random.PRNGKey(0)\nkey, w_key, b_key = random.split(key, 3)\n"
        "W = random.normal(w_key, (5, 10))\nb = random.normal(b_key, (5,))\n```"
    )
    fix_safety = (
        "No automatic fix: inserting a `split` changes every random number drawn afterwards, "
        "and which key should be split is a modelling decision."
    )
    VALID = [
        Valid(
            """
            from jax import random
            key = random.key(0)
            key, subkey = random.split(key)
            x = random.normal(subkey, shape=(1,))
            key, subkey = random.split(key)
            y = random.normal(subkey, shape=(1,))
            """
        ),
        Valid(
            """
            from jax import random
            key = random.key(0)
            key, *subkeys = random.split(key, 4)
            for subkey in subkeys:
                print(random.normal(subkey, shape=(1,)))
            """
        ),
        Valid(
            """
            import jax

            def init(key, n):
                keys = jax.random.split(key, n)
                return [jax.random.normal(k, (3,)) for k in keys]
            """
        ),
        Valid(
            """
            import jax

            def noise(key, steps):
                out = []
                for i in range(steps):
                    k = jax.random.fold_in(key, i)
                    out.append(jax.random.normal(k))
                return out
            """
        ),
        Valid(
            """
            import jax

            def sample(key, use_normal):
                if use_normal:
                    return jax.random.normal(key)
                return jax.random.uniform(key)
            """
        ),
        Valid(
            """
            import jax

            def loop(key, n):
                for _ in range(n):
                    key, sub = jax.random.split(key)
                    x = jax.random.normal(sub)
                return key
            """
        ),
        Valid(
            """
            import jax

            def f(key, flag):
                if flag:
                    return jax.random.normal(key)
                x = jax.random.uniform(key)
                return x
            """
        ),
        Valid(
            """
            import jax
            k1, k2 = jax.random.split(jax.random.PRNGKey(0))
            a = jax.random.normal(k1)
            b = jax.random.normal(k2)
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def rollout(key, n):
                def step(carry, _):
                    x, k = carry
                    k, sub = jax.random.split(k)
                    return (x + jax.random.normal(sub, x.shape), k), x
                return jax.lax.scan(step, (jnp.zeros(2), key), None, length=n)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            from jax import random
            key = random.key(0)
            print(random.normal(key, shape=(1,)))
            print(random.normal(key, shape=(1,)))
            """,
            expected=[(4, 7)],
            messages=[
                "`key` was already consumed by `random.normal` on line 3: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
            ],
        ),
        Invalid(
            """
            import jax
            from jax import random
            key = random.PRNGKey(0)
            Wtrue = random.normal(key, (5, 10))
            btrue = random.normal(key, (5,))
            X = random.normal(key, (20, 10))
            """,
            expected=[(5, 9), (6, 5)],
            messages=[
                "`key` was already consumed by `random.normal` on line 4: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
                "`key` was already consumed by `random.normal` on line 4: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
            ],
        ),
        Invalid(
            """
            import jax

            def f(key):
                k1, k2 = jax.random.split(key)
                return jax.random.normal(key) + jax.random.normal(k1)
            """,
            expected=[(5, 12)],
            messages=[
                "`key` was already split on line 4; a split key must not be used again. Use the keys `split` returned (e.g. `key, sub = jax.random.split(key)` and pass `sub`)",
            ],
        ),
        Invalid(
            """
            import jax

            def noisy(x, key, steps):
                for _ in range(steps):
                    x = x + jax.random.normal(key, x.shape)
                return x
            """,
            expected=[(5, 17)],
            messages=[
                "`key` is consumed by `random.normal` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def rollout(key, n):
                def step(x, _):
                    return x + jax.random.normal(key, x.shape), x
                return jax.lax.scan(step, jnp.zeros(2), None, length=n)
            """,
            expected=[(6, 20)],
            messages=[
                "`key` comes from the enclosing scope and is consumed by `random.normal` inside a lax.scan body, which runs every iteration with the same key: every step draws the same random numbers. Carry the key through the loop and split it each step, or pass per-step keys as `xs` (`jax.random.split(key, n)`)",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(key):
                return [jax.random.uniform(key) for _ in range(3)]
            """,
            expected=[(5, 13)],
            messages=[
                "`key` is consumed by `random.uniform` inside a comprehension but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
            ],
        ),
        Invalid(
            """
            import jax

            class Agent:
                def act(self, obs):
                    a = jax.random.categorical(self.rng, obs)
                    noise = jax.random.normal(self.rng, obs.shape)
                    return a, noise
            """,
            expected=[(6, 17)],
            messages=[
                "`self.rng` was already consumed by `random.categorical` on line 5: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(self.rng)`, and give each call its own key",
            ],
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
