"""False findings the reviewers found on fresh set 14, by mechanism, each written at least
two ways (VALID: silent), with twins that must still be reported (INVALID).

* K. JAX120 on the outputs of a Pallas kernel with no derivative rule (maxdiffusion
  ring_attention_kernel.py: `o, m, l = custom_splash._splash_attention_forward_ring(...)`,
  a bare `pl.pallas_call`, then `jnp.where(l == 0.0, 0.0, 1.0 / l)`): `jax.grad` raises at
  the kernel before the `where`'s gradient exists.  Written as another module's function
  (attribute and from-import, through a loop's accumulator and a `lax.scan`), and as a
  `pallas_call` applied in the same function.  Still reported: the kernel wrapped in a
  `custom_vjp` (differentiable), and a `where` on a parameter in the same function.
* C. JAX120 on values built from a parameter a Python test compares with a number
  (maxdiffusion vocoder_ltx2.py `kaiser_sinc_filter1d`: `if cutoff == 0.0:` ... `time = 2 *
  cutoff * time` ... `jnp.where(time == 0, 1, sin(pi * time) / pi / time)`): under
  `jax.grad` the parameter is a tracer and the test raises, so no derivative reaches it.
  Still reported: no such test, or a test that does not need a concrete value (`is None`).
* S. JAX501 on a jit whose shardings come from the loop's item (maxdiffusion
  wan_pipeline.py: `jax.jit(lambda xs: xs, out_shardings=[specs[i] for i in chunk])`):
  each iteration needs its own compilation.  Still reported: the same sharding each time.
* T. JAX301 in a timed repetition (maxdiffusion generate_flux_multi_res.py: `for _ in
  range(2):` a compile pass then a timed pass of the same seeded generation): the same
  numbers are the point.  Still reported: a loop that carries state (a training loop that
  times its steps), or one that reads no clock.
"""

from __future__ import annotations

from project_files import lint_files


def _lint(tmp_path, monkeypatch, files, select=""):
    tmp_path.mkdir(parents=True, exist_ok=True)
    return lint_files(tmp_path, monkeypatch, files, select=select, dedent=True)


_KERNELS = '''
    import functools

    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def _body(q_ref, k_ref, o_ref, l_ref):
        o_ref[...] = q_ref[...] * k_ref[...]
        l_ref[...] = jnp.sum(q_ref[...], axis=-1)


    def forward(q, k):
        o, l = pl.pallas_call(
            _body,
            out_shape=(jax.ShapeDtypeStruct(q.shape, q.dtype), jax.ShapeDtypeStruct(q.shape[:-1], q.dtype)),
        )(q, k)
        return o, l


    @jax.custom_vjp
    def forward_vjp(q, k):
        return forward(q, k)


    def _fwd(q, k):
        return forward(q, k), (q, k)


    def _bwd(res, g):
        q, k = res
        return g[0] * k, g[0] * q


    forward_vjp.defvjp(_fwd, _bwd)
'''


# -- K. JAX120 on the outputs of a Pallas kernel with no derivative rule ------------------
def test_k_kernel_outputs_are_not_differentiated(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "attn/__init__.py": "",
        "attn/kernels.py": _KERNELS,
        # another module's kernel function, reached as an attribute, summed over a loop
        "attn/ring.py": '''
            import jax
            import jax.numpy as jnp
            from jax import lax

            from . import kernels as K


            def ring_forward(q, k, hops: int):
                o_sum = jnp.zeros_like(q)
                l_sum = jnp.zeros(q.shape[:-1], jnp.float32)
                for _ in range(hops):
                    o, l = K.forward(q, k)
                    o_sum = o_sum + o
                    l_sum = l_sum + l.astype(jnp.float32)
                    k = lax.ppermute(k, "ring", [(0, 1), (1, 0)])
                l_inv = jnp.where(l_sum == 0.0, 0.0, 1.0 / l_sum)
                return o_sum * l_inv[..., None]


            def scan_forward(q, ks):
                def step(carry, k):
                    o, l = K.forward(q, k)
                    return (carry[0] + o, carry[1] + l), None

                init = (jnp.zeros_like(q), jnp.zeros(q.shape[:-1]))
                (o_final, l_final), _ = lax.scan(step, init, ks)
                return o_final * jnp.where(l_final == 0.0, 0.0, 1.0 / l_final)[..., None]
        ''',
        # ... imported by name, and a `pallas_call` applied in the function itself
        "attn/flash.py": '''
            import jax
            import jax.numpy as jnp
            from jax.experimental import pallas as pl

            from .kernels import _body, forward


            def merged(q, k):
                o, l = forward(q, k)
                return o / jnp.where(l == 0.0, 1.0, l)[..., None] + jnp.where(l == 0.0, 0.0, 1.0 / l)[..., None]


            def local(q, k):
                call = pl.pallas_call(
                    _body,
                    out_shape=(jax.ShapeDtypeStruct(q.shape, q.dtype), jax.ShapeDtypeStruct(q.shape[:-1], q.dtype)),
                )
                o, l = call(q, k)
                return o * jnp.where(l == 0.0, 0.0, 1.0 / l)[..., None]
        ''',
    }, select="JAX120") == []


