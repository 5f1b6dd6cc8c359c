"""False findings the reviewers found on fresh sets 12 and 11, by mechanism, each written
at least two ways (VALID: silent), with twins that must still be reported (INVALID).

* B. x64 switched on in a script's `if __name__ == "__main__":` block (dm_hamiltonian_
  dynamics_suite's generate_dataset.py): that block runs only when the file is run, never
  when it is imported, so it is no switch at import; it is an entry script that may run
  the package's code (and the project packages it imports) with x64 on: there a rule that
  needs x64 off stays silent.  Still reported: a library the script does not import, a
  `__main__` block that switches x64 off.
* A1. Pre-Linen `flax.nn` modules (big_transfer's BiT ResNet): calling the class runs its
  `apply` (`ResidualUnit(x, nout, strides=s)`), `Cls.partial(k=v)` binds its keywords.
  When every use of the class in the file is one of those, a parameter that each gives a
  Python value (a literal, a table entry, an `enumerate` counter, such a parameter of the
  caller's own `apply`) is no tracer.  Still reported: a parent passing a traced value, a
  class used another way (`Cls.call(params, x, n)`).
* A2. A helper method of a base module class that only its subclasses call on `self`
  (haliax `_ConvBase._lhs_dim_spec(batch_index, inputs)` from `Conv.__call__`): the
  arguments are what those calls pass (a Python int from axis metadata), as for the
  class's own calls.  Still reported where a subclass passes a JAX value.
* A3. An attribute that no JAX array has, read from a value the model took for an array
  (jaxdf `x.domain.N` of `x = grad_u * pml`, a field class overloading `*`): the value is
  no array; unknown.  Still reported: `.T`/`.real` of a traced product.
* E. An NNX submodule's `__call__` whose holders in the file pass it only values the model
  takes for no tracer (bonsai qwen3_vl: `self.model.visual(pixel_values, grid_thw)` with
  `pixel_values=None` a parameter of the holder's `__call__`; the jitted entry passes
  none, the vision path runs eagerly): its array-annotated inputs are not assumed traced.
  Still reported where a holder passes a value it computed with JAX or its own input.
* F. A helper a constructor calls on `self` (JAX-GalSim `BoundsI.__init__` calling the
  inherited `Bounds._parse_args`, the class handed to `jax.vmap`): `self` is the object
  being built in that trace, so the helper's attribute writes are no state that outlives
  it (JAX403).  Still reported from a traced method that is no constructor.
* D1. JAX207 on a pytree class local to a function (haliax test fixtures built to check a
  diagnostic): its instances live in that function; when it applies no transformation and
  calls no jitted function of the file, nothing jits them.  Still reported: a local class
  whose function jits its instances, a module-level class.
* D2. JAX301's loop-carried reuse where the loop's first use consumed the entry key
  through another name (`rng = seed` then `rng, seed = split(rng)`: jaxdf helmholtz_pinn):
  the next iteration reads that name's new key.  Still reported: `key, sub = split(key)`
  then a draw from `key`.
"""

from __future__ import annotations

from project_files import lint_files


def _lint(tmp_path, monkeypatch, files, select=""):
    tmp_path.mkdir(parents=True, exist_ok=True)
    return lint_files(tmp_path, monkeypatch, files, select=select, dedent=True)


# -- B. x64 switched on in a `__main__` block -------------------------------------
_SYSTEM = """
    import jax.numpy as jnp


    class Pendulum:
        def render(self, n):
            return jnp.zeros([n, 1]).astype("int64")


    SYSTEMS = {"pendulum": Pendulum}


    def generate(name, n):
        return SYSTEMS[name]().render(n)
"""


def test_b_x64_in_main_block_of_a_package_script(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "suite/__init__.py": "",
        "suite/systems.py": _SYSTEM,
        "suite/generate.py": """
            import jax
            from suite import systems


            def main():
                return systems.generate("pendulum", 4)


            if __name__ == "__main__":
                jax.config.update("jax_enable_x64", True)
                main()
        """,
    }, select="JAX110") == []


def test_b_x64_in_main_block_of_a_driver_beside_the_package(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "suite/__init__.py": "",
        "suite/systems.py": _SYSTEM,
        "run.py": """
            from jax import config
            import suite.systems as S

            if "__main__" == __name__:
                config.update("jax_enable_x64", True)
                S.generate("pendulum", 3)
        """,
    }, select="JAX110") == []