def test_k_differentiable_kernel_and_other_values_still_reported(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "attn/__init__.py": "",
        "attn/kernels.py": _KERNELS,
        # the kernel wrapped in a custom_vjp: differentiable, its users may take `grad`
        "attn/train.py": '''
            import jax.numpy as jnp

            from . import kernels as K
            from .kernels import forward


            def attention(q, k):
                o, l = K.forward_vjp(q, k)
                return o * jnp.where(l == 0.0, 0.0, 1.0 / l)[..., None]


            def scaled(q, k, scale):
                o, _ = forward(q, k)
                return o * jnp.where(scale == 0.0, 0.0, 1.0 / scale)
        ''',
    }, select="JAX120") == [
        ("JAX120", "attn/train.py", 10, 41,
         "`1.0 / l` is computed for every element, also where `l == 0.0` is true and masks it out; its "
         "derivative is infinite/NaN where `l` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `l` "
         "with the same condition too (double where: `jnp.where(cond, l, 1.0)` inside)"),
        ("JAX120", "attn/train.py", 15, 45,
         "`1.0 / scale` is computed for every element, also where `scale == 0.0` is true and masks it out; "
         "its derivative is infinite/NaN where `scale` is 0, so the gradient of this `where` is NaN (0 * inf). Guard "
         "`scale` with the same condition too (double where: `jnp.where(cond, scale, 1.0)` inside)"),
    ]


# -- C. JAX120 on a parameter a Python test compares with a number ------------------------
def test_c_parameter_tested_in_python_is_concrete(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "audio/__init__.py": "",
        # the test around the `where`; the value rebound from itself
        "audio/filters.py": '''
            import math

            import jax.numpy as jnp


            def sinc_filter(cutoff: float, kernel_size: int):
                half_size = kernel_size // 2
                time = jnp.arange(kernel_size) - half_size
                if cutoff == 0.0:
                    return jnp.zeros_like(time)
                else:
                    time = 2 * cutoff * time
                    sinc = jnp.where(time == 0, jnp.ones_like(time), jnp.sin(math.pi * time) / math.pi / time)
                return sinc / sinc.sum()
        ''',
        # a method whose test runs at its top level before the `where` (a range check)
        "audio/windows.py": '''
            import jax.numpy as jnp


            class Window:
                def taper(self, n: int, beta):
                    if not 0.0 < beta <= 100.0:
                        raise ValueError("beta out of range")
                    t = jnp.linspace(-1.0, 1.0, n) * beta
                    return jnp.where(t == 0, 1.0, jnp.sin(t) / t)
        ''',
    }, select="JAX120") == []


def test_c_untested_or_none_tested_parameter_still_reported(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "audio/__init__.py": "",
        "audio/filters.py": '''
            import math

            import jax.numpy as jnp


            def sinc_filter(cutoff: float, kernel_size: int):
                time = 2 * cutoff * (jnp.arange(kernel_size) - kernel_size // 2)
                return jnp.where(time == 0, 1.0, jnp.sin(math.pi * time) / math.pi / time)


            def taper(n: int, beta=None):
                if beta is None:
                    beta = 1.0
                t = jnp.linspace(-1.0, 1.0, n) * beta
                return jnp.where(t == 0, 1.0, jnp.sin(t) / t)
        ''',
    }, select="JAX120") == [
        ("JAX120", "audio/filters.py", 9, 38,
         "`jnp.sin(math.pi * time) / math.pi / time` is computed for every element, also where `time == 0` "
         "is true and masks it out; its derivative is infinite/NaN where `time` is 0, so the gradient of this `where` is "
         "NaN (0 * inf). Guard `time` with the same condition too (double where: `jnp.where(cond, time, 1.0)` inside)"),
        ("JAX120", "audio/filters.py", 16, 35,
         "`jnp.sin(t) / t` is computed for every element, also where `t == 0` is true and masks it out; its "
         "derivative is infinite/NaN where `t` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `t` with "
         "the same condition too (double where: `jnp.where(cond, t, 1.0)` inside)"),
    ]


# -- S. JAX501 on a jit whose shardings come from the loop's item -------------------------
def test_s_shardings_from_the_loop_item(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "load.py": '''
            import jax


            def place(arrays, specs, chunks):
                out = {}
                for chunk in chunks:
                    replicate = jax.jit(lambda xs: xs, out_shardings=[specs[i] for i in chunk])
                    for i, a in zip(chunk, replicate([arrays[i] for i in chunk])):
                        out[i] = a
                return out


            def regroup(groups, shardings, x):
                for group in groups:
                    target = shardings[group]
                    x = jax.jit(lambda v: v * 2, in_shardings=target, out_shardings=target)(x)
                return x
        ''',
    }, select="JAX501") == []


def test_s_same_sharding_every_iteration_still_reported(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "load.py": '''
            import jax


            def place(arrays, replicated, chunks):
                out = []
                for chunk in chunks:
                    replicate = jax.jit(lambda xs: xs, out_shardings=replicated)
                    out.append(replicate([arrays[i] for i in chunk]))
                return out
        ''',
    }, select="JAX501") == [
        ("JAX501", "load.py", 8, 21,
         "`jit` of a `lambda` compiles again on every iteration of the loop: jit caches per function object "
         "and this one is new each time. Create the jitted function once (outside the loop or at module level) "
         "and pass the varying values as arguments"),
    ]


# -- T. JAX301 in a timed repetition of one run ------------------------------------------
def test_t_timed_repetition_draws_the_same_on_purpose(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "bench/__init__.py": "",
        "bench/sample.py": '''
            import jax


            def prepare_latents(rng, shape):
                return jax.random.normal(rng, shape)
        ''',
        # a helper of another module draws; a compile pass, then the timed pass
        "bench/run.py": '''
            import time

            import jax

            from .sample import prepare_latents


            def benchmark(generate, sizes, seed=0):
                rng = jax.random.key(seed)
                times = {}
                for size in sizes:
                    for _ in range(2):
                        t0 = time.perf_counter()
                        latents = prepare_latents(rng, (1, size, size, 4))
                        latents = jax.device_put(latents)
                        image = generate(latents)
                        jax.block_until_ready(image)
                        times[size] = time.perf_counter() - t0
                return times
        ''',
        # a direct draw under `timeit.default_timer`
        "bench/noise.py": '''
            import timeit

            import jax


            def time_noise(key, n):
                for _ in range(3):
                    start = timeit.default_timer()
                    x = jax.random.normal(key, (n,))
                    x.block_until_ready()
                    print(timeit.default_timer() - start)
        ''',
    }, select="JAX301") == []


def test_t_carried_state_or_no_clock_still_reported(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "train.py": '''
            import time

            import jax


            def train(params, update, key, steps):
                for _ in range(steps):
                    t0 = time.perf_counter()
                    noise = jax.random.normal(key, (4,))
                    params = update(params, noise)
                    print(time.perf_counter() - t0)
                return params


            def sample(key, n):
                out = []
                for _ in range(3):
                    out.append(jax.random.normal(key, (n,)))
                return out
        ''',
    }, select="JAX301") == [
        ("JAX301", "train.py", 10, 17,
         "`key` is consumed by `random.normal` inside a loop but never replaced, so every iteration draws the "
         "same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use "
         "`jax.random.fold_in(key, i)`"),
        ("JAX301", "train.py", 19, 20,
         "`key` is consumed by `random.normal` inside a loop but never replaced, so every iteration draws the "
         "same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use "
         "`jax.random.fold_in(key, i)`"),
    ]