def test_b_still_reported_off_in_main_or_in_a_library_the_script_does_not_import(tmp_path, monkeypatch):
    msg = ("`int64` in `.astype()` of a JAX array is truncated to 32-bit because jax_enable_x64 "
           "is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `int32`")
    assert _lint(tmp_path / "a", monkeypatch, {
        "suite/__init__.py": "",
        "suite/systems.py": _SYSTEM,
        "suite/generate.py": """
            import jax
            from suite import systems

            if __name__ == "__main__":
                jax.config.update("jax_enable_x64", False)
                systems.generate("pendulum", 4)
        """,
    }, select="JAX110") == [("JAX110", "suite/systems.py", 7, 41, msg)]
    assert _lint(tmp_path / "b", monkeypatch, {
        "suite/__init__.py": "",
        "suite/systems.py": _SYSTEM,
        "suite/generate.py": """
            import jax
            from suite import systems

            if __name__ == "__main__":
                jax.config.update("jax_enable_x64", True)
                systems.generate("pendulum", 4)
        """,
        "other/__init__.py": "",
        "other/systems.py": _SYSTEM,
    }, select="JAX110") == [("JAX110", "other/systems.py", 7, 41, msg)]


# -- A1. pre-Linen flax.nn apply hyper-parameters ------------------------------------
_BIT = """
    import jax.numpy as jnp
    import flax.nn as nn


    class Unit(nn.Module):
        def apply(self, x, nout, strides=(1, 1)):
            needs = x.shape[-1] != nout * 4 or strides != (1, 1)
            if needs:
                x = x * 2
            return x


    class Block(nn.Module):
        def apply(self, x, block_size, nout, first_stride):
            x = Unit(x, nout, strides=first_stride, name="u1")
            for i in range(1, block_size):
                x = Unit(x, nout, strides=(1, 1), name=f"u{i}")
            return x
"""


def _lint_pre_linen(tmp_path, monkeypatch, files):
    """The findings other than JAX901: `flax.nn` (pre-Linen Flax, removed in Flax 0.4.0)
    is reported at each use; these programs are about the hyper-parameters it passes."""
    return [f for f in _lint(tmp_path, monkeypatch, files) if f[0] != "JAX901"]


def test_a1_flax_nn_apply_hyper_parameters_from_a_table_and_enumerate(tmp_path, monkeypatch):
    assert _lint_pre_linen(tmp_path, monkeypatch, {"models.py": _BIT + """

    class Net(nn.Module):
        def apply(self, x, width_factor=1, num_layers=50):
            width = 64 * width_factor
            for i, block_size in enumerate(_SIZES[num_layers]):
                x = Block(x, block_size, width * 2 ** i, first_stride=(1, 1) if i == 0 else (2, 2))
            return jnp.mean(x)


    _SIZES = {50: [3, 4, 6, 3], 101: [3, 4, 23, 3]}
    MODELS = {"r50": Net.partial(num_layers=50, width_factor=1)}
    """}) == []


def test_a1_flax_nn_apply_hyper_parameters_by_keyword_and_partial(tmp_path, monkeypatch):
    assert _lint_pre_linen(tmp_path, monkeypatch, {"models.py": _BIT + """

    class Net(nn.Module):
        def apply(self, x, depth=2):
            x = Block(x, block_size=depth + 1, nout=64, first_stride=(2, 2))
            head = Block.partial(block_size=2, nout=x.shape[-1], first_stride=(1, 1))
            return head(x)
    """}) == []


def test_a1_still_reported_with_a_traced_value_or_another_use(tmp_path, monkeypatch):
    assert _lint_pre_linen(tmp_path, monkeypatch, {
        "traced.py": _BIT + """

    class Net(nn.Module):
        def apply(self, x):
            return Block(x, 3, jnp.sum(x), first_stride=(1, 1))
    """,
        "called.py": _BIT + """

    def forward(params, x):
        return Block.call(params, x, 3, 64, (1, 1))
    """,
    }) == [
        ("JAX201", "called.py", 8, 17,
         "`or` converts its left operand to a Python bool, but it is traced: it depends on the traced "
         "argument `nout` of `apply` (a method of the module class Unit); this raises "
         "TracerBoolConversionError. Use `jnp.logical_or` / `|`"),
        ("JAX201", "traced.py", 8, 17,
         "`or` converts its left operand to a Python bool, but it is traced: it depends on the traced "
         "argument `nout` of `apply` (a method of the module class Unit); this raises "
         "TracerBoolConversionError. Use `jnp.logical_or` / `|`"),
        ("JAX202", "called.py", 17, 18,
         "`range()` needs a concrete value, but its argument is traced: it depends on the traced argument "
         "`block_size` of `apply` (a method of the module class Block); this raises "
         "TracerIntegerConversionError. Instead, use `jax.lax.fori_loop`/`lax.scan` for loops of traced length"),
    ]


# -- A2. a base class's helper method called by its subclasses ------------------------
_CONV_BASE = """
    import equinox as eqx
    import jax
    import jax.numpy as jnp


    class _Base(eqx.Module):
        weight: jax.Array

        def _spec(self, batch_index, inputs):
            spec = ""
            for i in range(inputs.ndim):
                if i == batch_index:
                    spec += "N"
            return spec
"""