# a loop that times each of many draws, or of a caller's count, is sampling, not a rerun
# (diff review): 100 identical samples, an environment stepped with the same noise
def test_t_timed_loops_of_many_draws_are_still_key_reuse(tmp_path, monkeypatch):
    msg = ("`key` is consumed by `random.{f}` inside a loop but never replaced, so every iteration "
           "draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) "
           "or use `jax.random.fold_in(key, i)`")
    assert _lint(tmp_path, monkeypatch, {
        "sampler.py": '''
            import time
            import jax

            key = jax.random.PRNGKey(0)
            samples = []
            for _ in range(100):
                t0 = time.perf_counter()
                samples.append(jax.random.normal(key, (3,)))
                print("step took", time.perf_counter() - t0)


            def collect(key, n):
                out = []
                for _ in range(n):
                    t = time.monotonic()
                    out.append(jax.random.uniform(key, (8,)))
                    print(time.monotonic() - t)
                return out
        ''',
    }, select="JAX301") == [("JAX301", "sampler.py", 9, 20, msg.format(f="normal")),
                            ("JAX301", "sampler.py", 17, 20, msg.format(f="uniform"))]


# the diff review's twins of the exemptions above, still reported: a comparison that runs
# only on some paths (`verbose and x > 100.0`), a kernel applied to data while the masked
# branch divides a parameter of its own (`jax.grad` with respect to `w` is NaN: [nan, 0.5,
# 0.25]), a fresh lambda jitted with an attribute of the item as its sharding
def test_twins_of_the_exemptions_found_by_the_diff_review(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "cmp.py": '''
            import jax
            import jax.numpy as jnp


            def loss(x, verbose=False):
                if verbose and x > 100.0:
                    print("large input")
                return jnp.where(x > 0.0, jnp.sqrt(x), 0.0)


            print(jax.grad(loss)(0.0))
        ''',
        "pallas_check.py": '''
            import jax, jax.numpy as jnp
            from jax.experimental import pallas as pl

            def kernel(x_ref, o_ref):
                o_ref[...] = x_ref[...] * 2.0

            def norm(x):
                return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

            def loss(w, data):
                l = norm(data)           # kernel on data only: no gradient flows through it
                return jnp.sum(jnp.where(l == 0.0, 0.0, w / l))

            data = jnp.array([0.0, 1.0, 2.0])
            print("grad wrt w:", jax.grad(loss)(jnp.ones(3), data))
            try:
                print(jax.grad(lambda x: jnp.sum(norm(x)))(data))
            except Exception as e:
                print("grad through kernel:", type(e).__name__, str(e)[:150])
            print("jvp through kernel:", jax.jvp(norm, (data,), (jnp.ones(3),)))
        ''',
        "shard.py": '''
            import jax
            import jax.numpy as jnp


            def run(batches):
                outs = []
                for x in batches:
                    outs.append(jax.jit(lambda v: v * 2, in_shardings=x.sharding)(x))
                return outs


            run([jnp.ones(4), jnp.ones(4)])
        ''',
    }, select="JAX120,JAX501") == [
        ("JAX120", "cmp.py", 9, 31, "`jnp.sqrt(x)` is computed for every element, also where `x > 0.0` is false and "
         "masks it out; its derivative is infinite/NaN where `x` is 0 or negative, so the gradient of this `where` is NaN (0 * inf). "
         "Guard `x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)"),
        ("JAX120", "pallas_check.py", 13, 45, "`w / l` is computed for every element, also where `l == 0.0` is true "
         "and masks it out; its derivative is infinite/NaN where `l` is 0, so the gradient of this `where` is NaN (0 * inf). "
         "Guard `l` with the same condition too (double where: `jnp.where(cond, l, 1.0)` inside)"),
        ("JAX501", "shard.py", 9, 21, "`jit` of a `lambda` compiles again on every iteration of the loop: jit caches "
         "per function object and this one is new each time. Create the jitted function once (outside the loop or at "
         "module level) and pass the varying values as arguments"),
    ]