def test_a2_base_helper_given_a_python_int_by_subclasses(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"conv.py": _CONV_BASE + """

    def _index_of_name(names, name) -> int:
        for i, x in enumerate(names):
            if x == name:
                return i
        return -1


    class Conv(_Base):
        def __call__(self, inputs, axes):
            batch_index = _index_of_name(axes, "batch")
            return self._spec(batch_index, inputs)


    class ConvTranspose(Conv):
        def __call__(self, inputs):
            return self._spec(inputs.ndim - 2, inputs)
    """}) == []


def test_a2_still_reported_where_a_subclass_passes_a_jax_value(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"conv.py": _CONV_BASE + """

    class Conv(_Base):
        def __call__(self, inputs):
            return self._spec(jnp.argmax(inputs), inputs)
    """}) == [
        ("JAX201", "conv.py", 13, 16,
         "Python `if` on a traced value: it depends on the traced argument `batch_index` of `_spec` (a method "
         "of the module class _Base); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


# -- A3. an attribute no JAX array has ------------------------------------------------
def test_a3_field_class_product_attribute_is_unknown(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"ops.py": """
        import jax


        def diag_jacobian(x, correct_nyquist=True):
            if correct_nyquist:
                for f in range(len(x.domain.N)):
                    if x.domain.N[f] % 2 == 0:
                        return x
            return x


        def scaled_size(u):
            return u.grid.size if u.mesh.periodic else 0


        @jax.jit
        def helmholtz(u, pml):
            grad_u = u * pml
            scaled_size(u + pml)
            return diag_jacobian(grad_u * pml)
    """}) == []


def test_a3_array_attributes_of_a_traced_product_still_traced(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"ops.py": """
        import jax


        @jax.jit
        def f(u, pml):
            v = u * pml
            if v.T[0] > 0:
                return v
            return -v
    """}) == [
        ("JAX201", "ops.py", 8, 8,
         "Python `if` on a traced value: it depends on the traced arguments `pml`, `u` of `f` (decorated "
         "with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if "
         "`pml` is a Python value, mark it static (static_argnums=1)"),
    ]


# -- D1. JAX207 on a class local to a function ----------------------------------------
def test_d1_local_fixture_class_never_jitted(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"tests/test_debug.py": """
        import equinox as eqx
        import jax.numpy as jnp
        import mylib


        def test_diagnose_static():
            class M(eqx.Module):
                a: jnp.ndarray = eqx.field(static=True)

                def __init__(self):
                    self.a = jnp.zeros(1)

            problems = mylib.diagnose(M())
            assert len(problems) == 1


        def test_static_field_kept():
            class N(eqx.Module):
                b: jnp.ndarray = eqx.static_field()

            n = N(b=jnp.ones(2))
            assert n.b.shape == (2,)
    """}, select="JAX207") == []


def test_d1_still_reported_when_jitted_there_or_at_module_level(tmp_path, monkeypatch):
    msg = ("The static field `{f}` of the equinox Module `{c}` (`{decl}`: part of the tree structure, not a "
           "leaf) is annotated `jnp.ndarray`: jit hashes the static fields and compares them with `==` against "
           "the cached call's, so a second call with another instance raises ValueError: Exception raised while "
           "checking equality of metadata fields of pytree (arrays cannot be passed as metadata fields) "
           "(equinox warns when an instance is built: A JAX array is being set as static!). Make the field a "
           "leaf (drop the static marker) or store a hashable value (a tuple, a number)")
    assert _lint(tmp_path, monkeypatch, {"tests/test_jit.py": """
        import equinox as eqx
        import jax.numpy as jnp


        class Top(eqx.Module):
            a: jnp.ndarray = eqx.field(static=True)


        def test_jitted_locally():
            class M(eqx.Module):
                a: jnp.ndarray = eqx.field(static=True)

            f = eqx.filter_jit(lambda m: m.a)
            f(M(a=jnp.zeros(1)))
    """}, select="JAX207") == [
        ("JAX207", "tests/test_jit.py", 7, 5, msg.format(f="a", c="Top", decl="eqx.field(static=True)")),
        ("JAX207", "tests/test_jit.py", 12, 9, msg.format(f="a", c="M", decl="eqx.field(static=True)")),
    ]


# -- D2. JAX301: the loop's first use consumed the entry key through another name -----
def test_d2_loop_rebinds_the_key_by_splitting_another_name(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"train.py": """
        import jax
        from jax import random


        @jax.jit
        def update(state, key):
            return state + random.normal(key, ())


        seed = random.PRNGKey(0)
        rng = seed
        state = 0.0
        for k in range(10):
            rng, seed = random.split(rng, 2)
            state = update(state, seed)

        key = random.PRNGKey(1)
        stream = key
        step = 0
        while step < 5:
            stream, key = jax.random.split(stream)
            state = state + random.uniform(key)
            step += 1
    """}, select="JAX301") == []


def test_d2_still_reported_when_the_carried_name_is_split_again(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"train.py": """
        import jax
        from jax import random


        @jax.jit
        def update(state, key):
            return state + random.normal(key, ())


        key = random.PRNGKey(0)
        state = 0.0
        for k in range(10):
            key, sub = random.split(key, 2)
            state = update(state, key)
    """}, select="JAX301") == [
        ("JAX301", "train.py", 15, 13,
         "`key` is consumed by `update()` here and carried to the next iteration of the loop, where "
         "`random.split` on line 14 consumes it again: both get the same random bits. Give this call a "
         "subkey (`key, sub = jax.random.split(key)` and pass `sub`)"),
    ]


# -- E. an NNX submodule called by its holders ------------------------------------------
_NNX_VISION = """
    import jax
    import jax.numpy as jnp
    from flax import nnx
    from jax import Array


    class Vision(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.scale = nnx.Param(jnp.ones(3))

        def _pos(self, grid_thw: Array) -> Array:
            t, h, w = int(grid_thw[0, 0]), int(grid_thw[0, 1]), int(grid_thw[0, 2])
            return jnp.zeros((t * h * w, 3))

        def __call__(self, pixels: Array, grid_thw: Array) -> Array:
            return pixels + self._pos(grid_thw)[0]
"""


def test_e_nnx_submodule_given_optional_inputs_of_its_holder(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"model.py": _NNX_VISION + """

    class Backbone(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.visual = Vision(rngs)


    class Model(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.model = Backbone(rngs)
            self.head = Vision(rngs)

        def __call__(self, ids: Array, pixels: Array | None = None, grid=None):
            if pixels is not None:
                ids = ids + self.model.visual(pixels, grid)
                ids = ids + self.head(pixels=pixels, grid_thw=grid)
            return ids


    @jax.jit
    def forward(model, ids):
        return model(ids)
    """}, select="JAX202") == []


def test_e_still_reported_with_a_jax_value_or_the_holders_input(tmp_path, monkeypatch):
    msg = ("`int()` needs a concrete value, but its argument is traced: it depends on the traced argument "
           "`grid_thw` of `_pos` (a method of the module class Vision); this raises ConcretizationTypeError. "
           "Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the "
           "traced function")
    assert _lint(tmp_path, monkeypatch, {"model.py": _NNX_VISION + """

    class Backbone(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.visual = Vision(rngs)


    class Model(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.model = Backbone(rngs)

        def __call__(self, ids: Array, grid: Array):
            return ids + self.model.visual(ids, grid)
    """}, select="JAX202") == [
        ("JAX202", "model.py", 13, 19, msg), ("JAX202", "model.py", 13, 40, msg), ("JAX202", "model.py", 13, 61, msg),
    ]


# -- F. a constructor's helper on the object being built -------------------------------
_BOUNDS = """
    import jax
    import jax.numpy as jnp


    class Bounds:
        def _parse(self, *args):
            if len(args) == 0:
                self.deltax = 0
            else:
                self.deltax = args[0]
            if isinstance(self.deltax, int) and self.deltax < 1:
                self.defined = False
"""


def test_f_constructor_helpers_inherited_or_own(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"bounds.py": _BOUNDS + """

    class BoundsI(Bounds):
        def __init__(self, *args):
            self._parse(*args)


    class Box:
        def __init__(self, *args):
            self._fill(*args)

        def _fill(self, *args):
            if len(args) == 0:
                self.size = 0
            else:
                self.size = args[0]
            if isinstance(self.size, int) and self.size < 1:
                self.empty = True


    objs = jax.vmap(BoundsI)(jnp.arange(3.0))
    boxes = jax.vmap(Box)(jnp.arange(3.0))
    """}, select="JAX403") == []


def test_f_still_reported_from_a_traced_method(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"bounds.py": _BOUNDS + """

    class BoundsI(Bounds):
        def __init__(self):
            self.deltax = 1

        def reset(self, *args):
            self._parse(*args)
            return self.deltax


    b = BoundsI()
    reset = jax.jit(b.reset)
    reset(jnp.ones(()))
    """}, select="JAX403") == [
        ("JAX403", "bounds.py", 9, 13,
         "`self.deltax` is assigned inside traced method `_parse`: the method tests `self.deltax` and sets "
         "it, and both run once, at trace time: compiled calls never repeat them, and each new trace sees "
         "what the last one left. Pass the state in as an argument and return the new state"),
    ]
