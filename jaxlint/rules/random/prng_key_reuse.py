"""JAX301 prng-key-reuse: The same PRNG key is consumed twice (or once per loop iteration), giving identical random numbers."""

from __future__ import annotations

import ast
import re

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from typing import Callable, Optional

from jaxlint.model import apis, liveness
from jaxlint.model.repeats import called_repeatedly, lax_loop_body
from jaxlint.model import values as V
from jaxlint.model.keyflow import key_streams as keyflow_streams
from jaxlint.model.keyflow import key_value_class
from jaxlint.model.keyflow import STREAM_ADVICE, seed_overwrites_stream, stream_draw
from jaxlint.model.keyflow import LOOP_CARRY, advances_carried_key, carried_key_positions, record_key_kept
from jaxlint.paths import test_module
from jaxlint.model.keyflow import (copied_key, initializer_of, invariant, key_like_name, loop_target_read, mapper,
                                   replicated_keys, rngs_keys, unmapped_positions)
from jaxlint.model.program_order import attribute_writes
from jaxlint.model.separate_draws import separate_draws
from jaxlint.model.scopes import bound_once, instance_class, writes
from jaxlint.model.walk import (arg_at, assigned_in, children, descendants, dotted_name, int_value, keyword_arg,
                                positional_args, walk_tree)


class PrngKeyReuse(Rule):
    code = "JAX301"
    name = "prng-key-reuse"
    runtime_check = "JAX's key-reuse checker with typed keys (legacy keys replaced), and an eager run that shows the two draws tied."
    summary = "The same PRNG key is consumed twice (or once per loop iteration), giving identical random numbers"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Random Numbers (seed 000); tutorial § random keys (seed 002); study notes § PRNG (seed 003)"
    what_it_does = (
        "Tracks PRNG keys through each function (legacy `random.PRNGKey` and typed "
        "`random.key` alike) and flags:\n\n"
        "* a key passed to a second `jax.random` sampler (`normal`, `uniform`, `split`, "
        "`bernoulli`, `categorical`, `permutation`...) with no split or rebinding in between "
        "(two draws get the same random bits; a draw and then a `split` of that key does not repeat "
        "the draw's bits, but JAX promises independent numbers only for a key used once, and "
        "`jax_debug_key_reuse` raises KeyReuseError on that split for a typed key from "
        "`jax.random.key`; a legacy `PRNGKey` array is not checked);\n"
        "* a key used after `jax.random.split(key)` has consumed it;\n"
        "* an initializer that draws (made by a factory of `jax.nn.initializers`, re-exported by "
        "flax linen and nnx: `normal()`, `lecun_normal()`, `glorot_uniform()`, `variance_scaling(...)`...; "
        "not `zeros`/`ones`/`constant`) consumes the key it is called with like a sampler: "
        "`init = lecun_normal(); init(key, s)`, `normal()(key, s)`, a module's `self.kernel_init` "
        "whose class field defaults to one (a flax linen field), a parameter annotated `Initializer` "
        "(`weight_init: Initializer`; not one defaulting to `zeros`) or defaulting to a drawing one "
        "(`kernel_init=lecun_normal()`), also through a helper that calls one; "
        "so does `sample(seed=key)`/`sample_and_log_prob(seed=key)` of a distrax or TFP-on-JAX "
        "distribution, and numpyro's `sample(key, shape)` (the key first), of a distribution "
        "built in place or bound once (`policy = distrax.Categorical(logits)`; not in "
        "tests, which sample one distribution under one seed to check shapes); a distribution the "
        "model cannot place (`pi = actor.apply(params, obs)`) draws from a key given as `seed=` to "
        "any of its methods (`pi.sample(seed=key)`, `pi.entropy(seed=key)`, also a key-named parameter "
        "annotated as an array, `rng: jnp.ndarray`; not `obj.sample(key)`, "
        "which may draw nothing);\n"
        "* a key consumed after a loop's split rebound it and carried to the next iteration "
        "(`key, sub = split(key)` ... `sample(key)`): the next iteration's `split(key)` consumes it "
        "again; the same for a `lax.scan`/`fori_loop`/`while_loop` body that returns such a key "
        "as its carry (not when the iteration leaves the loop after that draw), and for a body that "
        "takes its key out of the carry, consumes it and returns it unchanged (every step draws the "
        "same numbers; not a one-step loop, `length=1`);\n"
        "* a function that returns a key it consumed (drew from it, split it, or gave it as the "
        "initial carry of a loop whose body carries a new key) to a caller of the file that keeps "
        "it as state (`params, self.key = self._train(params, self.key)`): the next call draws the "
        "same numbers (a caller that keeps it in a local name is followed by its own flow);\n"
        "* a parameter whose default is a key of the enclosing scope (`def actor_fn(obs, key=key)`) "
        "and that the body draws from (or hands on as `seed=`/`rng=`/`key=`), in a function "
        "the file calls twice, or once in a loop, without passing it: every such call draws "
        "from that one key;\n"
        "* a key given to a mapped function that draws from it without being mapped "
        "(`jax.vmap(worker, in_axes=(None, 0))(key, xs)`, `in_axes=None`, a `@partial(jax.vmap, "
        "in_axes=...)` def, `jax.pmap`, `eqx.filter_vmap`): every element gets the same key (a "
        "worker that only folds the element's index into it consumes nothing); and a key given "
        "to `jax.jit(f)(key, x)`/`jax.vmap(f)(key, xs)` (or a name bound to one) that `f` draws "
        "from is consumed there as by `f(key, x)`, outside loops too (not in tests, which compare "
        "a jitted call with the plain one);\n"
        "* a key that `jax.shard_map` gives every shard unchanged (`in_specs` entry `P()` for it "
        "while another argument is split, `P(\"data\")`), consumed in the function it maps or in a "
        "helper of the file that function hands it to with a split argument (`_draw(rng_key, loc)`): "
        "every shard draws the same numbers, a `split` of it included (not in a function that reads "
        "the shard's index, `fold_in(key, lax.axis_index(...))` or `split(key, n)[lax.axis_index(...)]`, "
        "nor when every argument is replicated: the computation is the same on every shard; a draw "
        "whose shape does not depend on the split data is reported too, so noise meant to be the "
        "same on every shard needs a `# noqa: JAX301`);\n"
        "* a key defined outside a loop (or comprehension) and consumed inside it without a new "
        "key per iteration (a copy of it, `key = original_key`, that a statement of the loop's body "
        "rebinds every iteration to a new key, `key, sub = split(key)`, `fold_in`, a seed that "
        "varies, is a new key per iteration; a clone or copy is not), also through "
        "a function that consumes it: a helper, a jitted step "
        "whose nested loss function draws from it, flax's `rngs={\"dropout\": key}` (not in "
        "an evaluation apply: a keyword naming determinism or evaluation set to True, "
        "`deterministic=True`, or one naming training, dropout or sampling set to False, "
        "`train=False`, `enable_dropout=False`, by whole words of the keyword (`isTraining`; "
        "not `upsample` or `constrain`; `non_deterministic=False` is one), also for haiku "
        "applies; nor in tests, which "
        "compare applies under one key);\n"
        "* `net.apply(...)` of a flax linen module of the file built with a key field "
        "(`NoisyDense(noise_key=key)`) that its methods draw from: every apply draws the same "
        "numbers, so a second apply of that module, or one in every iteration of a loop, is "
        "flagged (not in tests);\n"
        "* a key made from a literal seed (or a parameter defaulting to one that no call of the "
        "file passes: `def glorot(shape, seed=0)`) in a function that the file calls in a loop or a "
        "comprehension (`def noise(): key = PRNGKey(42); return uniform(key, (2,))`), or twice when "
        "the draw's shape comes from the caller (`add_noise(x), add_noise(x)` with "
        "`normal(key(0), x.shape)`: calls with the same shapes return the same numbers; not these two "
        "in a test module, whose input helpers give every test the same inputs), drawn with "
        "arguments that do not depend on the function's parameters, and returned (directly or "
        "through names the `return` reads, also names computed from the draw: `mask = "
        "bernoulli(rng, p, batch.shape)`, `loss = mean(batch * mask)`, `return params - loss`): "
        "every call returns the same numbers (a `split`, "
        "or numbers the function only prints or uses inside, as a benchmark's fixed seed does, "
        "are not flagged). A jitted function (`@jax.jit`, or `step = jax.jit(train_step)` called "
        "in the loop by that name) may also draw with the shapes of its arguments "
        "(`params.shape`): it is called again with the same shapes (others compile it again), so "
        "every step gets the same dropout mask or noise. A body a `lax.fori_loop` or `lax.scan` runs "
        "(also a method bound with `partial`) is such a function without any call in a loop: "
        "every step runs it with arguments of the same shapes, so a draw from a literal-seed key "
        "made there (`random.normal(random.key(0), x.shape)`) that reaches the body's result is "
        "the same at every step;\n"
        "* a key made from the same seed in every iteration (`key = PRNGKey(0)` in the loop) "
        "and drawn with the same arguments (not in a loop over settings that reads its target, "
        "itself or in a closure the iteration calls or transforms, `jax.jit(lambda x: f(x, "
        "cfg))`: the same seed per setting is meant; a closure stored for later, "
        "`hooks.append(lambda: cfg)`, is no such read);\n"
        "* a key of the enclosing scope, bound once there, consumed in a function or lambda "
        "that is called more than once (or in a loop; not one that permutes the array it is given, "
        "`def convert_data(x): return permutation(subkey, x)` applied to several arrays: one order "
        "keeps their rows aligned, on purpose), and a call of such a nested function "
        "consumes that key where it is made (a draw from the key before or after it repeats its "
        "bits), unless it is an objective given to "
        "`jax.grad`/`value_and_grad`/`jacrev`... there and called outside loops (evaluated "
        "again for its value or a diagnostic: the same objective is meant); also a function "
        "or lambda that a tree map (`jax.tree.map`, `tree_util.tree_map`, through an alias "
        "too) or `map` runs once for every element, and a key bound with `partial` to a "
        "function that draws from it, handed to a tree map, `map` or `jax.vmap` (also `jax.pmap`, "
        "`eqx.filter_vmap`, and through a name bound once to the `partial`: `one = partial(jitter, "
        "key)` ... `jax.vmap(one)(xs)`): every leaf, item or batch element draws the same numbers;\n"
        "* `f.apply(params, key, x)` of `f = hk.transform(fn)` (`transform_with_state`: the "
        "third argument) where `fn` draws from haiku's key stream (`hk.next_rng_key()`, "
        "`hk.dropout`, in a module class or helper of the file it calls): the apply consumes "
        "the key like a helper does (not with `without_apply_rng`, nor when `fn` draws nothing), "
        "and so does a function whose loss closure makes that apply with its key parameter "
        "(`update(params, rng, x)` under `jax.jit`, called in a loop with one `rng`);\n"
        "* a function that draws from a key stream its library hands it anew each run (a "
        "numpyro model's latent `numpyro.sample`, `hk.next_rng_key()`, a flax module's "
        "`self.make_rng`) and also hands a key it makes from a literal seed to a function that "
        "draws from it (`abm(PRNGKey(0), ...)`, a helper whose only rebinding of its key is "
        "`key, k = split(key)` included): that part replays the same numbers on every run (every "
        "MCMC step, every seed) while the rest varies; not a `jax.random` draw from such a key in "
        "the function itself (`jax.random.normal(PRNGKey(0), (d, D))`: a fixed matrix, random "
        "features or a projection, constant on purpose);\n"
        "* a function given a key (a `key`/`rng` parameter, `kwargs.get(\"rng\")`) that "
        "never reads it (nor does a function nested in it) and draws from a fixed seed instead; "
        "not a parameter its signature declares no key (`with_dropout_rng: bool`, `use_rng=False`);\n"
        "* a key stored on an object when it is built (`self.rng = PRNGKey(seed)`) that a "
        "method taking an input draws from and nothing replaces;\n"
        "* a function that draws from (or splits) a key field of a parameter, `state.key` (or a "
        "name bound once to it: `key = state.key`, `params, key = state`), and "
        "returns a record still holding that key: a pytree class (a `NamedTuple`, a flax struct, "
        "of the file, imported from the project or a library's) built with it, `State(new_params, "
        "state.key)`, or a copy that replaces other fields, `state._replace(params=...)`, "
        "`state.replace(...)`, `dataclasses.replace(state, ...)`, flax's "
        "`state.apply_gradients(grads=g)` (alone or in a returned tuple; the draw on every path, "
        "also flax's `rngs={\"dropout\": state.key}` in a loss closure the function differentiates "
        "or calls, not in evaluation mode; every `return` such a record; not in tests): the next step given "
        "that record draws the same numbers (checked with JAX: two steps of such a `NamedTuple` "
        "state draw equal noise; a key folded with the step, `fold_in(state.key, state.step)`, "
        "consumes nothing);\n"
        "* one helper called twice with the same key and the same arguments, or with arguments "
        "that differ only where the helper sizes its draw (`init_layer(key, 4, 8)` then "
        "`init_layer(key, 8, 8)` of `def init_layer(key, m, n): return normal(key, (m, n))`, a "
        "whole shape, `weights(key, shape=s)`, or the sizes of an equinox layer it builds; also "
        "a method through `self` or a helper imported from the project): the same key drawn at "
        "two sizes gives overlapping numbers (`normal(k, (4, 8))` is `normal(k, (8, 8))[:4]`, "
        "checked on jax 0.10.2); calls on other data (`random_features(key, x)`, then of `y`) "
        "are often meant and stay silent; so are two different functions of the file that each hand "
        "the key only to one builder with the same arguments (`benchmark_jax(n, key=key)` then "
        "`benchmark_lx(n, key=key)`, both calling `make_problem(n, key=key)`) when no statement "
        "computes with both results (printed or asserted side by side): the same inputs rebuilt "
        "to compare two computations;\n"
        "* an equinox layer given `key=` (`eqx.nn.Linear(4, 4, key=key)`, `nn.MLP(..., key=key)`) "
        "draws its initial weights from it like a sampler: two layers built with one key get "
        "the same weights (checked with JAX), also through a helper that builds one, in a loop "
        "or a comprehension; so does building an object of a project class whose `__init__` "
        "draws from (or splits) its key parameter (`Conv(n, key=key)` twice: a helper that "
        "splits the key it is given, called twice with the same arguments, makes the same keys "
        "twice), and calling one whose `__call__` does (`self.ff_block(x, key=key)` of "
        "`self.ff_block = Block(...)` in `__init__`, a parameter annotated `Block`, also mapped: "
        "`jax.vmap(self.ff_block, in_axes=(0, None))(x, key)`; a class whose `__init__` hands "
        "its key to such a constructor builds from it too), `eqx.nn.Dropout`'s call "
        "(`self.dropout(x, key=key)`, not with `inference=True`) included;\n"
        "* numpyro's draws from the key they are given: `numpyro.sample(name, d, rng_key=key)` "
        "(unless the site is observed: `obs=` given a value that is not None on every path; a "
        "parameter defaulting to None counts as None), `handlers.seed(model, key)`, "
        "`Predictive(model, ...)(key, ...)`, `mcmc.run(key, ...)` and `svi.run(key, ...)` of an "
        "object built in place or bound once: two of them given one key draw the same numbers;\n"
        "* a batch of copies of one key given to a mapped function that draws from it "
        "(`jax.vmap(f)(jnp.repeat(key[None, :], n, axis=0))`, `jnp.tile(key, (n, 1))`, "
        "`jnp.broadcast_to(key, (n, 2))`, `jnp.stack([key] * n)`, also through a name bound once "
        "to one, and a lambda handing its parameter to a helper of the file or of the project): "
        "every element draws the same numbers;\n"
        "* a key an object holds for its life (`self._rng_key`, set when it is built) consumed in "
        "one method and again in another (`fit`, then `predict`) while no method but those that "
        "build the object assigns it (not two splits, which derive keys of their own; not a test "
        "class, nor a flax or equinox module; not a key type, whose method returns a new instance "
        "around a key split or folded from the one it holds: `return PRNGKey(jax.random.split("
        "self.rng, n))`);\n"
        "* a key an object keeps as a stream, a method splitting it and storing a half back "
        "(`self.key, key = jax.random.split(self.key)` in `explore`), drawn from directly: in "
        "another method of the class, or through an instance (`schedule.key` of a parameter "
        "annotated `schedule: Schedule`, a class of the project) where the function also runs "
        "that method on it (`schedule.explore()`; for an object the function builds, after the "
        "draw or in the same loop): the next split of that key repeats the draw "
        "(KeyReuseError under `jax_debug_key_reuse`, for a typed key);\n"
        "* a key under another name: a helper (of the file, a method called through `self`, or "
        "imported from the project) whose every `return` hands back the key it was given "
        "(`return key`, `return w, key` after drawing from it) gives the caller the same key, "
        "and a record built with it (`State(key=key, ...)`) holds it in that field; a helper that "
        "draws from a key it makes or is given and returns that same key (`key = PRNGKey(seed); "
        "w = normal(key, s); return w, key`; the draw on every path before each `return`, the name "
        "bound once) hands its caller a consumed key: the caller's next draw repeats it (also "
        "from another module);\n"
        "* haiku's `hk.dropout(key, rate, x)` draws its mask from `key` (two dropouts, or one in a "
        "loop over layers, with one key drop the same units); a flax linen module's "
        "`model.init(key, x)` does not consume `key`: flax draws each parameter from "
        "`fold_in(key, <its path>)`, and JAX's `jax_debug_key_reuse` accepts a draw from `key` "
        "before or after it;\n"
        "* the initial carry of a `lax.scan`/`fori_loop`/`while_loop` whose body unpacks a key from "
        "its carry and advances it (`params, rng = carry; rng, key = split(rng)`, or a carry that "
        "is the key) is consumed by the loop: a key drawn from before (by a helper too, one reached "
        "through `self` or imported from the project) gives the loop's first split the same bits;\n"
        "* a key a branch of `jax.lax.cond` or `jax.lax.switch` consumes (a lambda branch drawing "
        "from a key it captures or handing it to a helper, `lambda: self.sample(key)`; a branch "
        "function given the key as an operand, `lax.cond(p, draw, keep, key)`) is consumed by the "
        "call, whichever branch runs: JAX traces every branch, and a draw from that key before or "
        "after it raises `KeyReuseError: In cond, argument 1 is already consumed.` under "
        "`jax_debug_key_reuse` (checked on jax 0.10.2); the two branches of one `cond` drawing "
        "from one key stay silent (one of them runs);\n"
        "* a method a class leaves to its subclasses (`@abstractmethod`, a body of a docstring, "
        "`pass` or `raise NotImplementedError`, or no such method in a class whose bases are the "
        "project's, `ABC` or a bare module base), where every subclass of the project (any module) "
        "that defines it draws from the same key parameter: `self.sample(key)` in the base, "
        "`s.sample(key)` of `s: Sampler`, `gen(key)` of `gen: Generator` draw from the key "
        "whichever subclass runs, and so does each element of a list annotated `list[Generator]` "
        "(`[g(key) for g in self.generators]`: every element draws the same numbers); one override "
        "that does not draw leaves it unknown;\n"
        "* a key drawn from under `if c:` and again under a second `if c:` (or after it): when `c` "
        "holds both draws run with one key; not two tests no run passes both (`if mode == "
        "\"a\":` / `if mode == \"b\":`, `if train:` / `if not train:`);\n"
        "* a key of the enclosing scope consumed in a `lax.scan`/`fori_loop`/`while_loop` body "
        "by any consumer the loops above know (a sampler, a helper, flax's `rngs=`, a haiku apply), "
        "and the apply of a haiku transform of a function the caller hands in "
        "(`fun = hk.transform_with_state(fun)`, also through `typing.cast`) given a key in such a "
        "body or a Python loop: the key goes to that function's draws (an apply that draws nothing "
        "takes `None`), and every step gets the same one (two such applies in a row are left "
        "alone: what the function draws cannot be seen);\n"
        "* a sampler chosen by name, `getattr(jax.random, name)` (or of `from jax import random`), "
        "consumes its key like the sampler it names: a `split` of that key afterwards, to make the "
        "next state, is flagged as above;\n"
        "* a key derived (`split`, `fold_in`) from a key parameter of the function, in one block, "
        "rebound before anything reads it to a key of a literal seed (`rng = PRNGKey(0)  # dummy`) "
        "that is read afterwards: every key drawn from that name later is the same whatever key "
        "the function is given (not under a condition, `if key is None: key = PRNGKey(0)`; not "
        "a chain that starts from a literal seed);\n"
        "* a key drawn from after a helper (of the file or imported) split it, or split by such "
        "a helper after a draw (a helper splitting it after a split or after a library "
        "constructor drew from it hands keys down on both sides: not flagged).\n\n"
        "`key, sub = split(key)`, `keys = split(key, n)` with each key used once, `for k in "
        "keys`, and `fold_in(key, i)` (which derives a new key without consuming) stay silent. "
        "Uses on different branches of an `if` are not a reuse, nor two draws one of which "
        "is never read (its names rebound before any read, or only feeding other unread "
        "`jax` draws; also a draw held in a container or arithmetic, `kw = dict(a=normal(k, s))`, "
        "`noise = gumbel(k, s) * t`; the first draw asked only on the paths that make the "
        "second: read under `if mode is None:` but not on the `elif` that hands the key to "
        "another sampler; at a module's or a notebook's top level, its globals count as read). "
        "Nor a warm-up call whose result is thrown away (`generate(x, rng)  # compile`) before the "
        "same call is made again with that key, or a dry run of the callable itself whose result "
        "is thrown away (`opt.debug(seed=k)` then `opt(seed=k)`, bayeux's checker) (the calls after "
        "it still count against each other). "
        "A transformed call outside loops (`jax.jit(unroll)(key)`) after a helper drew from the key, "
        "or the other way round, compares two computations under one key: not flagged. "
        "A key stored back on a record "
        "(`state = state._replace(key=k)`, `state.replace(key=k)`, `dataclasses.replace(state, "
        "key=k)`) or an attribute (`self._rng, rng = split(self._rng)`) is the new key; a copy "
        "that replaces other fields keeps the old one. A test looping over a table of cases "
        "(`for train in (False, True):`, a literal of constants or of tuples of them, also bound "
        "to a name, `zip`/`itertools.product` of such tables, or `enumerate`/`sorted` of one) may draw the same inputs for "
        "each case, and so may a test loop each iteration of which draws from values of its own (not "
        "only their shapes: `sample(key, bins[i], ...)`, `gaussian_sample(key, t0, t1)` for each interval) "
        "and hands no state to the next (it binds only names read nowhere outside the loop, writes no item "
        "or attribute of an outer object, augments nothing; it may collect its results with "
        "`append`): each iteration is a case of its own. A loop or comprehension "
        "over one element (`[normal(key, (n,)) for n in sizes]` with `sizes = [1024]`, `range(1)`) "
        "draws once. A timed repetition of one run is silent too: `for _ in range(k)`, `k` a literal "
        "of at most 5 (a compile pass, then a few timed ones), whose index the "
        "body never reads, whose body reads a clock (`time.perf_counter()`, `time.time()`, "
        "`timeit.default_timer()`) and binds no name that it reads before binding it (`x = "
        "jax.device_put(x, s)` aside: the same values placed again) runs the same computation again, a "
        "compile pass and a timed pass, where the same numbers are the point (so is a loop around it, each "
        "configuration of a benchmark drawn alike); a training loop that times its steps (`params = "
        "update(params, noise)` carries state) is still reported. Also silent: `permutation`/`shuffle`/`choice` of several arrays with one key "
        "(`[permutation(key, a) for a in arrays]`, or `x` then `y`: the same order keeps paired "
        "rows aligned); a draw whose result the function asserts equal to an earlier draw's from "
        "the same key (`np.testing.assert_allclose(normal(key, s), normal(key, s))`, a test's draw "
        "asserted equal to what another call given the key returned, `w = init(key, s)` then "
        "`assert np.allclose(w, scale * normal(key, s))`: the expected value rebuilt, "
        "`self.assertEqual(f(x1), f(x2))` with `x1`, `x2` drawn from one key, `assert jnp.all(a "
        "== b)`; two modules built from one key and compared as pytrees, `assert "
        "eqx.tree_equal(expected, eqx.tree_at(where, built, v))`, `chex.assert_trees_all_close(a, b)`, "
        "`optax.tree_utils.tree_allclose(a, b)`, also handed to a helper: a test of determinism, or of two computations under one randomness; not a "
        "negated assertion, nor one comparing shapes or an object a method call handed the second "
        "draw to, `m.update(new)` then `assertEqual(m.params, new)`); in a test, a draw written in "
        "an assertion's arguments, reached only through arithmetic, displays, subscripts and "
        "`allclose`/`array_equal`/`asarray` (`self.assertDictEqual(sample(model)(seed), {'z': "
        "normal(k1), 'x': normal(k1) + normal(k2)})`: the expected value rebuilt from the keys the "
        "code under test drew from; not a draw inside a call of that code or a statistic, "
        "`jnp.std(normal(k, s) + normal(k, s))`), and the inputs of two sub-cases of one test "
        "(`x = normal(rng, (10, 10))` ... `x = normal(rng, (10, 50))`) when what the first gives is "
        "read only by assertions and names computed from it before the second rebinds it (never "
        "in one computation with the second: not two draws added, two layers stacked, or "
        "`params = step(params, x)` carried on); a call inside `with pytest.raises(...)`/`self.assertRaises(...)` (it "
        "fails); `eqx.nn.Embedding(weight=..., key=key)` (given its values, it draws nothing); "
        "keys split in a loop and written straight into a call that switches its randomness off, "
        "also through its wrappers (`jax.vmap(partial(model, enable_dropout=False))(x, key=split(key, n))`, "
        "`step = jax.jit(partial(apply, train=False))` ... `step(p, x, split(rng)[0])`); "
        "a tree map over a single array (one leaf, one call); the `\"params\"` stream of a "
        "flax `apply` (`rngs={\"params\": key}`: it only initialises variables missing from "
        "those given); and the `\"dropout\"` stream of a call in evaluation mode "
        "(`rngs={\"dropout\": key}` with `deterministic=True`, `train=False`, `training=False` or "
        "`is_training=False`: dropout returns its input and draws nothing). Nor a split "
        "replayed to hand on the pair's other key (`split(k)[1]`, then `split(split(k)[0])[1]`: "
        "a test rebuilding the split chain of the code it checks; the same index twice is still "
        "flagged).\n\n"
        "An equinox Module's key field (`key: jax.Array`, named like a key, declared or set in "
        "`__init__`) drawn from in `__call__` or a method `__call__` calls, directly or handed on "
        "as a helper's `key=`: the module is immutable, so every call draws the same numbers "
        "(not a method of `self` alone, a fixed random projection; not an entry point such as "
        "`fit`/`match` that keeps the key as a seed; not flax modules, often built anew with a "
        "split key for each use, whose apply sites are judged instead)."
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
        # a comprehension over one element draws once; a test loop each iteration of which
        # checks its own draw and keeps nothing of it; the dropout stream of a model applied
        # in evaluation mode, also through a helper (nothing draws from the key)
        Valid(
            """
            import flax.linen as nn
            import jax
            import numpy as np


            class Net(nn.Module):
                @nn.compact
                def __call__(self, x, deterministic: bool):
                    return nn.Dropout(0.5, deterministic=deterministic)(nn.Dense(4)(x))


            def bench(key):
                sizes = [1024]
                return [jax.random.normal(key, (n,)) for n in sizes]


            def test_bins(key):
                bins = np.array([0.0, 1.0, 3.0, 6.0])
                for i in range(len(bins) - 1):
                    samples = jax.random.uniform(key, (100,), minval=bins[i], maxval=bins[i + 1])
                    assert bool((samples >= bins[i]).all())


            def score(params, x, rng):
                return Net().apply(params, x, deterministic=True, rngs={"dropout": rng})


            def evaluate(params, batches, rng):
                out = []
                for x in batches:
                    out.append(score(params, x, rng))
                    out.append(Net().apply(params, x, deterministic=True, rngs={"dropout": rng}))
                return out
            """,
        ),
        # the key read out of a container the loop body binds again (`runner_state = step(...)`):
        # from the second iteration on it is the key the body stored (jaxued's PLR loop)
        Valid(
            """
            import jax


            def step(state):
                rng, params = state
                rng, sub = jax.random.split(rng)
                return (rng, params + jax.random.normal(sub))


            def main():
                rng_train = jax.random.PRNGKey(0)
                runner_state = (rng_train, 0.0)
                for _ in range(3):
                    runner_state = step((jax.random.split(runner_state[0], 2)[0], runner_state[1]))

                return runner_state
            """,
        ),
        # an equinox module's key kept as a seed for an entry point run once per object (not
        # its forward pass): reproducible by design (coreax's `SlicedScoreMatching.match`)
        Valid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp


            class Matcher(eqx.Module):
                random_key: jax.Array
                num_vectors: int = 4

                def match(self, x):
                    key, sub = jax.random.split(self.random_key)
                    return x + jax.random.normal(sub, (self.num_vectors,) + x.shape)
            """
        ),
        # a module's fixed random projection (a method of `self` alone), a flax RNG stream,
        # an equinox key argument
        Valid(
            """
            import equinox as eqx
            import flax.linen as nn
            import jax
            import jax.numpy as jnp


            class RandomFeatures(nn.Module):
                rows: int
                key: jax.Array

                def projection(self):
                    return jax.random.normal(self.key, (self.rows, self.rows))

                @nn.compact
                def __call__(self, x):
                    keep = jax.random.bernoulli(self.make_rng("dropout"), 0.9, x.shape)
                    return jnp.where(keep, x @ self.projection(), 0.0)


            class NoisyLayer(eqx.Module):
                weight: jax.Array

                def __init__(self, size, key):
                    self.weight = jax.random.normal(key, (size, size))

                def __call__(self, x, *, key):
                    return self.weight @ x + 0.1 * jax.random.normal(key, x.shape)
            """
        ),
        # equinox layers, each given its own key
        Valid(
            """
            import jax
            from equinox import nn


            class Net:
                def __init__(self, key):
                    k1, k2 = jax.random.split(key)
                    self.l1 = nn.Linear(4, 4, key=k1)
                    self.l2 = nn.Linear(4, 4, key=k2)


            def build(key):
                key, lkey, xkey = jax.random.split(key, 3)
                layers = [nn.Linear(2, 2, key=k) for k in jax.random.split(lkey, 3)]
                x = jax.random.normal(xkey, (8, 2))
                return layers, x, nn.Linear(2, 2, key=key), nn.Dropout(0.5)
            """
        ),
        # a fixed seed made on each call whose numbers the call does not return: a
        # benchmark's reproducible key (split, handed to the timed step), a draw only printed
        Valid(
            """
            import jax


            def bench(step, state, iters):
                rng = jax.random.PRNGKey(1234)
                rng, _ = jax.random.split(rng)
                for _ in range(iters):
                    state = step(state, rng)
                return state


            def warm(x):
                key = jax.random.PRNGKey(0)
                noise = jax.random.normal(key, (3,))
                print(noise)
                return x


            for n in range(3):
                bench(lambda s, r: s, 0, 2)
                warm(n)
            """
        ),
        # the draw depends on a parameter (the shape, the seed), or the function runs once
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def init_layer(n):
                key = jax.random.PRNGKey(0)
                return jax.random.normal(key, (n, n))


            def seeded(seed):
                key = jax.random.PRNGKey(seed)
                return jax.random.normal(key, (3,))


            def once():
                key = jax.random.PRNGKey(1)
                return jax.random.normal(key, (3,))


            layers = [init_layer(n) for n in (3, 4)]
            draws = [seeded(s) for s in range(3)]
            print(once())
            """
        ),
        # a jitted sampler given a fresh key each iteration, or called once
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def noisy(x, key):
                return x + jax.random.normal(key, x.shape)


            def run(x, steps):
                key = jax.random.key(1)
                step = jax.jit(noisy)
                for _ in range(steps):
                    key, sub = jax.random.split(key)
                    x = step(x, sub)
                return x


            def once(x):
                return jax.jit(noisy)(x, jax.random.PRNGKey(0))
            """
        ),
        # the first draw is read only on branches that do not draw again; the one that
        # does hands the key to another sampler and never reads `noise`
        Valid(
            """
            import jax


            def sample(key, logits, mode=None):
                noise = jax.random.gumbel(key, logits.shape) * 0.5
                if mode is None:
                    return logits + noise
                elif mode == "categorical":
                    return jax.random.categorical(key, logits)
                raise ValueError(mode)
            """
        ),
        Valid(
            # an array of keys split again: `keys[0]` is a new key, written as before
            """
            from jax import random

            def demo():
                keys = random.split(random.PRNGKey(0), 3)
                a = random.normal(keys[0], (2,))
                b = random.normal(keys[1], (2,))
                keys = random.split(random.PRNGKey(7), 3)
                c = random.normal(keys[0], (2,))
                d = random.normal(keys[1], (2,))
                return a, b, c, d
            """
        ),
        Valid(
            # a subscript of a split's result, whose array has no key of its own yet
            """
            import jax


            class KeyIterator:
                def __init__(self, key):
                    self._current = key

                def next(self):
                    self._current = jax.random.split(self._current, num=1)[0]
                    return self._current


            def fresh(key):
                key = jax.random.split(key)[0]
                return jax.random.uniform(jax.random.split(key)[1])
            """
        ),
        Valid(
            # the same at a notebook's (module's) top level, through an alias
            """
            import jax

            subkeys = jax.random.split(jax.random.key(0), 4)
            first = jax.random.uniform(subkeys[2])
            subkeys = jax.random.split(jax.random.fold_in(jax.random.key(0), 1), 4)
            second = jax.random.uniform(subkeys[2])
            """
        ),
        Valid(
            # the wrapper gets its own key
            """
            import jax

            def sample(key, x):
                return x + jax.random.normal(key, x.shape)

            def wrapped(key, x):
                return sample(key, x)

            def main(x):
                key = jax.random.PRNGKey(0)
                k1, k2 = jax.random.split(key)
                a = wrapped(k1, x)
                b = jax.random.uniform(k2, x.shape)
                return a, b
            """
        ),
        # per-element keys under vmap; a None default; a fresh subkey per helper call;
        # a helper that derives its own key from the one it gets; a key default used
        # once; one helper called twice with one key outside a loop
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def noisy_batch(key, xs):
                def one(x, k):
                    return x + jax.random.normal(k, x.shape)

                return jax.vmap(one)(xs, jax.random.split(key, xs.shape[0]))

            def init_weights(shape, key=None, seed=0):
                if key is None:
                    key = jax.random.PRNGKey(seed)
                return jax.random.normal(key, shape) * 0.02

            def add_noise(key, x):
                return x + 0.1 * jax.random.normal(key, x.shape)

            def step_noise(key, x, i):
                key = jax.random.fold_in(key, i)
                return x + jax.random.normal(key, x.shape)

            def diffuse(key, x, steps=3):
                for i in range(steps):
                    key, sub = jax.random.split(key)
                    x = add_noise(sub, x)
                    x = step_noise(key, x, i)
                return x

            def default_init(shape, key=jax.random.PRNGKey(0)):
                # a reproducible default, relied on once
                return jax.random.normal(key, shape)

            def random_features(key, x, rank):
                w = jax.random.normal(key, (x.shape[-1], rank))
                return jnp.cos(x @ w)

            def kernel(key, x, y):
                # the same features for x and y: the same key on purpose
                return random_features(key, x, 16) @ random_features(key, y, 16).T

            W = default_init((3, 3))
            """
        ),
        Valid(
            """
            import jax


            def add_noise(x, key, scale=0.1):
                return x + scale * jax.random.normal(key, x.shape)


            def augment(x, key):
                # each call of the sampling helper gets its own key
                k1, k2 = jax.random.split(key)
                return add_noise(x, k1), add_noise(x, k2)
            """
        ),
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
        # a new key per step (split, fold_in), a seed per iteration or per shape, a global key split on each call, a closure called once, a key default read first, one helper on other data, an evaluation apply
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax import random


            @jax.jit
            def train_step(params, x, dropout_key):
                keep = jax.random.bernoulli(dropout_key, 0.5, x.shape)
                return params - 0.1 * jnp.sum(jnp.where(keep, x, 0.0))


            def train(params, batches, key):
                for x in batches:
                    key, dropout_key = jax.random.split(key)
                    params = train_step(params, x, dropout_key)
                return params


            def train_fold(params, batches, key):
                for i, x in enumerate(batches):
                    params = train_step(params, x, jax.random.fold_in(key, i))
                return params


            def per_seed(x, n):
                out = []
                for i in range(n):
                    key = random.PRNGKey(i)
                    out.append(x + random.normal(key, x.shape))
                return out


            def per_shape(shapes):
                return [random.normal(random.PRNGKey(0), s) for s in shapes]


            key = random.PRNGKey(0)


            def noise(x):
                global key
                key, sub = random.split(key)
                return x + random.normal(sub, x.shape)


            def once(x):
                return x + random.normal(key, x.shape)


            y = once(jnp.ones(2))


            def dropout(x, rate, rng=None):
                if rng is None:
                    rng = random.PRNGKey(0)
                keep = random.bernoulli(rng, rate, x.shape)
                return jnp.where(keep, x / rate, 0.0)


            def random_features(key, x):
                return x @ random.normal(key, (x.shape[-1], 4))


            def kernel(key, x, y):
                return random_features(key, x) @ random_features(key, y).T


            def evaluate(model, variables, xs, key):
                return [model.apply(variables, x, deterministic=True, rngs={"dropout": key}) for x in xs]
            """
        ),
        # a stored key drawn from once at construction, split in the method, or advanced by another method
        Valid(
            """
            import jax
            import jax.numpy as jnp


            class Agent:
                def __init__(self, seed):
                    self.rng = jax.random.PRNGKey(seed)
                    self.w = self._init_weights()

                def _init_weights(self):
                    return jax.random.normal(self.rng, (3,))

                def act(self, logits):
                    self.rng, sub = jax.random.split(self.rng)
                    return jax.random.categorical(sub, logits)


            class Noise:
                def __init__(self, key):
                    self.key = key

                def next_key(self):
                    self.key, sub = jax.random.split(self.key)
                    return sub

                def sample(self, x):
                    return x + jax.random.normal(self.key, x.shape)
            """
        ),
        # a stored key behind a getter with no input (a fixed random projection); two applies compared under one key outside a loop
        Valid(
            """
            import jax


            class RandomFeatures:
                def __init__(self, key, rows, cols):
                    self.key = key
                    self.shape = (rows, cols)

                def get_matrix(self):
                    # a fixed random projection: the same matrix on every call, by design
                    return jax.random.normal(self.key, self.shape)


            def test_masked_equals_full(model, variables, batch, masked, key):
                # two computations compared under the same randomness
                full = model.apply(variables, batch, rngs={"dropout": key})
                part = model.apply(variables, masked, rngs={"dropout": key})
                return full, part
            """
        ),
        # a test comparing step-by-step applies with a full pass under one key
        Valid(
            """
            import jax.numpy as jnp


            class DecoderTest:
                def test_extend_step_matches_fprop(self, model, variables, inputs, key):
                    full = model.apply(variables, inputs, rngs={"random": key})
                    for t in range(inputs.shape[1]):
                        step = model.apply(variables, inputs[:, t], rngs={"random": key}, method=model.extend_step)
                        assert jnp.allclose(full[:, t], step)
            """
        ),
        # a key stored back on the record it was read from: `_replace(key=...)` (a
        # NamedTuple state in a while_loop body), a flax struct's `.replace`,
        # `dataclasses.replace`; and an attribute advanced by a tuple split in a loop
        Valid(
            """
            import jax


            def body(state):
                key, ephemeral_key = jax.random.split(state.key, 2)
                state = state._replace(key=key)
                x = jax.random.normal(ephemeral_key, (3,))
                key, ephemeral_key = jax.random.split(state.key, 2)
                state = state._replace(key=key)
                return state, x + jax.random.normal(ephemeral_key, (3,))
            """
        ),
        Valid(
            """
            import dataclasses

            import jax


            def step(state):
                rng, noise_rng = jax.random.split(state.rng)
                state = state.replace(rng=rng)
                noise = jax.random.normal(noise_rng, (3,))
                new = dataclasses.replace(state, rng=jax.random.fold_in(state.rng, 1))
                return new, noise + jax.random.uniform(new.rng, (3,))


            class Buffer:
                def sample(self, n):
                    self._rng, rng = jax.random.split(self._rng)
                    out = [jax.random.randint(rng, (1,), 0, 10)]
                    while len(out) < n:
                        self._rng, rng = jax.random.split(self._rng)
                        out.append(jax.random.randint(rng, (1,), 0, 10))
                    return out
            """
        ),
        # a test that runs its cases over a literal tuple and rebuilds the same inputs for
        # each on purpose (the model mutates them); the same in a unittest method
        Valid(
            """
            import jax
            from jax import random


            def test_shapes():
                rng = random.PRNGKey(0)
                for train in (False, True):
                    inputs = {"rgb": random.normal(rng, shape=(2, 8))}
                    assert inputs["rgb"].shape == (2, 8), train


            class ModelTest:
                def test_modes(self):
                    key = jax.random.key(1)
                    for mode in ["train", "eval"]:
                        x = jax.random.uniform(key, (4,))
                        if mode == "train":
                            for _ in x:
                                pass
            """
        ),
        # an objective drawing from the step's key (dropout), differentiated, then evaluated
        # again for a diagnostic (an NTK by `jax.jacrev`, the per-sample losses): the same
        # objective is meant; also through `jax.value_and_grad` and a logging call
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def train(params, batch, rng, log_stats):
                rng, rng1 = jax.random.split(rng)

                def per_sample_loss_fn(p):
                    mask = jax.random.bernoulli(rng1, 0.9, batch.shape)
                    return (batch * mask * p) ** 2

                def loss_fn(p):
                    return jnp.mean(per_sample_loss_fn(p))

                grad = jax.grad(loss_fn)(params)
                stats = {}
                if log_stats:
                    stats["ntk"] = jax.jacrev(per_sample_loss_fn)(params)
                    stats["td_var"] = jnp.var(per_sample_loss_fn(params))
                return params - grad, rng, stats
            """
        ),
        Valid(
            """
            import jax


            def step(w, x, key):
                key, drop = jax.random.split(key)

                def objective(v):
                    keep = jax.random.bernoulli(drop, 0.5, x.shape)
                    return ((x * keep) @ v).sum()

                value, g = jax.value_and_grad(objective)(w)
                before = objective(w)
                logged = objective(w - 0.1 * g)
                return w - 0.1 * g, key, value, before, logged
            """
        ),
        # the noise from a flax RNG stream with a new key per apply; a module built anew with
        # a split key in every iteration; one apply of a module built with a key
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from flax import linen as nn


            class NoisyDense(nn.Module):
                features: int

                @nn.compact
                def __call__(self, x):
                    w = self.param("w", nn.initializers.lecun_normal(), (x.shape[-1], self.features))
                    eps = jax.random.normal(self.make_rng("noise"), w.shape)
                    return x @ (w + 0.1 * eps)


            class Dropout(nn.Module):
                rng: jax.Array
                rate: float = 0.5

                def __call__(self, x):
                    keep = jax.random.bernoulli(self.rng, 1.0 - self.rate, x.shape)
                    return jnp.where(keep, x / (1.0 - self.rate), 0.0)


            key = jax.random.PRNGKey(0)
            key, init_key = jax.random.split(key)
            layer = NoisyDense(features=2)
            params = layer.init({"params": init_key, "noise": init_key}, jnp.ones((1, 3)))
            key, k1, k2 = jax.random.split(key, 3)
            first = layer.apply(params, jnp.ones((1, 3)), rngs={"noise": k1})
            second = layer.apply(params, jnp.ones((1, 3)), rngs={"noise": k2})
            outs = []
            for step in range(3):
                key, sub = jax.random.split(key)
                drop = Dropout(rng=sub)
                outs.append(drop.apply({}, jnp.ones(4)))
            once = Dropout(rng=jax.random.PRNGKey(1)).apply({}, jnp.ones(4))
            """
        ),
        # the first draw is never read: not by an `elif` test, not in a `try`'s `else:` (its name rebound after)
        Valid(
            """
            import jax


            def f(key, c):
                a = jax.random.normal(key, (2,))
                if c:
                    pass
                elif c > 1:
                    print("x")
                a = 0
                b = jax.random.normal(key, (2,))
                return b


            def h(key):
                try:
                    a = jax.random.normal(key, (2,))
                except ValueError:
                    pass
                else:
                    print("drawn")
                a = 0
                b = jax.random.normal(key, (2,))
                return b
            """
        ),
        # a key per element (split, unflattened, mapped with the inputs), a draw made once
        # outside the map; haiku applies of functions that draw nothing, without a key, or
        # with a new key per step
        Valid(
            """
            import haiku as hk
            import jax
            from functools import partial
            from jax import random


            def add_noise(x, key, scale=0.1):
                return x + scale * random.normal(key, x.shape)


            def perturb(params, key):
                leaves, treedef = jax.tree.flatten(params)
                keys = random.split(key, len(leaves))
                return jax.tree.unflatten(treedef, [add_noise(p, k) for p, k in zip(leaves, keys)])


            def perturb_keys(params, key):
                keys = jax.tree.unflatten(jax.tree.structure(params), list(random.split(key, len(jax.tree.leaves(params)))))
                return jax.tree.map(lambda p, k: add_noise(p, k), params, keys)


            def noisy_batch(xs, key):
                return jax.vmap(add_noise)(xs, random.split(key, xs.shape[0]))


            def mask_once(xs, key):
                mask = random.bernoulli(key, 0.5, (3,))
                return list(map(lambda x: x * mask, xs))


            def shuffle_batch(batch, key):
                # the same permutation of every leaf: rows stay aligned, on purpose
                return jax.tree.map(lambda x: random.permutation(key, x), batch)


            def pick(genotypes, key, p):
                return jax.tree.map(partial(random.choice, key, shape=(1,), p=p), genotypes)


            def linear(x):
                return hk.Linear(3)(x)


            mlp = hk.transform(linear)


            def twice(params, key, x):
                # nothing in `linear` draws: the key is not consumed
                return mlp.apply(params, key, x), mlp.apply(params, key, x)


            def dropout_fn(x):
                return hk.dropout(hk.next_rng_key(), 0.5, x)


            det = hk.without_apply_rng(hk.transform(linear))
            drop = hk.transform(dropout_fn)


            def steps(params, batches, rng):
                outs = [det.apply(params, x) for x in batches]
                for x in batches:
                    rng, sub = jax.random.split(rng)
                    outs.append(drop.apply(params, sub, x))
                return outs


            def test_same_key_same_mask(params, x):
                # a test of haiku's determinism: one key for both applies, on purpose
                key = jax.random.PRNGKey(42)
                assert (drop.apply(params, key, x) == drop.apply(params, key, x)).all()
            """
        ),
        # a loop over settings read only by a closure (synjax's tests): the same inputs for
        # each setting, on purpose
        Valid(
            """
            import jax


            def create(key):
                return [jax.random.normal(key, (3,))]


            def test_sampling_can_be_jitted():
                for algorithm in ["wilson", "colbourn"]:
                    f = jax.jit(lambda x: x * len(algorithm))
                    for dist in create(jax.random.PRNGKey(0)):
                        f(dist)
            """
        ),
        # a record built with one half of a split key, the other half drawn from
        Valid(
            """
            from typing import NamedTuple

            import jax
            import jax.numpy as jnp


            class State(NamedTuple):
                key: jax.Array
                x: jax.Array


            def init(seed):
                key = jax.random.PRNGKey(seed)
                key, sub = jax.random.split(key)
                state = State(key=key, x=jnp.zeros(3))
                noise = jax.random.normal(sub, (3,))
                return state, jax.random.normal(state.key, (3,)) + noise
            """
        ),
        # helpers that hand back a key: a new one (split inside), or the one given when the
        # caller draws from it once; a helper that splits, given a key of its own
        Valid(
            """
            import jax


            def same_key(key):
                return key


            def advance(key, n):
                key, sub = jax.random.split(key)
                return jax.random.normal(sub, (n,)), key


            def two_keys(key):
                return jax.random.split(key)


            def draw(seed):
                key = same_key(jax.random.PRNGKey(seed))
                w, key = advance(key, 3)
                key, sub = jax.random.split(key)
                b = jax.random.normal(sub, (3,))
                k1, k2 = two_keys(key)
                return w + b, k1, k2
            """
        ),
        # a test rebuilding what the code under test should have drawn, from the same key,
        # and asserting the two equal (an initializer object, an imported helper)
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            from absl.testing import absltest

            from mylib import Uniform, dense_init


            def test_dense_init():
                key = jax.random.key(0)
                w = dense_init(key, (3, 4), scale=0.5)
                np.testing.assert_allclose(w, 0.5 * jax.random.normal(key, (3, 4)))
                b = dense_init(key, (4,), scale=2.0)
                np.testing.assert_allclose(b, 2.0 * jax.random.normal(key, (4,)))


            class InitTest(absltest.TestCase):
                def test_uniform(self):
                    init = Uniform(0.1)
                    rng = jax.random.PRNGKey(1)
                    expected = jax.random.uniform(rng, (2,), minval=-0.1, maxval=0.1)
                    self.assertTrue(jnp.allclose(init(rng, (2,)), expected))
                    expected2 = jax.random.uniform(rng, (5,), minval=-0.1, maxval=0.1)
                    self.assertTrue(jnp.allclose(init(rng, (5,)), expected2))
            """
        ),
        # a test's loop over a numbered or sorted table of cases: the same inputs per case
        Valid(
            """
            import jax
            import numpy as np

            from mylib import convert


            def test_conversion_cases():
                cases = [([0, 1], [2, 3]), ([0, 1, 2], [3])]
                key = jax.random.key(0)
                for i, (src, dst) in enumerate(cases):
                    x = jax.random.randint(key, (8, len(src)), 0, 100)
                    np.testing.assert_array_equal(convert(x, src, dst, i).shape, (8, len(dst)))


            def test_sizes():
                key = jax.random.key(1)
                for n in sorted((16, 4, 8)):
                    assert jax.random.normal(key, (n,)).shape == (n,)
            """
        ),
        # the shard's index folded into the replicated key, every argument replicated (the
        # same computation on every shard), keys split per shard (`P("data")`)
        Valid(
            """
            from functools import partial

            import jax
            from jax.sharding import Mesh, PartitionSpec as P


            def _noise(key, x):
                return x + jax.random.normal(key, x.shape)


            def dropout(x, key):
                mesh = Mesh(jax.devices(), ("data",))

                @partial(jax.shard_map, mesh=mesh, in_specs=(P("data"), P()), out_specs=P("data"))
                def body(x, key):
                    key = jax.random.fold_in(key, jax.lax.axis_index("data"))
                    return _noise(key, x)

                return body(x, key)


            def replicated(x, key):
                mesh = Mesh(jax.devices(), ("data",))

                @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
                def body(x, key):
                    return _noise(key, x)

                return body(x, key)


            def per_shard(x, keys):
                mesh = Mesh(jax.devices(), ("data",))

                @partial(jax.shard_map, mesh=mesh, in_specs=(P("data"), P("data")), out_specs=P("data"))
                def body(x, keys):
                    return _noise(keys[0], x)

                return body(x, keys)
            """
        ),
        # keys split for each numpyro site; the batch mapped is `split(key, n)`; a method
        # that splits the object's key and stores a half back, whose key the caller draws from
        Valid(
            """
            import jax
            import numpyro
            import numpyro.distributions as dist


            def model(y=None, rng_key=None):
                k1, k2 = jax.random.split(rng_key)
                u = numpyro.sample("u", dist.Normal(0.0, 1.0), rng_key=k1)
                return numpyro.sample("y", dist.Normal(u, 0.1), obs=y, rng_key=k2)


            def batch(key, n):
                return jax.vmap(lambda k: jax.random.normal(k, (3,)))(jax.random.split(key, n))


            class Schedule:
                def __init__(self, key):
                    self.key = key

                def next_key(self):
                    self.key, key = jax.random.split(self.key)
                    return key


            def act(schedule: Schedule):
                return jax.random.randint(schedule.next_key(), (), 0, 4)
            """
        ),
        # the key drawn from numpyro's stream: a new one each run
        Valid(
            """
            import jax
            import numpyro
            import numpyro.distributions as dist


            def simulate(key, n, p):
                return jax.random.uniform(key, (n,)) < p


            def model(n):
                p = numpyro.sample("p", dist.Beta(2, 5))
                infected = simulate(numpyro.prng_key(), n, p)
                numpyro.deterministic("infected", infected.sum())
            """
        ),
        Valid(
            """
            import jax


            def unroll(model, variables, xs, rng):
                def step(key, x):
                    key, sub = jax.random.split(key)
                    return key, model.apply(variables, x, rngs={"dropout": sub})
                return jax.lax.scan(step, rng, xs)


            def make_sampler(name):
                draw = getattr(jax.random, name)

                def sample(state, shape):
                    key, sub = jax.random.split(state["key"])
                    state["key"] = key
                    return state, draw(sub, shape)
                return sample


            def train(rng, example_fn):
                rng, env_rng = jax.random.split(rng)
                obs = jax.random.uniform(env_rng, (4,))
                dummy_rng = jax.random.PRNGKey(0)
                batch = example_fn(dummy_rng)
                rng, init_rng = jax.random.split(rng)
                return obs, batch, jax.random.normal(init_rng, (4, 2))
            """
        ),
        # the same with a subkey per step and the new key handed back
        Valid(
            """
            import jax


            def rollout(actor, params, obs, key, n):
                def act(carry, _):
                    obs, key = carry
                    key, policy_key = jax.random.split(key)
                    pi = actor.apply(params, obs)
                    action = pi.sample(seed=policy_key)
                    return (obs, key), action
                return jax.lax.scan(act, (obs, key), None, length=n)


            @jax.jit
            def explore(obs, rng):
                rng, noise_rng = jax.random.split(rng)
                return obs + jax.random.normal(noise_rng, obs.shape), rng


            class Explorer:
                def __init__(self, seed):
                    self.rng = jax.random.PRNGKey(seed)

                def act(self, obs):
                    action, self.rng = explore(obs, self.rng)
                    return action
            """
        ),
        # one permutation for several arrays (rows kept aligned); a layer's initializer
        # given its own key; a helper given a seed per call
        Valid(
            """
            import jax
            from jax.nn.initializers import Initializer, zeros


            def minibatches(storage, advantages, key):
                key, subkey = jax.random.split(key)

                def convert_data(x):
                    return jax.random.permutation(subkey, x)

                return convert_data(storage), convert_data(advantages), key


            def layer(key, n, weight_init: Initializer, bias_init: Initializer = zeros):
                k1, k2 = jax.random.split(key)
                return weight_init(k1, (n, n)), weight_init(k2, (n, n)), bias_init(k2, (n,))


            def glorot(shape, seed=0):
                return jax.random.uniform(jax.random.PRNGKey(seed), shape)


            def init_mlp(sizes):
                return [glorot((m, n), seed=i) for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:]))]
            """
        ),
    ]

    INVALID = [
        # a literal-seed key made in a body that lax.fori_loop / lax.scan runs step after step
        Invalid(
            """
            from functools import partial

            import jax
            from jax import random


            class Denoiser:
                def _body(self, i, total, x, sigmas):
                    x_noisy = x + sigmas[i] * random.normal(random.key(0), x.shape)
                    return total + (x_noisy ** 2).mean()

                def loss(self, x, sigmas):
                    body = partial(self._body, x=x, sigmas=sigmas)
                    return jax.lax.fori_loop(0, 4, body, 0.0)


            def walk(x0):
                def step(x, _):
                    key = jax.random.PRNGKey(42)
                    x = x + jax.random.uniform(key, x.shape)
                    return x, x

                return jax.lax.scan(step, x0, None, length=10)
            """,
            expected=[(9, 35), (20, 17)],
            messages=[
                "`random.key(0)` makes the same key at every step of the `lax.fori_loop` that runs `_body` as its body, and `random.normal` draws with the same arguments (shapes of the body's arguments, the same at every step), so every step draws the same random numbers. Carry a key and split it each step, or use `jax.random.fold_in(key, i)` with the step index",
                "`key` is made from the same seed (`jax.random.PRNGKey(42)`, line 19) at every step of the `lax.scan` that runs `step` as its body, and `random.uniform` draws with the same arguments (shapes of the body's arguments, the same at every step), so every step draws the same random numbers. Carry a key and split it each step, or use `jax.random.fold_in(key, i)` with the step index",
            ],
        ),
        # a key replicated to every shard by shard_map (`P()`) while the data is split: the
        # mapped function draws from it, or hands it to a helper with the data (checked with
        # JAX on two devices: both shards' noise identical)
        Invalid(
            """
            from functools import partial

            import jax
            from jax.sharding import Mesh, PartitionSpec as P


            def _noise(key, x):
                return x + jax.random.normal(key, x.shape)


            def noisy(x, key):
                mesh = Mesh(jax.devices(), ("data",))

                def step(key, x):
                    return jax.random.uniform(key, x.shape) * x

                return jax.shard_map(step, mesh=mesh, in_specs=(P(), P("data")), out_specs=P("data"))(key, x)


            def dropout(x, key):
                mesh = Mesh(jax.devices(), ("data",))

                @partial(jax.shard_map, mesh=mesh, in_specs=(P("data"), P()), out_specs=P("data"))
                def body(x, key):
                    return _noise(key, x)

                return body(x, key)
            """,
            expected=[(8, 16), (15, 16)],
            messages=[
                "`key` is the same key on every shard: `jax.shard_map` replicates it (`P()` in `in_specs`) while it splits another argument, and `random.normal` consumes it here (`_noise` is given it by the mapped function on line 25), so every shard draws the same random numbers. Fold the shard's index in first: `jax.random.fold_in(key, jax.lax.axis_index(axis_name))`",
                "`key` is the same key on every shard: `jax.shard_map` replicates it (`P()` in `in_specs`) while it splits another argument, and `random.uniform` consumes it here, so every shard draws the same random numbers. Fold the shard's index in first: `jax.random.fold_in(key, jax.lax.axis_index(axis_name))`",
            ],
        ),
        # equinox layers draw their initial weights from `key=`: two built with one key
        # (in a Module's __init__, through a helper, in a comprehension or loop) get the same
        # weights, and a key drawn from for data then given to a layer correlates them
        Invalid(
            """
            import equinox as eqx
            import jax
            from equinox import nn


            class MLP(eqx.Module):
                l1: eqx.nn.Linear
                l2: eqx.nn.Linear

                def __init__(self, key):
                    self.l1 = eqx.nn.Linear(4, 4, key=key)
                    self.l2 = eqx.nn.Linear(4, 4, key=key)


            def make_layer(key):
                return nn.Linear(2, 2, key=key)


            def build(seed):
                key = jax.random.PRNGKey(seed)
                x = jax.random.normal(key, (8, 2))
                return x, make_layer(key)


            def stack(key, depth):
                return [eqx.nn.Linear(2, 2, key=key) for _ in range(depth)]


            def blocks(key, depth):
                out = []
                for _ in range(depth):
                    out.append(nn.MLP(2, 2, 8, 2, key=key))
                return out
            """,
            expected=[(12, 19), (22, 15), (26, 13), (32, 20)],
            messages=[
                "`key` was already consumed by `eqx.nn.Linear` on line 11: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
                "`key` was already consumed by `random.normal` on line 21: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
                "`key` is consumed by `eqx.nn.Linear` inside a comprehension but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
                "`key` is consumed by `eqx.nn.MLP` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
            ],
        ),
        # a function that makes its key from a literal seed, called in a comprehension or
        # a loop of the file: every call returns the same numbers
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def noise():
                key = jax.random.key(42)
                return jax.random.uniform(key, (2,))


            def jitter(x):
                return x + jax.random.normal(jax.random.PRNGKey(0), (3,))


            samples = [noise() for _ in range(5)]
            ys = []
            for x in jnp.ones((4, 3)):
                ys.append(jitter(x))
            """,
            expected=[(7, 12), (11, 16)],
            messages=[
                "`key` is made from the same seed (`jax.random.key(42)`, line 6) on every call of `noise`, which this file calls in a loop or a comprehension, and `random.uniform` draws with the same arguments, so every call returns the same random numbers. Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`",
                "`jax.random.PRNGKey(0)` makes the same key on every call of `jitter`, which this file calls in a loop or a comprehension, and `random.normal` draws with the same arguments, so every call returns the same random numbers. Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`",
            ],
        ),
        # the key handed to a jitted function in every iteration: through the name a
        # `jax.jit(noisy)` is bound to (a `while` loop), or an inline `jax.jit(noisy)(x, key)`
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def noisy(x, key):
                return x + jax.random.normal(key, x.shape)


            def run(x, steps):
                key = jax.random.key(1)
                step = jax.jit(noisy)
                i = 0
                while i < steps:
                    x = step(x, key)
                    i += 1
                return x


            def run_inline(x, steps):
                key = jax.random.PRNGKey(0)
                for _ in range(steps):
                    x = jax.jit(noisy)(x, key)
                return x
            """,
            expected=[(14, 13), (22, 13)],
            messages=[
                "`key` is consumed by `random.normal` via `step` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
                "`key` is consumed by `random.normal` via `noisy` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
            ],
        ),
        # the twin of the valid re-split: another array is split, but `keys` is not
        Invalid(
            """
            from jax import random

            def demo():
                keys = random.split(random.PRNGKey(0), 3)
                a = random.normal(keys[0], (2,))
                others = random.split(random.PRNGKey(7), 3)
                c = random.normal(keys[0], (2,))
                return a, c, others
            """,
            expected=[(7, 9)],
            messages=[
                "`keys[0]` was already consumed by `random.normal` on line 5: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(keys[0])`, and give each call its own key",
            ],
        ),
        # a key of the enclosing scope in a function that a tree map, `map` or `vmap` runs
        # once for every element (a lambda, a def, a helper, a `partial` binding the key)
        Invalid(
            """
            import jax
            from functools import partial
            from jax import random, tree_util


            def add_noise(x, key, scale=0.1):
                return x + scale * random.normal(key, x.shape)


            def private_grads(grads, rng, std):
                tree_map = tree_util.tree_map
                noise = lambda g: g + std * random.normal(rng, g.shape)
                return tree_map(noise, grads)


            def jitter(points, rng):
                def shake(p):
                    return p + random.uniform(rng, p.shape)
                return list(map(shake, points))


            def perturb(params, key):
                return jax.tree.map(lambda p: add_noise(p, key), params)


            def perturb_partial(params, key):
                return tree_util.tree_map(partial(add_noise, key=key), params)


            def noisy_batch(xs, key):
                return jax.vmap(partial(add_noise, key=key))(xs)
            """,
            expected=[(12, 33), (18, 20), (23, 35), (27, 54), (31, 44)],
            messages=[
                "`rng` comes from the enclosing scope and is consumed by `random.normal` in `noise`, which `tree_map` calls once for every element (line 13): every element draws the same random numbers. Give the function a key parameter and map a fresh key with each element (`jax.random.split(rng, n)`, unflattened into the tree's structure for a tree map)",
                "`rng` comes from the enclosing scope and is consumed by `random.uniform` in `shake`, which `map` calls once for every element (line 19): every element draws the same random numbers. Give the function a key parameter and map a fresh key with each element (`jax.random.split(rng, n)`, unflattened into the tree's structure for a tree map)",
                "`key` comes from the enclosing scope and is consumed by `add_noise()` in the function, which `jax.tree.map` calls once for every element (line 23): every element draws the same random numbers. Give the function a key parameter and map a fresh key with each element (`jax.random.split(key, n)`, unflattened into the tree's structure for a tree map)",
                '`key` is bound by `partial` to `add_noise`, which draws from it with `random.normal`, and `tree_util.tree_map` calls it once for every element: every element draws the same random numbers. Map a fresh key with each element (`jax.random.split(key, n)`) instead of binding one',
                '`key` is bound by `partial` to `add_noise`, which draws from it with `random.normal`, and `jax.vmap` calls it once for every element: every element draws the same random numbers. Map a fresh key with each element (`jax.random.split(key, n)`) instead of binding one',
            ],
        ),
        # haiku: the apply of a transformed function that draws from haiku's key stream
        # consumes its key (twice with one key, or in every iteration of a loop)
        Invalid(
            """
            import haiku as hk
            import jax


            def forward(x):
                return hk.dropout(hk.next_rng_key(), 0.5, x)


            f = hk.transform(forward)


            def same_mask(params, key, x):
                out1 = f.apply(params, key, x)
                out2 = f.apply(params, key, x)
                return out1, out2


            class Block(hk.Module):
                def __call__(self, x):
                    return hk.dropout(hk.next_rng_key(), 0.1, hk.Linear(4)(x))


            def net_fn(x):
                return Block()(x)


            net = hk.transform_with_state(net_fn)


            def train(params, state, batches, rng):
                for x in batches:
                    out, state = net.apply(params, state, rng, x)
                return out
            """,
            expected=[(14, 12), (32, 22)],
            messages=[
                '`key` was already consumed by `f.apply()` on line 13: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key',
                '`rng` is consumed by `hk.dropout` via `net.apply` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`rng, sub = jax.random.split(rng)`) or use `jax.random.fold_in(rng, i)`',
            ],
        ),
        # a closure that samples noise, never differentiated, called twice: the same noise
        Invalid(
            """
            import jax


            def augment_twice(x, rng):
                rng, noise_rng = jax.random.split(rng)

                def noisy(v):
                    return v + jax.random.normal(noise_rng, v.shape)

                return noisy(x), noisy(x * 2), rng
            """,
            expected=[(8, 20)],
            messages=[
                "`noise_rng` comes from the enclosing scope and is consumed by `random.normal` in `noisy`, which is called 2 times (first on line 10): every call draws the same random numbers. Give `noisy` a key parameter and pass a fresh key to each call",
            ],
        ),
        # in a test, but the loop runs steps, not cases: every step draws the same noise
        Invalid(
            """
            from jax import random


            def test_training_noise():
                rng = random.PRNGKey(0)
                for step in range(3):
                    noise = random.normal(rng, shape=(2, 8))
                    assert noise.shape == (2, 8), step
            """,
            expected=[(7, 17)],
            messages=[
                "`rng` is consumed by `random.normal` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`rng, sub = jax.random.split(rng)`) or use `jax.random.fold_in(rng, i)`",
            ],
        ),
        # the record copied with another field replaced still holds the split key; a
        # loop that splits the attribute but never stores a new one back
        Invalid(
            """
            import jax


            def body(state):
                key, ephemeral_key = jax.random.split(state.key, 2)
                state = state._replace(step=state.step + 1)
                return jax.random.normal(state.key, (3,)), ephemeral_key


            class Buffer:
                def sample(self, n):
                    self._rng, rng = jax.random.split(self._rng)
                    out = [jax.random.randint(rng, (1,), 0, 10)]
                    while len(out) < n:
                        other, rng = jax.random.split(self._rng)
                        out.append(jax.random.randint(rng, (1,), 0, 10))
                    return out
            """,
            expected=[(7, 12), (15, 26)],
            messages=[
                "`state.key` was already split on line 5; a split key must not be used again. Use the keys `split` returned (e.g. `state.key, sub = jax.random.split(state.key)` and pass `sub`)",
                "`self._rng` is consumed by `random.split` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`self._rng, sub = jax.random.split(self._rng)`) or use `jax.random.fold_in(self._rng, i)`",
            ],
        ),
        Invalid(
            """
            import jax

            def noisy_batch(key, xs):
                def one(x):
                    return x + jax.random.normal(key, x.shape)

                return jax.vmap(one)(xs)

            def init_weights(shape, key=jax.random.PRNGKey(0)):
                return jax.random.normal(key, shape) * 0.02

            def add_noise(key, x):
                return x + 0.1 * jax.random.normal(key, x.shape)

            def diffuse(key, x, steps=3):
                for _ in range(steps):
                    x = add_noise(key, x)
                return x

            def mlp_params():
                return init_weights((4, 8)), init_weights((8, 8)), init_weights((8,), jax.random.PRNGKey(1))
            """,
            expected=[(5, 20), (9, 29), (17, 13)],
            messages=[
                "`key` comes from the enclosing scope and is consumed by `random.normal` inside a function mapped by jax.vmap: every element of the batch uses the same key and draws the same random numbers. Map per-element keys with the inputs (`jax.vmap(f)(xs, jax.random.split(key, n))`)",
                "`key` defaults to a key built once, when `init_weights` is defined, and 2 calls here leave it out (the first on line 21): they all draw the same random numbers. Make `key` a required argument and pass a fresh key to each call",
                "`key` is consumed by `random.normal` via `add_noise` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
            ],
        ),
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
            # a helper that hands its key to another consumes it too
            """
            import jax

            def sample(key, x):
                return x + jax.random.normal(key, x.shape)

            def wrapped(key, x):
                return sample(key, x)

            def main(x):
                key = jax.random.PRNGKey(0)
                a = wrapped(key, x)
                b = jax.random.uniform(key, x.shape)
                return a, b
            """,
            expected=[(12, 9)],
            messages=[
                "`key` was already consumed by `wrapped()` on line 11: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
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
        # a jitted step whose nested loss draws from its key, given the same key every iteration
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def train_step(params, x, dropout_key):
                def loss_fn(p):
                    keep = jax.random.bernoulli(dropout_key, 0.5, x.shape)
                    return jnp.sum(jnp.where(keep, x * p, 0.0))

                return params - 0.1 * jax.grad(loss_fn)(params)


            def train(params, batches, dropout_key):
                for x in batches:
                    params = train_step(params, x, dropout_key)
                return params
            """,
            expected=[(16, 18)],
            messages=[
                "`dropout_key` is consumed by `random.bernoulli` via `train_step` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`dropout_key, sub = jax.random.split(dropout_key)`) or use `jax.random.fold_in(dropout_key, i)`",
            ],
        ),
        # flax: rngs= of apply given the same key every iteration
        Invalid(
            """
            import flax.linen as nn
            import jax
            import jax.numpy as jnp


            class Model(nn.Module):
                @nn.compact
                def __call__(self, x, train: bool):
                    return nn.Dropout(0.5, deterministic=not train)(nn.Dense(4)(x))


            def evaluate_noise(variables, xs, key):
                model = Model()
                outs = []
                for x in xs:
                    outs.append(model.apply(variables, x, train=True, rngs={"dropout": key}))
                return outs
            """,
            expected=[(16, 21)],
            messages=[
                "`key` is consumed by `model.apply(rngs=...)` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
            ],
        ),
        # a key made from the same seed in every iteration
        Invalid(
            """
            import jax
            from jax import random


            def noisy_runs(x, n):
                out = []
                for _ in range(n):
                    key = random.PRNGKey(42)
                    out.append(x + random.normal(key, x.shape))
                return out


            samples = [jax.random.uniform(jax.random.key(0), (3,)) for _ in range(4)]
            """,
            expected=[(9, 24), (13, 12)],
            messages=[
                "`key` is made from the same seed (`random.PRNGKey(42)`, line 8) in every iteration of the loop and `random.normal` draws with the same arguments, so every iteration gets the same random numbers. Create the key once before the loop and split it each iteration, or use `jax.random.fold_in(key, i)`",
                "`jax.random.key(0)` makes the same key in every iteration of the comprehension and `random.uniform` draws with the same arguments, so every iteration gets the same random numbers. Create the key once before the comprehension and split it each iteration, or use `jax.random.fold_in(key, i)`",
            ],
        ),
        # a key captured by a function or a lambda called more than once
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            key = jax.random.PRNGKey(0)


            def noise(x):
                return x + jax.random.normal(key, x.shape)


            def run(x, steps):
                for _ in range(steps):
                    x = noise(x)
                return x


            def pair(shape, seed):
                k = jax.random.PRNGKey(seed)
                draw = lambda: jax.random.uniform(k, shape)
                return draw(), draw()
            """,
            expected=[(8, 16), (19, 20)],
            messages=[
                "`key` comes from the enclosing scope and is consumed by `random.normal` in `noise`, which is called in a loop (first on line 13): every call draws the same random numbers. Give `noise` a key parameter and pass a fresh key to each call",
                "`k` comes from the enclosing scope and is consumed by `random.uniform` in `draw`, which is called 2 times (first on line 20): every call draws the same random numbers. Give `draw` a key parameter and pass a fresh key to each call",
            ],
        ),
        # a function given a key that draws from a fixed seed instead
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import random


            def dropout(x, rate, rng=None):
                rng = random.PRNGKey(0)
                keep = random.bernoulli(rng, rate, x.shape)
                return jnp.where(keep, x / rate, 0.0)


            def apply_fun(params, inputs, **kwargs):
                rng = kwargs.get("rng", None)
                rng = random.PRNGKey(0)
                return inputs + random.normal(rng, inputs.shape)
            """,
            expected=[(8, 12), (15, 21)],
            messages=[
                "`dropout` is given a key (`rng`, line 6) but never uses it: `random.bernoulli` draws from `random.PRNGKey(0)`, a fixed seed, so every call of `dropout` draws the same random numbers. Draw with the key it is given",
                "`apply_fun` is given a key (`rng`, line 13) but never uses it: `random.normal` draws from `random.PRNGKey(0)`, a fixed seed, so every call of `apply_fun` draws the same random numbers. Draw with the key it is given",
            ],
        ),
        # one helper called twice with the same key and the same arguments
        Invalid(
            """
            import jax


            def uniform_noise(key, shape):
                return jax.random.uniform(key, shape)


            def main():
                key = jax.random.PRNGKey(0)
                a = uniform_noise(key, (10, 10))
                b = uniform_noise(key, (10, 10))
                return a, b
            """,
            expected=[(11, 9)],
            messages=[
                "`key` was already consumed by `uniform_noise()` on line 10: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
            ],
        ),
        # an equinox module's key field (immutable, fixed when the module is built) drawn
        # from in a method, or handed on as a helper's `key=`
        Invalid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp


            def add_noise(x, scale, key):
                return x + scale * jax.random.normal(key, x.shape)


            class NoisyLayer(eqx.Module):
                weight: jax.Array
                noise_key: jax.Array

                def __init__(self, size, key):
                    wkey, self.noise_key = jax.random.split(key)
                    self.weight = jax.random.normal(wkey, (size, size))

                def __call__(self, x):
                    return add_noise(self.weight @ x, 0.1, key=self.noise_key)


            class DropPath(eqx.Module):
                rate: float
                rng: jax.Array

                def mask(self, shape):
                    return jax.random.bernoulli(self.rng, 1.0 - self.rate, shape)

                def __call__(self, x):
                    return jnp.where(self.mask(x.shape), x / (1.0 - self.rate), 0.0)
            """,
            expected=[(19, 16), (27, 16)],
            messages=[
                "`self.noise_key` is a field of the module `NoisyLayer`, fixed when the module is built, and `__call__` draws from it with `add_noise(key=...)`: every call of `__call__` draws the same random numbers. Take a key argument (`def __call__(self, x, *, key)`) and pass a new one at each call",
                "`self.rng` is a field of the module `DropPath`, fixed when the module is built, and `mask` draws from it with `random.bernoulli`: every call of `mask` draws the same random numbers. Take a key argument (`def __call__(self, x, *, key)`) and pass a new one at each call",
            ],
        ),
        # a key stored on the object when it is built, drawn from by a method that never replaces it
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Agent:
                def __init__(self, seed):
                    self.rng = jax.random.PRNGKey(seed)

                def act(self, logits):
                    return jax.random.categorical(self.rng, logits)


            class Noise:
                def __init__(self, key, scale):
                    self.key = key
                    self.scale = scale

                def __call__(self, x):
                    return x + self.scale * jax.random.normal(self.key, x.shape)
            """,
            expected=[(10, 16), (19, 33)],
            messages=[
                "`self.rng` is set only when the object is built and `act` draws from it with `random.categorical` without replacing it, so every call of `act` draws the same random numbers. Split it in the method (`self.rng, sub = jax.random.split(self.rng)`) and draw with `sub`",
                "`self.key` is set only when the object is built and `__call__` draws from it with `random.normal` without replacing it, so every call of `__call__` draws the same random numbers. Split it in the method (`self.key, sub = jax.random.split(self.key)`) and draw with `sub`",
            ],
        ),
        # flax: a jitted train step whose loss applies the model with rngs={"dropout": key}, given the same key every step
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def train_step(state, batch, dropout_key):
                def loss_fn(params):
                    logits = state.apply_fn({"params": params}, batch["x"], training=True,
                                            rngs={"dropout": dropout_key})
                    return jnp.mean((logits - batch["y"]) ** 2)

                grads = jax.grad(loss_fn)(state.params)
                return state.apply_gradients(grads=grads)


            def train_loop(state, batches, dropout_key):
                for batch in batches:
                    state = train_step(state, batch, dropout_key)
                return state
            """,
            expected=[(18, 17)],
            messages=[
                "`dropout_key` is consumed by `rngs=` via `train_step` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`dropout_key, sub = jax.random.split(dropout_key)`) or use `jax.random.fold_in(dropout_key, i)`",
            ],
        ),
        # a flax module built with a key field that its methods draw from: every apply of
        # that module draws the same numbers (dopamine#189's NoisyNetwork): two applies in
        # a row, a helper method drawing in every iteration of a loop
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from flax import linen as nn


            class NoisyDense(nn.Module):
                features: int
                noise_key: jax.Array

                @nn.compact
                def __call__(self, x):
                    w = self.param("w", nn.initializers.lecun_normal(), (x.shape[-1], self.features))
                    eps = jax.random.normal(self.noise_key, w.shape)
                    return x @ (w + 0.1 * eps)


            key = jax.random.PRNGKey(0)
            key, net_key, init_key = jax.random.split(key, 3)
            layer = NoisyDense(features=2, noise_key=net_key)
            params = layer.init(init_key, jnp.ones((1, 3)))
            first = layer.apply(params, jnp.ones((1, 3)))
            second = layer.apply(params, jnp.ones((1, 3)))


            class Dropout(nn.Module):
                rng: jax.Array
                rate: float = 0.5

                def mask(self, shape):
                    return jax.random.bernoulli(self.rng, 1.0 - self.rate, shape)

                def __call__(self, x):
                    return jnp.where(self.mask(x.shape), x / (1.0 - self.rate), 0.0)


            drop_key = jax.random.PRNGKey(1)
            drop = Dropout(rng=drop_key)
            outs = []
            for step in range(3):
                outs.append(drop.apply({}, jnp.ones(4) * step))
            """,
            expected=[(22, 10), (40, 17)],
            messages=[
                "`layer.apply` draws with `random.normal` from the module field `noise_key`, the key `net_key` it was built with, which `layer.apply()` already used on line 21: both get the same random numbers. Draw from a flax RNG stream instead (`self.make_rng(\"noise\")` in the module, `rngs={\"noise\": key}` with a new key at each apply)",
                "`drop.apply` draws with `random.bernoulli` from the module field `rng`, the key `drop_key` it was built with, in every iteration: each apply draws the same random numbers. Draw from a flax RNG stream instead (`self.make_rng(\"noise\")` in the module, `rngs={\"noise\": key}` with a new key at each apply)",
            ],
        ),
        # the first draw is read by an `elif` test, or in a `try`'s `else:` block, before its name is rebound
        Invalid(
            """
            import jax


            def f(key, c):
                a = jax.random.normal(key, (2,))
                if c:
                    pass
                elif a.sum() > 0:
                    print("x")
                a = 0
                b = jax.random.normal(key, (2,))
                return b


            def h(key):
                try:
                    a = jax.random.normal(key, (2,))
                except ValueError:
                    pass
                else:
                    print(a)
                b = jax.random.normal(key, (2,))
                return b
            """,
            expected=[(11, 9), (22, 9)],
            messages=[
                "`key` was already consumed by `random.normal` on line 5: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
                "`key` was already consumed by `random.normal` on line 17: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
            ],
        ),
        # a helper hands back the key it was given (an identity, or a tuple after drawing
        # from it): the caller's two names hold one key
        Invalid(
            """
            import jax


            def same_key(key):
                return key


            def draw(seed):
                key = jax.random.PRNGKey(seed)
                k2 = same_key(key)
                a = jax.random.normal(key, (3,))
                b = jax.random.normal(k2, (3,))
                return a + b


            class Init:
                def weights(self, key, n):
                    w = jax.random.normal(key, (n,))
                    return w, key

                def build(self, key):
                    w1, key = self.weights(key, 3)
                    w2 = jax.random.uniform(key, (3,))
                    return w1 + w2
            """,
            expected=[(12, 9), (23, 14)],
            messages=[
                "`k2` is the same key as `key`, which was already consumed by `random.normal` on line 11: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(k2)`, and give each call its own key",
                "`key` was already consumed by `self.weights()` on line 22: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
            ],
        ),
        # a record built with the key holds it: drawing from its field and from the name
        Invalid(
            """
            from typing import NamedTuple

            import jax
            import jax.numpy as jnp


            class State(NamedTuple):
                key: jax.Array
                x: jax.Array


            def init(seed):
                key = jax.random.PRNGKey(seed)
                state = State(key=key, x=jnp.zeros(3))
                noise = jax.random.normal(key, (3,))
                return state, jax.random.normal(state.key, (3,)) + noise
            """,
            expected=[(16, 19)],
            messages=[
                "`state.key` is the same key as `key`, which was already consumed by `random.normal` on line 15: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(state.key)`, and give each call its own key",
            ],
        ),
        # a helper splits the key it is given: the caller drawing from that key again
        Invalid(
            """
            import jax


            def two_keys(key):
                return jax.random.split(key)


            def init(key):
                k_w, k_b = two_keys(key)
                noise = jax.random.normal(key, (3,))
                return k_w, k_b, noise
            """,
            expected=[(10, 13)],
            messages=[
                "`key` was already split by `two_keys()` on line 9; a split key must not be used again. Use the keys `two_keys()` returned (e.g. `key, sub = jax.random.split(key)` and pass `sub`)",
            ],
        ),
        # ... one that splits it inside and gives an array back: no keys to use, split first
        Invalid(
            """
            import jax


            def random_crop(key, img, size):
                kx, ky = jax.random.split(key)
                x0 = jax.random.randint(kx, (), 0, img.shape[1] - size + 1)
                y0 = jax.random.randint(ky, (), 0, img.shape[0] - size + 1)
                return jax.lax.dynamic_slice(img, (y0, x0), (size, size))


            def augment(k, img):
                img = random_crop(k, img, 24)
                return jax.numpy.where(jax.random.bernoulli(k), img[:, ::-1], img)
            """,
            expected=[(13, 28)],
            messages=[
                "`k` was already split inside `random_crop()` on line 12, which draws from the keys it makes; a split key must not be used again. Split it first, e.g. `k1, k2 = jax.random.split(k)`, and give each call its own key",
            ],
        ),
        # the twins: the second draw compared with itself, or with a sum that reads the
        # first draw of the same key too
        Invalid(
            """
            import jax
            import numpy as np

            from mylib import scale


            def test_scale():
                key = jax.random.key(0)
                x = jax.random.normal(key, (100,))
                y = jax.random.normal(key, (100,))
                assert np.allclose(scale(y, 2.0), 2.0 * y)
                assert x.std() > 0.5


            def test_dense_init_changes():
                key = jax.random.key(0)
                w = scale(key, 1.0)
                a = jax.random.normal(key, (3,))
                b = jax.random.normal(key, (3,))
                np.testing.assert_allclose(w, a + b)
            """,
            expected=[(10, 9), (19, 9)],
            messages=[
                "`key` was already consumed by `random.normal` on line 9: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
                "`key` was already consumed by `random.normal` on line 18: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
            ],
        ),
        # numpyro draws from the key it is given: two sample sites given one key
        Invalid(
            """
            import numpyro
            import numpyro.distributions as dist


            def model(y=None, rng_key=None):
                u = numpyro.sample("u", dist.Normal(0.0, 1.0), rng_key=rng_key)
                return numpyro.sample("y", dist.Normal(u, 0.1), obs=y, rng_key=rng_key)
            """,
            expected=[(7, 12)],
            messages=[
                "`rng_key` was already consumed by `numpyro.sample(rng_key=...)` on line 6: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng_key)`, and give each call its own key",
            ],
        ),
        # one key copied into every row of the batch a mapped function draws from
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def draw(key):
                return jax.random.normal(key, (3,))


            def batch(n):
                key = jax.random.PRNGKey(0)
                return jax.vmap(draw)(jnp.repeat(key[None, :], n, axis=0))
            """,
            expected=[(11, 27)],
            messages=[
                "every row of this batch is the key `key` copied: `jax.vmap` gives each element the same key, and `draw` draws from it with `random.normal`, so every element draws the same random numbers. Map one key per element: `jax.random.split(key, n)`",
            ],
        ),
        # a key an object keeps as a stream, drawn from directly where its method splits it again
        Invalid(
            """
            import jax


            class Schedule:
                def __init__(self, key):
                    self.key = key

                def explore(self):
                    self.key, key = jax.random.split(self.key)
                    return jax.random.uniform(key) < 0.1


            def act(schedule: Schedule):
                if schedule.explore():
                    return jax.random.randint(schedule.key, (), 0, 4)
                return 0
            """,
            expected=[(15, 16)],
            messages=[
                "`schedule.key` is the key `Schedule.explore` splits and stores back at each call: `random.randint` draws from it here, and the next `schedule.explore()` splits that same key again, so this draw and the keys that split gives are tied (JAX's key-reuse checker raises KeyReuseError for a typed key). Draw from a key split off it (`schedule.key, sub = jax.random.split(schedule.key)`, then `sub`), or from one `explore` hands out",
            ],
        ),
        # the twin: `enumerate` of the data (not a table of cases) in a test
        Invalid(
            """
            import jax


            def test_rollouts(batches):
                key = jax.random.key(0)
                for i, batch in enumerate(batches):
                    noise = jax.random.normal(key, batch.shape)
                    assert (batch + noise).shape == batch.shape
            """,
            expected=[(7, 17)],
            messages=[
                "`key` is consumed by `random.normal` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
            ],
        ),
        # a fixed-seed key drawn beside numpyro's key stream: every run of the model replays it
        Invalid(
            """
            import jax
            import numpyro
            import numpyro.distributions as dist


            def simulate(key, n, p):
                return jax.random.uniform(key, (n,)) < p


            def model(n):
                p = numpyro.sample("p", dist.Beta(2, 5))
                infected = simulate(jax.random.PRNGKey(0), n, p)
                numpyro.deterministic("infected", infected.sum())
            """,
            expected=[(12, 16)],
            messages=[
                "`model` draws from numpyro's key stream (`numpyro.sample`), a new key each time it runs, but `simulate()` draws from `jax.random.PRNGKey(0)`, a fixed seed: every run of `model` replays the same random numbers there. Draw that key from the stream (`numpyro.prng_key()`)",
            ],
        ),
        # a scan body handing the enclosing key to flax's rngs=; a sampler chosen by name
        # whose key is split after the draw; a derived key rebound to a literal seed
        Invalid(
            """
            import jax


            def unroll(model, variables, xs, rng):
                def step(carry, x):
                    return carry, model.apply(variables, x, rngs={"dropout": rng})
                return jax.lax.scan(step, 0, xs)


            def make_sampler(name):
                draw = getattr(jax.random, name)

                def sample(state, shape):
                    key = state["key"]
                    x = draw(key, shape)
                    state["key"] = jax.random.split(key)[0]
                    return state, x
                return sample


            def train(rng):
                rng, env_rng = jax.random.split(rng)
                obs = jax.random.uniform(env_rng, (4,))
                rng = jax.random.PRNGKey(0)
                rng, init_rng = jax.random.split(rng)
                return obs, jax.random.normal(init_rng, (4, 2))
            """,
            expected=[(6, 23), (16, 24), (24, 5)],
            messages=[
                "`rng` comes from the enclosing scope and is consumed by `model.apply(rngs=...)` inside a lax.scan body, which runs every iteration with the same key: every step draws the same random numbers. Carry the key through the loop and split it each step, or pass per-step keys as `xs` (`jax.random.split(rng, n)`)",
                "`key` was already consumed by `draw = getattr(jax.random, ...)` on line 15 and is split here: JAX promises independent random numbers only for a key used once (with `jax_debug_key_reuse` on, this split raises KeyReuseError for a typed key from `jax.random.key`). Split before the first use, e.g. `key, sub = jax.random.split(key)`, and draw with `sub`",
                "`rng` holds a key derived from the one `train` is given (line 22) and is rebound here, unread, to `jax.random.PRNGKey(0)`, a fixed seed: every key drawn from `rng` after this line is the same whatever key `train` is given. Give the fixed key its own name and go on splitting `rng`",
            ],
        ),
        # a scan body sampling a policy head with its carried key and returning it unchanged;
        # a function handing back the key it drew from to a caller that keeps it as state
        Invalid(
            """
            import jax


            def rollout(actor, params, obs, key, n):
                def act(carry, _):
                    obs, key = carry
                    pi = actor.apply(params, obs)
                    action = pi.sample(seed=key)
                    return (obs, key), action
                return jax.lax.scan(act, (obs, key), None, length=n)


            @jax.jit
            def explore(obs, rng):
                return obs + jax.random.normal(rng, obs.shape), rng


            class Explorer:
                def __init__(self, seed):
                    self.rng = jax.random.PRNGKey(seed)

                def act(self, obs):
                    action, self.rng = explore(obs, self.rng)
                    return action
            """,
            expected=[(8, 18), (15, 53)],
            messages=[
                "`key` comes in with the lax.scan carry, is consumed by `pi.sample(seed=...)` here and returned unchanged as the new carry: every step is handed the same key and draws the same random numbers. Split it each step (`key, sub = jax.random.split(key)`), pass `sub` here and return the new `key`",
                "`rng` is returned to the caller, but `random.normal` on line 15 already consumed it: `act` keeps it as `self.rng`, and its next use of that key draws the same random numbers again. Return the key that was kept back (`rng, sub = jax.random.split(rng)` before drawing with `sub`, or the key the loop carried out)",
            ],
        ),
        Invalid(
            """
            import jax
            from jax.nn.initializers import Initializer


            def layer(key, n, weight_init: Initializer):
                return weight_init(key, (n, n)), weight_init(key, (n, n))


            def glorot(shape, seed=0):
                return jax.random.uniform(jax.random.PRNGKey(seed), shape)


            def init_mlp(sizes):
                return [glorot((m, n)) for m, n in zip(sizes[:-1], sizes[1:])]


            def predict(rng, q_hidden, q_out):
                def expanded_sample(distribution):
                    return distribution.sample(10, seed=rng)

                return expanded_sample(q_hidden), q_out.sample(seed=rng)
            """,
            expected=[(6, 38), (10, 12), (21, 39)],
            messages=[
                "`key` was already consumed by `weight_init(...)` on line 6: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
                "`jax.random.PRNGKey(seed)` makes the same key on every call of `glorot`, which this file calls in a loop or a comprehension (line 14), and `random.uniform` draws from it, so every call with the same shapes returns the same random numbers. Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`",
                "`rng` was already consumed by `expanded_sample()` on line 21: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng)`, and give each call its own key",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # function -> its assertions of equality, assignments and draws' derived names (_asserted_equal)
        self._equal_memo: dict = {}
        self._parents: dict = {}  # function -> its parent map (_expected_only)
        self._loop_names: dict[int, set[str]] = {}
        self._fixed_reported: set[tuple[int, int]] = set()
        self._stored_reported: set[tuple[int, str]] = set()
        self._stored_checked: set[tuple[int, str]] = set()
        self._sites: dict[tuple, list] = {}
        self._writes_memo: dict[tuple[int, str], list] = {}
        self._raising: dict[int, set[int]] = {}
        # helper calls (as `how`) that split the key they are given
        self._split_helpers: set[str] = set()
        self._keyless_split_helpers: set[str] = set()  # of those, the ones whose call gives an array back
        # library constructors' names (as `how`) that drew from a key given to them
        self._library_hows: set[str] = set()
        # (id(unit), id(key token)) -> every call that drew from it, in walk order
        self._draws: dict[tuple[int, int], list] = {}
        # mapped calls reported for a key given unmapped to every element
        self._broadcast: set[int] = set()
        self._replicated_done: set[tuple[int, str]] = set()  # (unit, key parameter) reported
        # key token serial -> the consumption that stands for a discarded warm-up call's
        self._superseded: dict[int, tuple] = {}
        # transformed calls outside loops that consumed a key (`jax.jit(f)(key, x)`)
        self._transformed: set[int] = set()
        self._looped_memo: Optional[set[int]] = None  # the calls of the file in loops
        # (earlier consumption, statement) already reported: one finding per statement
        self._reused_in_statement: set[tuple[int, int]] = set()
        self._statement_memo: dict[int, tuple] = {}  # unit -> (its node, _statements of it)
        self._draw_how: dict[int, str] = {}  # each consumption's `how`
        self._stream_reported: set[int] = set()  # draws from an object's key stream reported
        # (class, `self.key`) -> (method, call, how) of the first consumption in each method
        self._method_draws: dict[tuple[int, str], list] = {}
        # library draws (`numpyro.sample(..., rng_key=k)`): call -> the key argument
        self._library_keys: dict[int, cst.BaseExpression] = {}
        self._flax_inits: set[int] = set()  # `model.init(key, x)` calls that consumed a key
        self._file_expects_raises: Optional[bool] = None  # "aises" anywhere in the file
        self._file_makes_keys: Optional[bool] = None  # a key made from a seed anywhere in it
        self._file_draws: Optional[bool] = None  # "random" or "rngs" anywhere in it (_record_keeps_key)

    def _expected_to_raise(self) -> set[int]:
        """The nodes of this function inside a block that expects an exception
        (``with pytest.raises(...)``, ``with self.assertRaises(...)``,
        ``assertRaisesRegex``, ``np.testing.assert_raises``)."""
        unit = self.ctx.unit
        got = self._raising.get(id(unit))
        if got is None:
            got = set()
            root = unit.node
            if self._file_expects_raises is None:  # once per file (a codegen per unit was quadratic-ish)
                self._file_expects_raises = "aises" in self.ctx.text
            if self._file_expects_raises:
                for n in walk_tree(root, lambda c: c is not root and isinstance(c, (cst.FunctionDef, cst.ClassDef))):
                    if isinstance(n, cst.With) and any(
                            isinstance(i.item, cst.Call) and (dotted_name(i.item.func) or "").rsplit(".", 1)[-1]
                            in ("raises", "assertRaises", "assertRaisesRegex", "assert_raises", "assertRaisesRegexp")
                            for i in n.items):
                        got.update(id(c) for c in walk_tree(n.body))
            self._raising[id(unit)] = got
        return got

    def _helper_consumes(self, node: cst.Call) -> None:
        """``helper(key, x)`` where ``helper`` (a function of this file, or one imported
        from the project) hands that parameter straight to a jax.random consumer."""
        ctx = self.ctx
        consumed = ctx.key_consumer(node)
        if consumed and not ctx.loop_stack and _in_test(ctx.unit) and (
                type(node.func) is cst.Call or ctx.value(node.func).transform is not None):
            return  # `jax.jit(f)(key, x)` against `f(key, x)`: a test comparing two computations under one key
        if consumed and not ctx.loop_stack and (
                type(node.func) is cst.Call or ctx.value(node.func).transform is not None):
            self._transformed.add(id(node))
        for arg, helper, sampler in consumed:
            if sampler.startswith("hk.") and _in_test(ctx.unit):
                continue  # a test comparing applies under one key (haiku's determinism)
            if sampler.startswith(("hk.", "rngs=")) and _evaluation_call(node):
                continue  # `f.apply(params, key, x, is_training=False)`: an evaluation apply
            token = ctx.key_token(arg)
            if token is None:
                continue
            if self._closure_key_in_loop_body(arg, node, f"{sampler}` via `{helper}"):
                continue  # a scan/fori_loop body handing the helper the enclosing scope's key
            if isinstance(arg, cst.Name) and sampler not in self._SELECTORS \
                    and not any(t is token for t, _ in ctx.consumed_keys()) and (
                    self._closure_key_in_mapped_fn(arg, node, f"{helper}()")
                    or self._closure_key_called_again(arg, node, f"{helper}()")):
                continue  # a closure run many times, each run handing the helper the same key
            self._fixed_seed_in_loop(node, arg, token, f"{helper}()") \
                or self._fixed_seed_beside_stream(node, arg, token, f"{helper}()")
            if ctx.loop_stack and ctx.loop_stack[-1].depth > token.loop_depth:
                # a key from outside the loop: every iteration consumes it again
                ctx.consume_key(token, node, f"{sampler}` via `{helper}")
            else:
                if sampler == "split":
                    # a helper that splits the key it is given hands keys down: a draw from
                    # that key (before or after) repeats one of the halves' bits; the caller
                    # splitting the same key again is a subtler correlation than this rule's
                    self._split_helpers.add(f"{helper}()")
                    if ctx.value(node).kind in (V.ARRAY, V.NPARRAY, V.ARRAYS, V.STATIC):
                        # its call gives an array back, no key (`img = random_crop(k, img)`)
                        self._keyless_split_helpers.add(f"{helper}()")
                self._consume(node, arg, f"{helper}()", token)

    def _branch_consumes(self, node: cst.Call) -> None:
        """``lax.cond(p, lambda: self.sample(key), ...)`` / ``lax.switch(i, [draw, keep],
        key)``: the keys a branch consumes (model/calls.branch_key_consumers)."""
        ctx = self.ctx
        for arg, helper, sampler in ctx.branch_key_consumers(node):
            token = ctx.key_token(arg)
            if token is None or (ctx.loop_stack and ctx.loop_stack[-1].depth > token.loop_depth):
                continue  # (a key from outside a loop: left to the loop's own checks)
            how = f"{sampler}` in a branch of `{ctx.code(node.func).strip()}" if helper == "lambda" \
                else f"{helper}()` in a branch of `{ctx.code(node.func).strip()}"
            self._consume(node, arg, how, token)

    def _closure_consumes(self, node: cst.Call) -> None:
        """``g(x)`` where ``g`` is a function nested in an enclosing function that draws
        from a key of that function it does not take as a parameter (``def g(y): return
        y + normal(key, y.shape)``): the call draws from ``key`` here, and a draw from
        ``key`` before or after it gets the same random bits."""
        ctx = self.ctx
        func = node.func
        if type(func) is not cst.Name or ctx.unit.is_module \
                or ctx.unit.param(func.value) is not None or any(a.star for a in node.args):
            return
        callee = ctx.unit.lookup_def(func.value)
        if callee is None or not callee.captured_keys or callee is ctx.unit or callee.is_generator \
                or not isinstance(callee.node, cst.FunctionDef):
            return
        if any(u is callee for u in _enclosing(ctx.unit)):
            return  # a recursive call from inside the closure itself
        for name, sampler in sorted(callee.captured_keys.items()):
            if ctx.unit.param(name) is None and name not in ctx.unit.assigned:
                continue  # the key of a scope further out: judged there
            key_expr = next((n for n in walk_tree(callee.node.body) if type(n) is cst.Name and n.value == name), None)
            if key_expr is None:
                continue
            token = ctx.key_token(key_expr)
            if token is None:
                continue
            how = f"{func.value}()"
            if ctx.loop_stack and ctx.loop_stack[-1].depth > token.loop_depth:
                continue  # a closure called in a loop: reported at its draw (_closure_key_called_again)
            if any(t is token and h == how for t, (_, h) in ctx.consumed_keys()):
                continue  # the same closure called again: reported at its draw
            self._consume(node, key_expr, how, token, at=node)

    def _caller_transform_consumes(self, node: cst.Call) -> None:
        """``fun.apply(params, state, rng, x)`` of a haiku transform of a function the
        caller hands in, given a key from outside the loop around it (a scan body's
        enclosing scope, a Python loop): the key goes to the function's draws, and every
        step hands it the same one.  What the function draws cannot be seen, so two
        applies in a row with one key are left alone; a loop hands it over by design."""
        ctx = self.ctx
        found = ctx.caller_transform_apply_key(node)
        if found is None or _in_test(ctx.unit):
            return
        arg, holder = found
        token = ctx.key_token(arg)
        if token is None:
            return
        how = f"{ctx.code(node.func).strip()}(...)"
        if self._closure_key_in_loop_body(arg, node, how, at=arg):
            return
        if ctx.loop_stack and ctx.loop_stack[-1].depth > token.loop_depth:
            ctx.consume_key(token, node, how)

    def _broadcast_key(self, node: cst.Call) -> None:
        """``jax.vmap(worker, in_axes=(None, 0))(key, xs)`` where ``worker`` draws from
        that parameter: the key is not mapped, so every element of the batch gets the
        same key and draws the same numbers (also ``in_axes=None``, ``jax.pmap``,
        ``eqx.filter_vmap``).  A worker that only derives keys from it (``fold_in(k,
        i)``, then draws from those) consumes nothing and stays silent."""
        func = node.func
        if any(a.star for a in node.args):
            return
        ctx = self.ctx
        if type(func) is cst.Call:
            is_mapper = mapper(func, ctx.qualname) is not None
            unmapped = unmapped_positions(func, ctx.qualname)
            if not is_mapper and not unmapped:
                return  # `f(a)(b)` of no mapping transformation (printing `f(a)` on every such
                # call cost quadratic time on a chain of them)
            transform = ctx.code(func.func).strip()
        elif type(func) is cst.Name:
            # `@partial(jax.vmap, in_axes=(None, 0)) def worker(k, x)` called as `worker(key, xs)`
            unit = ctx.value(func).unit
            if unit is None or not isinstance(unit.node, cst.FunctionDef) or not unit.node.decorators:
                return
            site = next((s for s in ctx.index.sites if s.target is unit
                         and s.call is not None and s.qualname.endswith("vmap")), None)
            if site is None:
                return
            unmapped = unmapped_positions(site.call, ctx.qualname)
            transform = "@" + site.qualname.replace("equinox.", "eqx.")
        else:
            return
        if type(func) is cst.Call and is_mapper:
            self._copied_key_mapped(node, transform)
        if not unmapped:
            return
        pos = positional_args(node)
        for arg, helper, sampler in ctx.key_consumer(node):
            i = next((k for k, a in enumerate(pos) if a.value is arg), None)
            if i is None or (i not in unmapped and -1 not in unmapped) or ctx.key_token(arg) is None:
                continue
            name = ctx.code(arg).strip()
            self._broadcast.add(id(node))
            self.report(
                node,
                f"`{name}` is not mapped (`in_axes` None for it): `{transform}` gives every element the "
                f"same key, and `{helper}` draws from it with `{_by(sampler)}`, so every element draws "
                f"the same random numbers. Map one key per element: pass "
                f"`jax.random.split({name}, n)` with in_axes 0 for it",
            )
            return

    def _copied_key_mapped(self, node: cst.Call, transform: str) -> None:
        """``jax.vmap(draw)(jnp.repeat(key[None, :], n, axis=0))``: the batch a mapped
        function is given is one key copied into every row (``jnp.tile``,
        ``jnp.broadcast_to``, ``jnp.stack([key] * n)``: model/keyflow.copied_key), and the
        function draws from it: every element draws the same random numbers."""
        ctx = self.ctx

        def is_key(e: cst.BaseExpression) -> bool:
            kind = ctx.value(e).kind
            last = e.value if type(e) is cst.Name else e.attr.value if type(e) is cst.Attribute else ""
            return kind == V.KEY or kind == V.UNKNOWN and key_like_name(last)

        for arg, helper, sampler in ctx.key_consumer(node):
            src = copied_key(arg, ctx.unit, ctx.index, ctx.qualname, is_key)
            if src is None:
                continue
            name = ctx.code(src).strip()
            self._broadcast.add(id(node))
            self.report(
                arg,
                f"every row of this batch is the key `{name}` copied: `{transform}` gives each element "
                f"the same key, and `{helper}` draws from it with `{_by(sampler)}`, so every element "
                f"draws the same random numbers. Map one key per element: `jax.random.split({name}, n)`",
            )
            return

    def _initializer_consumes(self, node: cst.Call) -> None:
        """``init(key, shape)`` of an initializer that draws (``init =
        jax.nn.initializers.normal()``, ``nn.initializers.lecun_normal()(key, shape)``,
        a module's ``self.kernel_init`` whose class field defaults to one): the call
        consumes ``key`` like a sampler (two kernels from one key are the same kernel)."""
        ctx = self.ctx
        func = node.func
        if not ctx.index.makes_initializers or type(func) not in (cst.Call, cst.Name, cst.Attribute) \
                or any(a.star for a in node.args):
            return
        if type(func) is cst.Name and ctx.value(func).kind == V.FUNCTION \
                and apis.initializer_draws_nothing(ctx.value(func).qualname):
            return  # `b_init(key, shape)` where every call gives `b_init=zeros`: it draws nothing
        factory = initializer_of(func, ctx.unit, ctx.index, ctx.qualname)
        if factory is None:
            return
        key_expr = arg_at(node, 0, "key")
        if key_expr is None:
            return
        token = ctx.key_token(key_expr)
        if token is None:
            return
        how = f"{ctx.code(func).strip()}(...)"
        if self._closure_key_in_loop_body(key_expr, node, how) or self._closure_key_in_mapped_fn(key_expr, node, how):
            return
        self._fixed_seed_in_loop(node, key_expr, token, how)
        self._consume(node, key_expr, how, token)

    def _distribution_consumes(self, node: cst.Call) -> None:
        """``dist.sample(seed=key)`` / ``dist.sample_and_log_prob(seed=key)`` of a distrax or
        TFP-on-JAX distribution (``dist = distrax.Normal(loc, scale)``, bound once, or built in
        place): the sample consumes ``seed`` like a sampler."""
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value not in apis.DISTRIBUTION_SAMPLERS \
                and keyword_arg(node, "seed") is None:
            return
        ctx = self.ctx
        if _in_test(ctx.unit):
            return  # a test sampling one distribution under one seed for shapes and log-probs (distrax's own)
        made = bound_once(ctx.index, ctx.unit, func.value)
        if type(made) is not cst.Call or not apis.distribution_class(ctx.qualname(made.func)) \
                or func.attr.value not in apis.DISTRIBUTION_SAMPLERS:
            # a policy head's distribution the model cannot place (`pi = actor.apply(params,
            # obs)`): `sample(seed=key)` is distrax's and TFP's sampling signature, and the
            # key it is given is drawn from; only with `seed=` given a key
            keyed = self._sampled_with_seed(node)
            if keyed is None:
                return
            made = None
        shown = "seed="
        if made is not None and (ctx.qualname(made.func) or "").startswith(apis.POSITIONAL_KEY_DISTRIBUTIONS):
            key_expr = arg_at(node, 0, "key")  # numpyro: `d.sample(key, (n,))`
            if key_expr is None:
                return
            shown = "" if node.args and node.args[0].keyword is None else "key="
        else:
            given = keyword_arg(node, "seed")
            if given is None:
                return
            key_expr = given.value
        token = ctx.key_token(key_expr)
        if token is None or ctx.value(key_expr).kind not in (V.KEY, V.UNKNOWN) \
                and not _key_annotated_as_array(ctx, key_expr):
            return
        how = f"{ctx.code(func).strip()}({shown}...)"
        if self._closure_key_in_loop_body(key_expr, node, how) or self._closure_key_in_mapped_fn(key_expr, node, how):
            return
        self._fixed_seed_in_loop(node, key_expr, token, how) or self._closure_key_called_again(key_expr, node, how)
        self._consume(node, key_expr, how, token)

    def _sampled_with_seed(self, node: cst.Call) -> Optional[str]:
        """``pi.sample(seed=key)`` on an object the model cannot place, not a module
        (``random.sample``): ``"seed"`` when ``seed=`` is given a value the model holds as a
        key (made by ``jax.random``, or a key-like name not known to be anything else), to
        ``sample`` or any other method (TFP's and distrax's methods that draw take their key
        as ``seed=``: ``entropy(seed=key)`` of a transformed distribution estimates by sampling);
        else None."""
        ctx = self.ctx
        func = node.func
        if type(func) is not cst.Attribute or ctx.value(func.value).kind is V.MODULE or ctx.qualname(func) is not None:
            return None
        if ctx.key_consumer(node):
            return None  # a method of a class of the project that the model reads
        given = keyword_arg(node, "seed")
        if given is not None:
            v = ctx.value(given.value)
            if v.kind is V.KEY or (type(given.value) is cst.Name and key_like_name(given.value.value)
                                   and v.kind is V.UNKNOWN) or _key_annotated_as_array(ctx, given.value):
                return "seed"
            return None
        # not `obj.sample(key)` with the key first: a project's sampler of configurations may
        # draw nothing (learned_optimization's `single_task_to_family(task).sample(key)`)
        return None

    def _library_consumes(self, node: cst.Call, q: Optional[str]) -> None:
        """``eqx.nn.Linear(3, 3, key=key)``: a library constructor that draws its initial
        values from ``key=`` consumes it like a sampler (two layers built with one key get
        the same weights; a key drawn from and then given to a layer correlates them)."""
        how = apis.library_key_consumer(q) if q is not None else None
        if how is None:
            return
        given = keyword_arg(node, "key")
        if given is None:
            return
        values = apis.LIBRARY_KEY_UNUSED_WITH.get(q or "")
        if values is not None:
            explicit = arg_at(node, values[1], values[0])
            if explicit is not None and not (isinstance(explicit, cst.Name) and explicit.value == "None"):
                return  # `eqx.nn.Embedding(weight=table, key=key)`: given its values, it draws nothing
        key_expr = given.value
        ctx = self.ctx
        token = ctx.key_token(key_expr)
        if token is None:
            return
        if self._closure_key_in_loop_body(key_expr, node, how) or self._closure_key_in_mapped_fn(key_expr, node, how):
            return
        self._fixed_seed_in_loop(node, key_expr, token, how)
        self._library_hows.add(how)
        self._consume(node, key_expr, how, token)

    def _library_draws(self, node: cst.Call, q: Optional[str]) -> None:
        """A library call that draws from the key it is given other than as ``key=``
        (``apis.LIBRARY_KEY_ARGS``: ``numpyro.sample("y", d, rng_key=key)`` when the
        site is not observed, ``handlers.seed(model, key)``), or a call or method of a
        library object that does (``apis.LIBRARY_KEY_METHODS``: ``Predictive(model,
        ...)(key)``, ``mcmc.run(key, x)`` of ``mcmc = MCMC(...)``, the object built in
        place or bound once): consumed like a sampler's key."""
        ctx = self.ctx
        key_expr = None
        if q is not None and q in apis.LIBRARY_KEY_ARGS:
            word, at = apis.LIBRARY_KEY_ARGS[q]
            if any(a.star for a in node.args):
                return
            key_expr = arg_at(node, at, word)
            unless = apis.LIBRARY_KEY_UNLESS.get(q)
            if unless is not None and key_expr is not None \
                    and not self._maybe_none(arg_at(node, unless[1], unless[0])):
                return  # `sample("y", d, obs=y, rng_key=key)` with `y` given: observed, no draw
            given = keyword_arg(node, word)
            how = f"{ctx.code(node.func).strip()}({word}=...)" if given is not None else f"{ctx.code(node.func).strip()}(...)"
        else:
            func = node.func
            method = "__call__"
            if type(func) is cst.Attribute:
                method, func = func.attr.value, func.value
            made = bound_once(ctx.index, ctx.unit, func) if type(func) is cst.Name else func
            if type(made) is not cst.Call:
                return
            word = apis.LIBRARY_KEY_METHODS.get(ctx.qualname(made.func) or "", {}).get(method)
            if word is None or any(a.star for a in node.args[:1]):
                return
            key_expr = arg_at(node, 0, word)
            how = f"{ctx.code(node.func).strip()}(...)"
        if key_expr is None:
            return
        token = ctx.key_token(key_expr)
        if token is None or ctx.value(key_expr).kind not in (V.KEY, V.UNKNOWN):
            return
        if self._closure_key_in_loop_body(key_expr, node, how) or self._closure_key_in_mapped_fn(key_expr, node, how):
            return
        self._library_keys[id(node)] = key_expr
        self._fixed_seed_in_loop(node, key_expr, token, how)
        self._consume(node, key_expr, how, token)

    def _flax_init_consumes(self, node: cst.Call) -> None:
        """``params = model.init(key, x)`` of a flax linen module (model/calls.flax_init_keys):
        the initial parameters are drawn from ``key``; a key drawn from before (``x =
        normal(key, s)``) or after gives correlated bits, and two modules initialised with
        one key start alike."""
        ctx = self.ctx
        if not _FLAX_INIT_CONSUMES or _in_test(ctx.unit):
            return  # a test initialising modules from the keys of its own fixture data
        keys = ctx.flax_init_keys(node)
        if not keys:
            return
        how = f"{ctx.code(node.func).strip()}(...)"
        for key_expr in keys:
            token = ctx.key_token(key_expr)
            if token is None or ctx.value(key_expr).kind not in (V.KEY, V.UNKNOWN):
                continue
            if self._closure_key_in_loop_body(key_expr, node, how) or self._closure_key_in_mapped_fn(key_expr, node, how):
                continue
            prev = dict(ctx.consumed_keys()).get(token)
            if prev is not None and id(prev[0]) in self._flax_inits:
                continue  # two modules (or one, again) started from one key: alike on purpose
                # (a controlled comparison, a restart from the same initial values)
            self._flax_inits.add(id(node))
            self._fixed_seed_in_loop(node, key_expr, token, how)
            self._consume(node, key_expr, how, token)

    def _loop_carry_consumes(self, node: cst.Call, q: Optional[str]) -> None:
        """``lax.scan(step, (params, rng), ...)`` (``fori_loop``, ``while_loop``) whose body
        takes the key out of its carry and advances it (``params, rng = carry``; ``rng,
        key = split(rng)``; model/keyflow.carried_key_positions): the loop's first step
        consumes the key it is given, like a split here.  A key drawn from before, or
        drawn from again after the loop, gives the same bits as that step."""
        spec = LOOP_CARRY.get(q or "")
        if spec is None:
            return
        ctx = self.ctx
        body_at, init_at, carry_at = spec
        body, init = arg_at(node, body_at, None), arg_at(node, init_at, "init")
        if type(body) is not cst.Name or init is None:
            return
        body_unit = ctx.unit.lookup_def(body.value)
        if body_unit is None or type(body_unit.node) is not cst.FunctionDef:
            return
        params = body_unit.positional()
        if len(params) <= carry_at:
            return
        positions = carried_key_positions(body_unit.node, params[carry_at].name)
        short = q.rsplit(".", 1)[1]  # type: ignore[union-attr]
        for pos in positions:
            if pos is None:
                given = init
            elif type(init) in (cst.Tuple, cst.List) and pos < len(init.elements) \
                    and not any(type(el) is cst.StarredElement for el in init.elements):
                given = init.elements[pos].value
            else:
                continue
            if type(given) not in (cst.Name, cst.Attribute):
                continue
            token = ctx.key_token(given)
            if token is None or ctx.value(given).kind not in (V.KEY, V.UNKNOWN):
                continue
            if self._closure_key_in_loop_body(given, node, f"lax.{short}") \
                    or self._closure_key_in_mapped_fn(given, node, f"lax.{short}"):
                continue
            self._consume(node, given, f"lax.{short}(...)", token, at=init)

    def _maybe_none(self, e: Optional[cst.BaseExpression]) -> bool:
        """Is ``e`` absent, a literal None, or a parameter of the function whose default
        is None (``obs=y_obs`` of ``def model(y_obs=None)``: None on the default path)?"""
        if e is None:
            return True
        if type(e) is not cst.Name:
            return False
        if e.value == "None":
            return True
        p = self.ctx.unit.param(e.value)
        return p is not None and e.value not in self.ctx.unit.assigned and type(p.default) is cst.Name \
            and p.default.value == "None"

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        q = ctx.qualname(node.func)
        self._drawn_module_field(node, q)
        if q is None or not q.startswith("jax.random."):
            self._library_draws(node, q)
            self._mapped_partial(node)
            self._broadcast_key(node)
            self._initializer_consumes(node)
            self._distribution_consumes(node)
            self._helper_consumes(node)
            self._branch_consumes(node)
            self._closure_consumes(node)
            self._caller_transform_consumes(node)
            self._library_consumes(node, q)
            self._loop_carry_consumes(node, q)
            self._flax_init_consumes(node)
            self._rngs_consumes(node)
            self._module_key_field(node)
            return
        short = q.rsplit(".", 1)[1]
        if short == apis.RANDOM_BY_NAME and type(node.func) is cst.Name:
            short = f"{node.func.value} = getattr(jax.random, ...)"  # `jax_op(rng_key, ...)`
        elif short not in apis.RANDOM_CONSUMERS:
            return
        key_expr = arg_at(node, 0, "key")
        if key_expr is None:
            return
        token = ctx.key_token(key_expr)
        if token is None:
            return
        if self._closure_key_in_loop_body(key_expr, node, short) or self._closure_key_in_mapped_fn(key_expr, node, short):
            return
        self._replicated_over_shards(node, key_expr, short)
        # the same key from one iteration or call to the next; a second use on this
        # path is still a reuse
        (self._fixed_seed_in_loop(node, key_expr, token, short)
         or self._fixed_seed_in_repeated_function(node, key_expr, token, short)
         or self._closure_key_called_again(key_expr, node, short)
         or self._stored_key_never_advanced(key_expr, node, short)
         or self._given_key_ignored(key_expr, node, token, short)
         or self._fixed_seed_beside_stream(node, key_expr, token, short))
        self._consume(node, key_expr, short, token)

    def _replicated_over_shards(self, node: cst.Call, key_expr: cst.BaseExpression, how: str) -> None:
        """A key parameter that ``jax.shard_map`` gives every shard unchanged (``in_specs``
        ``P()`` for it, another argument split) consumed in the function it maps, or in a
        helper it hands the key to with a split argument: every shard draws the same
        numbers (model/keyflow.replicated_keys)."""
        ctx = self.ctx
        if type(key_expr) is not cst.Name or ctx.local(key_expr.value) is not None and \
                ctx.unit.param(key_expr.value) is None:
            return
        found = replicated_keys(ctx.index, ctx.qualname).get(id(ctx.unit), {}).get(key_expr.value)
        if found is None or (id(ctx.unit), key_expr.value) in self._replicated_done:
            return
        if any(type(n) in (cst.Name, cst.Attribute) and (ctx.qualname(n) or "").endswith("lax.axis_index")
               for n in walk_tree(ctx.unit.node)):
            return  # the function reads the shard's index: per-shard keys derived from it
            # (`keys = split(key, n); k = keys[lax.axis_index("data")]`), not one key for all
        self._replicated_done.add((id(ctx.unit), key_expr.value))
        site, via = found
        name = key_expr.value
        transform = ctx.code(site.call.func).strip() if site.target is None else "shard_map"
        if site.target is not None:
            q = ctx.qualname(site.call.func)
            transform = ctx.code(site.call.args[0].value).strip() if q in apis.PARTIALS and site.call.args else transform
        where = "" if via is None else f" (`{ctx.code(via.func).strip()}` is given it by the mapped function on line {{related_line}})"
        self.report(
            node,
            f"`{name}` is the same key on every shard: `{transform}` replicates it (`P()` in `in_specs`) "
            f"while it splits another argument, and `{_by(how)}` consumes it here{where}, so every "
            f"shard draws the same random numbers. Fold the shard's index in first: "
            f"`jax.random.fold_in({name}, jax.lax.axis_index(axis_name))`",
            related=via,
        )

    def _consume(self, node: cst.Call, key_expr: cst.BaseExpression, how: str, token=None,
                 at: Optional[cst.CSTNode] = None) -> None:
        ctx = self.ctx
        token = token or ctx.key_token(key_expr)
        if token is None:
            return
        if id(node) in self._expected_to_raise():
            return  # `with pytest.raises(...)`: the call fails, its draws are never seen
        earlier = self._draws.setdefault((id(ctx.unit), id(token)), [])
        earlier.append(node)
        self._draw_how.setdefault(id(node), how)
        self._stream_key_drawn(node, key_expr, how)
        prev = ctx.consume_key(token, node, how)
        if prev is None:
            self._stored_key_across_methods(node, key_expr, how)
            return
        prev = self._superseded.get(token.serial, prev)
        if prev[1] in self._split_helpers and len(earlier) > 2:
            # a helper split it first and other calls consumed it since (`init_meta_params(key)`,
            # `keys = split(key, n)`, `randint(key, ...)`): judged against the first of those
            later = next(((n, self._draw_how[id(n)]) for n in earlier[:-1]
                          if self._draw_how.get(id(n)) not in (None, *self._split_helpers)), None)
            prev = later or prev
        splitting = ("split", *self._split_helpers, *self._library_hows)
        repeated = how == prev[1] and how in self._split_helpers and self._same_call(prev[0], node)
        if not repeated and (
                (prev[1] in self._split_helpers and how in splitting) or (how in self._split_helpers and prev[1] in splitting)):
            return  # split here (or by a library constructor) and in a helper that splits: keys handed
            # down on both sides, not a draw repeated (one splitting helper called twice with the
            # same arguments, `Conv(n, key=key)` twice, repeats every draw it makes: reported)
        if (id(node) in self._transformed and prev[1].endswith("()")) or (
                id(prev[0]) in self._transformed and how.endswith("()")):
            return  # `unroll(key)` then `jax.jit(unroll_scan)(key)`: two computations compared
            # under one key (a notebook's or benchmark's versions of one function)
        if (prev[1] == how or _method_of(ctx, prev[0], node)) and self._discarded(prev[0]):
            self._superseded[token.serial] = (node, how)  # the draw later calls repeat
            return  # `generate(ids, params, rng)  # compile` then `images = generate(ids, params, rng)`:
            # a warm-up call whose result is thrown away; the timed call draws the same bits on purpose
            # (so is a dry run of the callable itself, `opt.debug(seed=k)` then `opt(seed=k)`)
        if how.endswith("()") and prev[1].endswith("()") and prev[1] != how \
                and self._same_inputs_rebuilt(prev[0], node, key_expr):
            return  # `benchmark_jax(n, key=key)` then `benchmark_lx(n, key=key)`, each rebuilding
            # `make_problem(n, key=key)`: two computations compared on identical inputs
        if how.endswith("()") and prev[1] == how and not self._same_call(prev[0], node) \
                and not self._resized_call(prev[0], node):
            return  # one helper twice with one key on other data: often meant (random features for x and y)
        if isinstance(prev[0], cst.Call) and _exclusive_branches(ctx, ctx.unit.node, prev[0], node):
            return  # `if mode == "a": normal(key)` ... `if mode == "b": uniform(key)`: no run makes both
        if self._unread(prev[0], through=node) or self._unread(node):
            return  # one of the two draws is never read (the first: on the paths that
            # make the second): no random bits are seen twice
        if how == prev[1] and how in _PAIRING and isinstance(prev[0], cst.Call):
            a, b = _data_arg(prev[0]), _data_arg(node)
            if a is not None and b is not None and _array_like(a) and _array_like(b) \
                    and ctx.code(a).strip() != ctx.code(b).strip():
                return  # `x = permutation(key, x); y = permutation(key, y)`: the same order
                # for paired arrays, on purpose
        if isinstance(node, cst.Call) and any(
                isinstance(e, cst.Call) and _asserted_equal(ctx.unit.node, e, node, self._equal_memo, ctx.qualname)
                for e in earlier[:-1]):
            return  # the two draws' results are asserted equal: the same bits are the point
        if isinstance(node, cst.Call) and self._rebuilds_expected(node, key_expr, earlier):
            return
        in_test = (_in_test(ctx.unit) or test_module(ctx.path)) and isinstance(ctx.unit.node, cst.FunctionDef)
        if isinstance(node, cst.Call) and isinstance(prev[0], cst.Call) and "split" not in (how, prev[1]) and (
                in_test or isinstance(ctx.unit.node, cst.Module)):
            if in_test and (_expected_only(ctx, ctx.unit.node, node, self._parents) or _expected_only(
                    ctx, ctx.unit.node, prev[0], self._parents)):
                return  # a test's expected value rebuilt from the key the code under test drew from
            if all(separate_draws(ctx.unit.node, e, node, ctx.qualname, rebound=not in_test)
                   for e in {id(e): e for e in (*earlier[:-1], prev[0])}.values() if isinstance(e, cst.Call)):
                self._superseded[token.serial] = (node, how)  # the next sub-case's draws are
                # judged against this one (`class_labels = randint(key, ...)` beside it)
                return  # the inputs of two sub-cases of one test, or of two experiments of a
                # notebook or script, that never meet (nor does any other draw of the key before
                # it): model/separate_draws.py
        if how == "split" and prev[1] == "split" and self._split_replayed(prev[0], node):
            return
        self._report_reuse(node, key_expr, prev, how, at=at)

    def _same_inputs_rebuilt(self, a: cst.CSTNode, b: cst.CSTNode, key_expr: cst.BaseExpression) -> bool:
        """Two different functions of the file, ``a``'s and ``b``'s callees, each hand the key
        they are given to one builder and to nothing else, with the same arguments
        (``make_problem(mat_size, key=key)`` in both, ``mat_size`` given the same value at
        both calls), and what the two calls return never meets in one computation here
        (each result summed and printed on its own)?  Both rebuild the same inputs from
        the key, to compare two computations on them (lineax's ``benchmark_jax`` against
        ``benchmark_lx``): the identical numbers are the point.  One helper called twice
        (``init_layer(key, 4, 8)``, ``init_layer(key, 8, 8)``) is judged elsewhere; a
        builder given other sizes, or results combined (``dec(enc(x))``), are reported."""
        ctx = self.ctx
        if not isinstance(a, cst.Call) or not isinstance(b, cst.Call) or type(a.func) is not cst.Name \
                or type(b.func) is not cst.Name or a.func.value == b.func.value:
            return False
        key_text = ctx.code(key_expr).strip()
        built = []
        for call in (a, b):
            v = ctx.lookup(call.func.value)
            unit = v.unit if v is not None and v.unit is not None else ctx.unit.lookup_def(call.func.value)
            if unit is None or not isinstance(unit.node, cst.FunctionDef):
                return False
            given = _given_params(call, unit.node, ctx)
            if given is None:
                return False
            key_params = [p for p, e in given.items() if ctx.code(e).strip() == key_text]
            if len(key_params) != 1:
                return False
            one = _only_builder_call(unit.node, key_params[0])
            if one is None:
                return False
            built.append((unit, given, one))
        (ua, ga, ca), (ub, gb, cb) = built
        if ua is ub or ctx.code(ca).strip() != ctx.code(cb).strip() or ctx.code(ca.func).strip() in (
                ua.name, ub.name):
            return False
        for name in _names_read(ca):
            if (name in ga) != (name in gb):
                return False
            if name in ga and ctx.code(ga[name]).strip() != ctx.code(gb[name]).strip():
                return False  # the builder given other values (sizes): other inputs
            if name not in ga and (name in _param_names(ua.node) or name in _param_names(ub.node)):
                return False  # a parameter one of the calls leaves to its default
        return not _results_meet(ctx.unit.node, a, b)

    def _taken_indices(self, call: cst.CSTNode) -> Optional[set]:
        """The constant indices read from what ``call`` returns, when it is only ever
        subscripted where it is made (``split(k)[1]``); None otherwise."""
        for n in walk_tree(self.ctx.unit.node):
            if isinstance(n, cst.Subscript) and n.value is call and len(n.slice) == 1:
                el = n.slice[0].slice
                if isinstance(el, cst.Index) and isinstance(el.value, cst.Integer):
                    return {int(el.value.value)}
                return None
        return None

    def _split_replayed(self, prev: cst.CSTNode, node: cst.Call) -> bool:
        """``split(k)[1]`` and later ``split(split(k)[0])[1]``: splitting one key again with
        the same arguments gives the same keys, and each split here hands on other keys of
        that one pair (a test replaying the split chain of the code under test): no key
        is used twice."""
        if not self._same_call(prev, node):
            return False
        a, b = self._taken_indices(prev), self._taken_indices(node)
        return a is not None and b is not None and not (a & b)

    def _stream_key_drawn(self, node: cst.Call, key_expr: cst.BaseExpression, how: str) -> None:
        """``q.random_action(schedule.key)`` where the class of ``schedule`` keeps ``key`` as a
        stream, a method splitting it and storing a half back (``explore``: ``self.key, k =
        jax.random.split(self.key)``; model/keyflow.key_streams): the key drawn from here is
        the one the next ``explore()`` splits again, so the draw and what that split gives
        are tied.  Reported where this function also calls that method on the object (it
        runs the stream), or in another method of the class drawing from ``self.key``
        without storing a new one."""
        ctx = self.ctx
        if type(key_expr) is not cst.Attribute or type(key_expr.value) is not cst.Name \
                or id(node) in self._stream_reported:
            return
        obj, attr = key_expr.value.value, key_expr.attr.value
        unit = ctx.unit
        if obj == "self":
            cls = unit.cls
            if cls is None or not unit.params or unit.params[0].name != "self" or _in_test(unit):
                return
            method = keyflow_streams(cls).get(attr)
            if method is None or method == unit.name or unit.name in self._SETUP \
                    or attribute_writes(unit.node, f"self.{attr}"):
                return
            owner = cls.name
        else:
            ref = ctx.instance_class(key_expr.value)
            method = ctx.class_streams(ref).get(attr) if ref is not None else None
            if method is None or _in_test(unit) or attribute_writes(unit.node, f"{obj}.{attr}"):
                return
            owner = ref.rsplit(".", 1)[-1]
        order = {id(n): i for i, n in enumerate(walk_tree(unit.node, source_order=True))}
        calls = [n for n in walk_tree(unit.node) if type(n) is cst.Call and type(n.func) is cst.Attribute
                 and type(n.func.value) is cst.Name and n.func.value.value == obj and n.func.attr.value == method]
        in_loop = {id(d) for d in walk_tree(ctx.loop_stack[-1].node)} if ctx.loop_stack else set()
        given = unit.param(obj) is not None and obj not in unit.assigned
        if not any(given or order.get(id(c), -1) > order.get(id(node), 0) or id(c) in in_loop for c in calls):
            return  # nothing here runs the stream (a method drawing from `self.key` alone may
            # be meant for an object never advanced), or nothing splits it again after the draw
            # and the object dies with the function (`self`, a parameter's object, lives on:
            # the next call runs the stream again)
        runs = f"{obj}.{method}()"
        self._stream_reported.add(id(node))
        self.report(
            node,
            f"`{obj}.{attr}` is the key `{owner}.{method}` splits and stores back at each call: "
            f"`{_by(how)}` draws from it here, and the next `{runs}` splits that same key again, so "
            f"this draw and the keys that split gives are tied (JAX's key-reuse checker raises "
            f"KeyReuseError for a typed key). Draw from a key split off it (`{obj}.{attr}, sub = "
            f"jax.random.split({obj}.{attr})`, then `sub`), or from one `{method}` hands out",
        )

    def _stored_key_across_methods(self, node: cst.Call, key_expr: cst.BaseExpression, how: str) -> None:
        """``self._rng_key`` consumed in one method and again in another (``_infer`` then
        ``_predict``), and no method of the class (nor of a base class of the file) but
        those that build the object (``__init__``, ``setup``, ``reset``...) assigns it:
        the object holds one key for its life, and both methods draw from it, the same
        random bits.  Not two splits (each method derives keys of its own), not a test
        class (its methods run apart), nor a flax or equinox module (judged at its apply
        sites and calls)."""
        ctx = self.ctx
        if type(key_expr) is not cst.Attribute or type(key_expr.value) is not cst.Name \
                or key_expr.value.value != "self":
            return
        method = ctx.unit
        cls = method.cls
        if cls is None or method.name in self._SETUP or not method.params or method.params[0].name != "self" \
                or cls.is_jax_module or cls.nnx or cls.linen or _in_test(method):
            return
        dotted = f"self.{key_expr.attr.value}"
        seen = self._method_draws.setdefault((id(cls), dotted), [])
        if any(m is method for m, _, _ in seen):
            return
        seen.append((method, node, how))
        earlier = next(((m, n, h) for m, n, h in seen[:-1] if not (h == "split" and how == "split")), None)
        if earlier is None or (id(method), dotted) in self._stored_reported:
            return
        classes = [cls, *(c for c in ctx.index.classes if c.name in {b.rsplit(".", 1)[-1] for b in cls.bases})]
        if any(attribute_writes(m.node, dotted) for c in classes for name, m in c.methods.items()
               if name not in self._SETUP):
            return  # another method replaces it (`self._rng_key, sub = split(self._rng_key)`)
        if key_value_class(cls, key_expr.attr.value, ctx.qualname):
            return  # a key type (`split()` returns a new instance around a split of the key):
            # its methods are alternatives a caller picks, like JAX's functions on one key
        first, first_node, first_how = earlier
        self.report(
            node,
            f"`{dotted}` is the key the object holds for its life: `{first.name}` consumed it with "
            f"`{_by(first_how)}` on line {{related_line}} and `{method.name}` draws from it again with "
            f"`{_by(how)}`; no method gives the object a new key, so both get the same random bits. Split it where it is used (`{dotted}, sub = jax.random.split({dotted})`) and draw with `sub`",
            related=first_node,
        )

    def _discarded(self, call: cst.CSTNode) -> bool:
        """Is ``call`` a statement of its own in this unit (``f(x, key)``: its result thrown away)?"""
        root = self.ctx.unit.node
        if not isinstance(call, cst.Call) or isinstance(root, cst.Lambda):
            return False
        stmts = root.body if isinstance(root, cst.Module) else root.body.body
        for st in stmts:
            for n in walk_tree(st, lambda c: isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef))):
                if isinstance(n, cst.Expr) and n.value is call:
                    return True
        return False

    def _rebuilds_expected(self, node: cst.Call, key_expr: cst.BaseExpression, draws: list) -> bool:
        """Is the result of the draw ``node`` asserted equal to the result of another call
        given the same key (``w = init_fn(key, shape)``, ``expected = uniform(key, shape,
        -s, s)``, ``assert np.allclose(w, expected)``)?  The test rebuilds what the code
        under test should have drawn: the same key is the point.  The other call need not
        be a draw the model knows (an initializer object, a helper of another module); the
        draw's side reads no other draw of the key (``assert_allclose(w, a + b)``, ``a`` and
        ``b`` drawn from it, still repeats the bits)."""
        if not isinstance(key_expr, cst.Name):
            return False
        root = self.ctx.unit.node
        if not _in_test(self.ctx.unit):
            return False
        name = key_expr.value
        others = tuple(d for d in draws if d is not node and isinstance(d, cst.Call))
        for c in walk_tree(root, lambda n: n is not root and isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda))):
            if c is node or not isinstance(c, cst.Call) or any(c is o for o in others):
                continue
            if any(isinstance(a.value, cst.Name) and a.value.value == name for a in c.args) \
                    and _asserted_equal(root, c, node, self._equal_memo, self.ctx.qualname, others):
                return True
        return False

    def _unread(self, call: cst.CSTNode, through: Optional[cst.CSTNode] = None) -> bool:
        """Is ``call`` carried into an assignment whose names are never read (rebound
        first, or only feeding other unread draws: model/liveness.py), on the paths
        that run ``through`` when it is given?"""
        ctx = self.ctx
        # a module's globals outlive its top level: importers read them, and a notebook's
        # user inspects them after the run
        exported = isinstance(ctx.unit.node, cst.Module)
        return isinstance(call, cst.Call) and liveness.dead_result(
            ctx.unit.node, call, ctx.qualname, exported, through)

    def _resized_call(self, a: cst.CSTNode, b: cst.CSTNode) -> bool:
        """Two calls of one helper that differ only in arguments the helper sizes its draw
        with (``init_layer(key, 4, 8)``, ``init_layer(key, 8, 8)`` of ``def init_layer(key, m,
        n): return normal(key, (m, n))``; model/keyflow.draw_size_params): the same key drawn
        at two sizes, whose numbers overlap (``normal(k, (4, 8))`` is ``normal(k, (8, 8))[:4]``)."""
        ctx = self.ctx
        if not isinstance(a, cst.Call) or not isinstance(b, cst.Call) or len(a.args) != len(b.args) \
                or ctx.code(a.func).strip() != ctx.code(b.func).strip():
            return False
        differ = [(x, y) for x, y in zip(a.args, b.args)
                  if ctx.code(x).strip().rstrip(",") != ctx.code(y).strip().rstrip(",")]
        if not differ or any((x.keyword is None) != (y.keyword is None) or (
                x.keyword is not None and x.keyword.value != y.keyword.value) for x, y in differ):
            return False
        dims_a, dims_b = ctx.draw_dim_args(a), ctx.draw_dim_args(b)
        return all(id(x.value) in dims_a and id(y.value) in dims_b for x, y in differ)

    def _same_call(self, a: cst.CSTNode, b: cst.CSTNode) -> bool:
        """Two calls with the same arguments (the key included): the same result."""
        ctx = self.ctx
        if not isinstance(a, cst.Call) or not isinstance(b, cst.Call) or len(a.args) != len(b.args):
            return False
        return all(ctx.code(x).strip().rstrip(",") == ctx.code(y).strip().rstrip(",") for x, y in zip(a.args, b.args))

    def _report_reuse(self, node: cst.Call, key_expr: cst.CSTNode, prev, how: str = "",
                      at: Optional[cst.CSTNode] = None) -> None:
        ctx = self.ctx
        if id(node) in self._broadcast:
            return  # reported as a key given unmapped to every element
        prev_node, prev_how = prev
        table = self._statement_memo.get(id(ctx.unit))
        if table is None or table[0] is not ctx.unit.node:
            table = self._statement_memo[id(ctx.unit)] = (ctx.unit.node, _statements(ctx.unit.node))
        stmt = table[1].get(id(node), 0)
        if stmt:
            seen = (id(prev_node), stmt)
            if seen in self._reused_in_statement:
                return  # `[normal(key, a), normal(key, b), normal(key, c)]`: one finding for the
                # statement (one split gives each call its key), not one per call
            self._reused_in_statement.add(seen)
        name = ctx.code(key_expr).strip()
        # the key the earlier call consumed: a library's key argument (`numpyro.sample(...,
        # rng_key=k)`), or argument 0 (`key=`) of a `jax.random` function; another consumer
        # (`net.apply(params, rng, x)`, a helper) takes it elsewhere
        before = self._library_keys.get(id(prev_node)) or (
            arg_at(prev_node, 0, "key") if isinstance(prev_node, cst.Call)
            and (ctx.qualname(prev_node.func) or "").startswith("jax.random.") else None)
        before_name = ctx.code(before).strip() if before is not None and type(before) in (cst.Name, cst.Attribute) else None
        if before_name is not None and before_name != name and type(key_expr) in (cst.Name, cst.Attribute) \
                and (prev_how == "split" or not prev_how.endswith("()")):
            # the same key under another name (a helper handed it back)
            name_was = f"`{name}` is the same key as `{before_name}`, which"
        else:
            name_was = f"`{name}`"
        if prev_how == how and how in self._split_helpers and self._same_call(prev_node, node):
            # `Conv(n, key=key)` twice: the helper splits the key the same way both times
            msg = (
                f"{name_was} was already consumed by `{prev_how}` on line {{related_line}}, which splits it "
                f"and draws from the keys it makes: this call makes the same keys, so it draws the same "
                f"random numbers. Split it first, e.g. `k1, k2 = jax.random.split({name})`, and give each "
                f"call its own key"
            )
        elif prev_how in self._keyless_split_helpers:
            # `img = random_crop(k, img)`: the helper splits `k` inside and keeps the keys
            msg = (
                f"{name_was} was already split inside `{prev_how}` on line {{related_line}}, which "
                f"draws from the keys it makes; a split key must not be used again. Split it first, "
                f"e.g. `k1, k2 = jax.random.split({name})`, and give each call its own key"
            )
        elif prev_how == "split" or prev_how in self._split_helpers:
            by = "" if prev_how == "split" else f" by `{prev_how}`"
            msg = (
                f"{name_was} was already split{by} on line {{related_line}}; a split key must not be "
                f"used again. Use the keys `{'split' if prev_how == 'split' else prev_how}` returned (e.g. "
                f"`{name}, sub = jax.random.split({name})` and pass `sub`)"
            )
        elif how == "split":
            # a draw, then a split of the same key: the new keys are not the draw's bits,
            # but JAX promises independence only to a key used once (KeyReuseError)
            msg = (
                f"{name_was} was already consumed by `{_by(prev_how)}` on line {{related_line}} and is split "
                f"here: JAX promises independent random numbers only for a key used once (with "
                f"`jax_debug_key_reuse` on, this split raises KeyReuseError for a typed key from `jax.random.key`). Split before the first use, e.g. "
                f"`{name if isinstance(key_expr, cst.Name) else 'key'}, sub = jax.random.split({name})`, "
                f"and draw with `sub`"
            )
        else:
            by = _by(prev_how)
            msg = (
                f"{name_was} was already consumed by `{by}` on line {{related_line}}: "
                f"both calls get the same random bits. Split it first, e.g. "
                f"`k1, k2 = jax.random.split({name})`, and give each call its own key"
            )
        self.report(at or _key_line_anchor(ctx, node, key_expr), msg, related=prev_node)

    def _module_key_field(self, node: cst.Call) -> None:
        """``net.apply(...)`` of a flax module built with a key field it draws from
        (``NoisyNetwork(rng_key=key)``): every apply of that module draws from the same
        key, twice in a row or once per iteration of a loop."""
        ctx = self.ctx
        if _in_test(ctx.unit):
            return  # a test comparing two applies under the same randomness
        for arg, callee, sampler, field in ctx.applied_key_fields(node):
            token = ctx.key_token(arg)
            if token is None:
                continue
            name = ctx.code(arg).strip()
            fix = ("Draw from a flax RNG stream instead (`self.make_rng(\"noise\")` in the module, "
                   "`rngs={\"noise\": key}` with a new key at each apply)")
            if ctx.loop_stack and ctx.loop_stack[-1].depth > token.loop_depth:
                self.report(
                    node,
                    f"`{callee}` draws with `random.{sampler}` from the module field `{field}`, "
                    f"the key `{name}` it was built with, in every iteration: each apply draws "
                    f"the same random numbers. {fix}",
                )
                return
            prev = ctx.consume_key(token, node, f"{callee}()")
            if prev is not None:
                self.report(
                    node,
                    f"`{callee}` draws with `random.{sampler}` from the module field `{field}`, "
                    f"the key `{name}` it was built with, which `{_by(prev[1])}` already used on "
                    f"line {{related_line}}: both get the same random numbers. {fix}",
                    related=prev[0],
                )

    def _rngs_consumes(self, node: cst.Call) -> None:
        """``model.apply(params, x, rngs={"dropout": key})`` (flax) in a loop: the call
        draws from each key of the dict (not in an evaluation call: ``deterministic=True``)."""
        names = rngs_keys(node)
        if not names:
            return
        if _evaluation_call(node):
            return
        ctx = self.ctx
        if _in_test(ctx.unit):
            return  # a test comparing applies (step-by-step decoding against a full pass) under one key
        how = f"{ctx.code(node.func).strip()}(rngs=...)"
        for name in names:
            v = ctx.lookup(name.value)
            if v is None or v.kind not in (V.KEY, V.UNKNOWN):
                continue
            token = ctx.key_token(name)
            if token is None:
                continue
            if self._closure_key_in_loop_body(name, node, how):
                continue  # `model.apply(..., rngs={"dropout": rng})` in a scan body closing over `rng`
            if ctx.loop_stack and ctx.loop_stack[-1].depth > token.loop_depth:
                ctx.consume_key(token, node, how)
            # outside a loop, two applies with one key are mostly tests comparing two
            # computations under the same randomness: left alone

    def _fixed_seed_in_loop(self, node: cst.Call, key_expr: cst.BaseExpression, token, how: str) -> bool:
        """``for ...: key = jax.random.PRNGKey(0); x = jax.random.normal(key)``: a key made
        from the same seed in every iteration, drawn with the same arguments, gives
        every iteration the same numbers."""
        ctx = self.ctx
        made = token.node
        depth = token.loop_depth
        if not isinstance(made, cst.Call) or depth < 1 or depth > len(ctx.loop_stack):
            return False
        if ctx.qualname(made.func) not in ("jax.random.PRNGKey", "jax.random.key"):
            return False
        loop = ctx.loop_stack[depth - 1].node
        if loop_target_read(loop, ctx.qualname):
            return False  # `for config in configs:` the same seed for each setting, on purpose
        varying = self._assigned_in(loop)
        if not all(invariant(a.value, varying, calls=False) for a in made.args):
            return False
        if not all(invariant(a.value, varying, calls=True) for a in node.args if a.value is not key_expr):
            return False
        if (id(made), id(loop)) in self._fixed_reported:
            return True
        self._fixed_reported.add((id(made), id(loop)))
        kind = "loop" if isinstance(loop, (cst.For, cst.While)) else "comprehension"
        made_code = ctx.code(made).strip()
        if key_expr is made:
            what = f"`{made_code}` makes the same key"
        else:
            what = f"`{ctx.code(key_expr).strip()}` is made from the same seed (`{made_code}`, line {{related_line}})"
        self.report(
            node,
            f"{what} in every iteration of the {kind} and `{_by(how)}` draws with the same "
            f"arguments, so every iteration gets the same random numbers. Create the key once "
            f"before the {kind} and split it each iteration, or use `jax.random.fold_in(key, i)`",
            related=made,
        )
        return True

    def _fixed_seed_in_repeated_function(self, node: cst.Call, key_expr: cst.BaseExpression, token,
                                         how: str) -> bool:
        """``def noise(): key = jax.random.key(42); return jax.random.uniform(key, (2,))``
        called in a loop or a comprehension of this file: every call makes the same key
        from a literal seed and draws with the same arguments (none depends on the
        function's parameters), so every call returns the same numbers."""
        ctx = self.ctx
        unit = ctx.unit
        made = token.node
        if unit.is_module or ctx.loop_stack or token.loop_depth != 0 or _in_test(unit) or how == "split":
            return False  # (`split` makes keys, not numbers: a benchmark's fixed seed is on purpose)
        if not isinstance(made, cst.Call) or ctx.qualname(made.func) not in ("jax.random.PRNGKey", "jax.random.key"):
            return False
        if not _reaches_return(unit.node, node):  # (after the cheap tests: it walks the function)
            return False  # the numbers stay inside: the call does not return them
        if not made.args or len(made.args) > 1 or made.args[0].keyword is not None:
            return False
        seed_param = None
        if int_value(made.args[0].value) is None:
            # `def glorot(shape, seed=0): key = PRNGKey(seed)`, no call of the file passing a seed
            seed_param = _defaulted_seed(unit, made.args[0].value)
            if seed_param is None:
                return False
        params = {p.name for p in unit.params}
        aliases = self._jit_aliases(unit)  # None: not jitted
        # a body a lax loop runs step after step: the same shapes at every step
        loop = lax_loop_body(unit)
        shapes_only = False
        shaped_by_caller = False  # a shape the caller gives: calls with equal shapes draw alike
        for i, a in enumerate(node.args):
            if a.value is key_expr or invariant(a.value, params, calls=True):
                continue
            if aliases is None and loop is None and _shape_slot(node, i, how) and (
                    type(a.value) is cst.Name and a.value.value in params or _reads_only_shapes(ctx, a.value, params)):
                shaped_by_caller = True
                continue
            if (aliases is None and loop is None) or not _reads_only_shapes(ctx, a.value, params):
                return False
            # a jitted function is called again with arguments of the same shapes (other
            # shapes compile it again): a draw shaped like them is the same draw
            shapes_only = True
        if (seed_param is not None or shaped_by_caller) and (
                test_module(ctx.path) or not any(d is made for d in descendants(unit.node))):
            return False  # a test module's input helper (the same inputs for every test, on purpose),
            # or a key made outside the function (a global: the closure's case)
        if seed_param is not None or shaped_by_caller:
            sites = self._module_call_sites(unit.name) if isinstance(unit.node, cst.FunctionDef) else []
            if not sites or any(_passes_param(c, seed_param) for c, _ in sites if seed_param is not None):
                return False  # a caller gives its own seed (or none calls it here: unknown)
            if loop is None and not shapes_only and len(sites) >= 2 and not ctx.called_repeatedly(unit) \
                    and unit.params:
                # `return add_noise(x), add_noise(x)`: called again from the file
                return self._report_fixed_seed(node, key_expr, made, unit, how, len(sites), sites[0][0],
                                               shaped_by_caller)
        if shaped_by_caller and loop is None and not shapes_only:
            if not ctx.called_repeatedly(unit):
                return False
            sites = self._module_call_sites(unit.name)
            first = next((c for c, looped in sites if looped), sites[0][0] if sites else made)
            return self._report_fixed_seed(node, key_expr, made, unit, how, 0, first, shaped_by_caller)
        if not any(d is made for d in descendants(unit.node)):
            return False
        made_code = ctx.code(made).strip()
        what = (f"`{made_code}` makes the same key" if key_expr is made else
                f"`{ctx.code(key_expr).strip()}` is made from the same seed (`{made_code}`, line {{related_line}})")
        if loop is not None:
            same = ("with the same arguments (shapes of the body's arguments, the same at every step)"
                    if shapes_only else "with the same arguments")
            self.report(
                node,
                f"{what} at every step of the `{loop}` that runs `{unit.name}` as its body, and "
                f"`{_by(how)}` draws {same}, so every step draws the same random numbers. Carry a key "
                f"and split it each step, or use `jax.random.fold_in(key, i)` with the step index",
                related=made,
            )
            return True
        if not ctx.called_repeatedly(unit) and not any(called_repeatedly(ctx.module, n) for n in aliases or ()):
            return False
        same = ("with the same arguments (shapes of the jitted function's arguments, the same from "
                "one call to the next)" if shapes_only else "with the same arguments")
        self.report(
            node,
            f"{what} on every call of `{unit.name}`, which this file calls in a loop or a "
            f"comprehension, and `{_by(how)}` draws {same}, so every call returns "
            f"the same random numbers. Take the key as a parameter and split it at the caller, or "
            f"use `jax.random.fold_in(key, i)`",
            related=made,
        )
        return True

    def _module_call_sites(self, fname: str) -> list[tuple[cst.Call, bool]]:
        """The calls of ``fname`` by name anywhere in the file (memoised per file)."""
        memo = ("module", fname)
        sites = self._sites.get(memo)
        if sites is None:
            sites = self._sites[memo] = self._call_sites(self.ctx.module, fname)
        return sites

    def _report_fixed_seed(self, node: cst.Call, key_expr, made: cst.Call, unit, how: str, n_sites: int,
                           first: cst.CSTNode, shaped: bool) -> bool:
        """A function that makes its key from the same seed on every call, called again
        (``n_sites`` calls of this file, or 0: in a loop or a comprehension)."""
        made_code = self.ctx.code(made).strip()
        what = (f"`{made_code}` makes the same key" if key_expr is made else
                f"`{self.ctx.code(key_expr).strip()}` is made from the same seed (`{made_code}`)")
        where = f"which this file calls {n_sites} times (first on line {{related_line}})" if n_sites \
            else "which this file calls in a loop or a comprehension (line {related_line})"
        same = ("so every call with the same shapes returns the same random numbers" if shaped
                else "so every call returns the same random numbers")
        self.report(
            node,
            f"{what} on every call of `{unit.name}`, {where}, and `{_by(how)}` draws from it, {same}. "
            f"Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`",
            related=first,
        )
        return True

    def _fixed_seed_beside_stream(self, node: cst.Call, key_expr: cst.BaseExpression, token, how: str) -> bool:
        """A function that draws from a key stream its library hands it anew each run
        (a numpyro model's ``numpyro.sample``, ``hk.next_rng_key()`` in a haiku
        transformed function, ``self.make_rng`` in a flax module: model/keyflow.stream_draw)
        and also hands a key it makes from a literal seed to a function that draws
        (``abm(jax.random.PRNGKey(0), ...)``): that part replays the same numbers on every
        run (every MCMC step, every seed, every training step) while the rest varies.  Not
        a ``jax.random`` draw from it (``jax.random.normal(PRNGKey(0), (d, D))``: a fixed
        matrix, constant on purpose)."""
        ctx = self.ctx
        unit = ctx.unit
        made = token.node
        if unit.is_module or token.loop_depth != 0 or _in_test(unit) or how == "split":
            return False
        if not isinstance(made, cst.Call) or ctx.qualname(made.func) not in ("jax.random.PRNGKey", "jax.random.key"):
            return False
        if (ctx.qualname(node.func) or "").startswith("jax.random."):
            # `W = jax.random.normal(PRNGKey(0), (d, D))`: a fixed matrix (random features, a
            # projection) drawn once on purpose; a key handed to a simulation is the bug
            return False
        if len(made.args) != 1 or made.args[0].keyword is not None or int_value(made.args[0].value) is None \
                or not any(d is made for d in descendants(unit.node)) or (id(made), 0) in self._fixed_reported:
            return False
        found = stream_draw(unit, ctx.qualname)
        if found is None:
            return False
        draw, lib = found
        self._fixed_reported.add((id(made), 0))
        name = f"{unit.cls.name}.{unit.name}" if unit.cls is not None else unit.name
        made_code = ctx.code(made).strip()
        what = (f"`{made_code}`" if key_expr is made else
                f"`{ctx.code(key_expr).strip()}`, made from `{made_code}` (line {{related_line}})")
        self.report(
            node,
            f"`{name}` draws from {lib}'s key stream (`{ctx.code(draw.func).strip()}`), a new key "
            f"each time it runs, but `{_by(how)}` draws from {what}, a fixed seed: every run of "
            f"`{name}` replays the same random numbers there. Draw that key from the stream "
            f"({STREAM_ADVICE[lib]})",
            related=made,
        )
        return True

    def _jit_aliases(self, unit) -> Optional[list[str]]:
        """The names a jit of ``unit`` is bound to (``step = jax.jit(train_step)``), empty
        for ``@jax.jit`` on it; None when nothing in this file jits it."""
        ctx = self.ctx
        out: Optional[list[str]] = None
        for site in ctx.index.sites:
            if site.qualname not in apis.CACHING_JITS:
                continue
            if site.target is unit:
                out = out or []
                continue
            fn = site.fn_expr
            if site.call is None or type(fn) is not cst.Name or fn.value != unit.name \
                    or site.scope.lookup_def(fn.value) is not unit:
                continue
            out = out or []
            for name, entries in site.scope.bindings.items():
                if any(v is site.call for _, v in entries):
                    out.append(name)
        return out

    def _assigned_in(self, loop: cst.CSTNode) -> set[str]:
        got = self._loop_names.get(id(loop))
        if got is None:
            got = self._loop_names[id(loop)] = assigned_in(loop)
        return got

    def _closure_key_called_again(self, key_expr: cst.BaseExpression, node: cst.Call, how: str) -> bool:
        """A function (or lambda) that draws from a key of the enclosing scope, bound
        once there, and is called more than once: every call draws the same numbers."""
        ctx = self.ctx
        unit = ctx.unit
        if not isinstance(key_expr, cst.Name) or unit.is_module:
            return False
        name = key_expr.value
        if ctx.local(name) is not None or unit.param(name) is not None or name in unit.assigned \
                or name in unit.global_names or name in unit.nonlocal_names:
            return False
        v = ctx.lookup(name)
        if v is None or v.kind not in (V.KEY, V.KEYS, V.UNKNOWN, V.ARRAY, V.NPARRAY):
            return False
        # the scope that binds the key, and the function defined directly in it
        outer = unit
        owner = unit.parent
        while owner is not None and not owner.is_module and not (name in owner.assigned or owner.param(name)):
            if name in owner.global_names or name in owner.nonlocal_names:
                return False
            outer, owner = owner, owner.parent
        if owner is None:
            return False
        if v.kind in (V.ARRAY, V.NPARRAY) and not (
                key_like_name(name) and owner.param(name) is not None and name not in owner.assigned):
            return False  # an array, unless a key-like parameter held as one only through its
            # annotation (`rng_key: Array | None = None`: a raw key is a `uint32` array)
        if owner.is_module:
            binds = ctx.index.module_assignments.get(name, [])
        else:
            binds = writes(owner.node, name)
            if owner.param(name) is not None:
                binds = [None, *binds]
        if len(binds) != 1:
            return False  # set again between calls (a split of a global key): not the same key
        mapped = self._mapped_sites(owner, outer) if how not in self._SELECTORS else []
        if mapped and _in_test(owner):
            return False  # a test's inputs drawn alike for every leaf (`tree_map(lambda _: normal(key, s), tree)`)
        if mapped:
            fname = self._called_name(outer, owner)
            mapper = self.ctx.code(mapped[0].func).strip()
            what = f"`{fname}`" if fname is not None else "the function"
            self.report(
                node,
                f"`{name}` comes from the enclosing scope and is consumed by `{_by(how)}` in "
                f"{what}, which `{mapper}` calls once for every element (line {{related_line}}): "
                f"every element draws the same random numbers. Give the function a key "
                f"parameter and map a fresh key with each element (`jax.random.split({name}, n)`, "
                f"unflattened into the tree's structure for a tree map)",
                related=mapped[0],
            )
            return True
        fname = self._bound_name(outer, owner)
        if fname is None:
            return False
        memo = (id(owner.node), fname)
        sites = self._sites.get(memo)
        if sites is None:
            sites = self._sites[memo] = self._call_sites(owner.node, fname)
        if len(sites) < 2 and not any(loop for _, loop in sites):
            return False
        if how in _PAIRING and not any(loop for _, loop in sites) and _permutes_own_argument(node, outer.node) \
                and len({ctx.code(c).strip() for c, _ in sites}) == len(sites):
            return True  # `def convert_data(x): return permutation(subkey, x)` applied to the
            # observations, the actions, the returns: one order for every array given, so
            # their rows stay aligned, on purpose (brax's and cleanba's PPO minibatches)
        if not any(loop for _, loop in sites) and self._differentiated(owner.node, fname):
            # an objective (`jax.jacrev(per_sample_loss)` too): evaluated again for its
            # value or a diagnostic, the same key gives the same objective, as meant
            return False
        first = sites[0][0]
        where = "in a loop" if len(sites) == 1 else f"{len(sites)} times"
        self.report(
            node,
            f"`{name}` comes from the enclosing scope and is consumed by `{_by(how)}` in "
            f"`{fname}`, which is called {where} (first on line {{related_line}}): every call "
            f"draws the same random numbers. Give `{fname}` a key parameter and pass a fresh key "
            f"to each call",
            related=first,
        )
        return True

    _SETUP = ("__init__", "__post_init__", "setup", "__setstate__", "__new__", "reset", "seed")

    @staticmethod
    def _called_from_call(cls, name: str) -> bool:
        """``self.<name>(...)`` is called in the class's ``__call__``."""
        call = cls.methods.get("__call__")
        if call is None:
            return False
        return any(isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == name
                   and isinstance(n.func.value, cst.Name) and n.func.value.value == "self"
                   for n in descendants(call.node))

    def _drawn_module_field(self, node: cst.Call, q: Optional[str]) -> None:
        """An equinox module's key field drawn from in ``__call__`` (or a method it calls),
        or handed on as a submodule's ``key=``: the module is immutable and the field is
        fixed when it is built, so every call draws the same numbers (equinox passes keys
        to ``__call__``)."""
        ctx = self.ctx
        if q is not None and q.startswith("jax.random."):
            if q.rsplit(".", 1)[1] not in apis.RANDOM_CONSUMERS:
                return
            key_expr = arg_at(node, 0, "key")
            how = f"`random.{q.rsplit('.', 1)[1]}`"
        else:
            given = keyword_arg(node, "key")
            if given is None:
                return
            key_expr = given.value
            how = f"`{ctx.code(node.func).strip()}(key=...)`"
        if type(key_expr) is not cst.Attribute or type(key_expr.value) is not cst.Name \
                or not key_like_name(key_expr.attr.value):
            return
        method = ctx.unit
        while method is not None and method.cls is None and not method.is_module:
            method = method.parent  # a lambda or helper inside the method draws for it
        if method is None or method.cls is None:
            return
        cls = method.cls
        if not cls.is_jax_module or cls.nnx or cls.linen or "haiku.Module" in cls.bases \
                or method.name in self._SETUP or len(method.params) < 2 \
                or method.params[0].name != key_expr.value.value or _in_test(method):
            # `get_features(self)`: a fixed random projection by design; a flax module is
            # often built anew with a split key for each use (the apply sites are judged)
            return
        if method.name != "__call__" and not self._called_from_call(cls, method.name):
            # `match(self, x)`, `fit`, `run`: an entry point run once per object, its key a
            # seed kept for reproducibility; the forward pass (`__call__`) runs every step
            return
        field = key_expr.attr.value
        declared = any(
            type(st) is cst.SimpleStatementLine and any(
                type(sm) is cst.AnnAssign and type(sm.target) is cst.Name and sm.target.value == field
                for sm in st.body)
            for st in cls.node.body.body)
        dotted = f"{key_expr.value.value}.{field}"
        if not declared and not any(attribute_writes(m.node, dotted) for n, m in cls.methods.items() if n in self._SETUP):
            return
        if any(attribute_writes(m.node, dotted) for n, m in cls.methods.items() if n not in self._SETUP):
            return
        memo = (id(method), dotted)
        if memo in self._stored_reported:
            return
        self._stored_reported.add(memo)
        fix = "Take a key argument (`def __call__(self, x, *, key)`) and pass a new one at each call"
        self.report(
            node,
            f"`{dotted}` is a field of the module `{cls.name}`, fixed when the module is built, and "
            f"`{method.name}` draws from it with {how}: every call of `{method.name}` draws the "
            f"same random numbers. {fix}",
        )

    def _stored_key_never_advanced(self, key_expr: cst.BaseExpression, node: cst.Call, how: str) -> bool:
        """``self.rng`` drawn from in a method, set only when the object is built: nothing
        replaces it, so every call of the method draws the same random numbers."""
        ctx = self.ctx
        unit = ctx.unit
        cls = unit.cls
        if cls is None or cls.is_jax_module or cls.nnx or cls.node.decorators or unit.name in self._SETUP:
            return False
        if len(unit.params) < 2 or cls.name in ctx.index.pytree_records:
            # `get_matrix(self)`: a fixed random object by design; a registered pytree
            # holds a key as data (a key wrapper)
            return False
        if not isinstance(key_expr, cst.Attribute) or not isinstance(key_expr.value, cst.Name) \
                or key_expr.value.value != "self" or not unit.params or unit.params[0].name != "self":
            return False
        dotted = f"self.{key_expr.attr.value}"
        if (id(unit), dotted) in self._stored_reported:
            return True
        if key_value_class(cls, key_expr.attr.value, ctx.qualname):
            return False  # a key type: `k.split()` twice is the caller's reuse, as for a raw key
        if (id(unit), dotted) in self._stored_checked:
            return False
        self._stored_checked.add((id(unit), dotted))
        made = False
        setup_calls: set[str] = set()
        for name, m in cls.methods.items():
            ws = attribute_writes(m.node, dotted)
            if name in self._SETUP:
                made = made or any(_makes_key(ctx, w) for w in ws)
                setup_calls.update(
                    n.func.attr.value for n in descendants(m.node)
                    if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
                    and isinstance(n.func.value, cst.Name) and n.func.value.value == "self")
            elif ws:
                return False  # another method replaces it
        if not made or unit.name in setup_calls or _refuses_a_second_call(cls, unit):
            return False
        self._stored_reported.add((id(unit), dotted))
        self.report(
            node,
            f"`{dotted}` is set only when the object is built and `{unit.name}` draws from it with "
            f"`random.{how}` without replacing it, so every call of `{unit.name}` draws the same "
            f"random numbers. Split it in the method (`{dotted}, sub = jax.random.split({dotted})`) "
            f"and draw with `sub`",
        )
        return True

    @staticmethod
    def _bound_name(outer, owner) -> Optional[str]:
        """The name the function ``outer`` (defined in ``owner``) is called by."""
        node = outer.node
        if isinstance(node, cst.FunctionDef):
            return node.name.value
        body = owner.node.body if isinstance(owner.node, cst.Module) else owner.node.body.body
        for stmt in body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
                        isinstance(small.targets[0].target, cst.Name) and \
                        any(n is node for n in (small.value, *descendants(small.value))):
                    if isinstance(small.value, cst.Call) and isinstance(small.value.func, (cst.Call, cst.Lambda)):
                        return None
                    return small.targets[0].target.value
        return None

    # callables that call the function they are given once for every element (every
    # leaf of a tree, every item of an iterable): (qualified name, the function's position)
    _MAPPERS = {
        "jax.tree_util.tree_map": 0, "jax.tree.map": 0, "jax.tree_map": 0, "jax.tree_multimap": 0,
        "jax.tree_util.tree_multimap": 0, "jax.tree_util.tree_map_with_path": 0,
        "jax.tree.map_with_path": 0, "map": 0, "optax.tree_utils.tree_map_params": 1,
    }

    # samplers that select or reorder: one key for every leaf picks the same rows of each
    # (`jax.tree.map(lambda x: jax.random.permutation(key, x), batch)`: a consistent shuffle)
    _SELECTORS = frozenset({"choice", "permutation", "shuffle", "randint"})

    @staticmethod
    def _called_name(outer, owner) -> Optional[str]:
        """The name a function defined in ``owner`` is bound to: a ``def``'s, or the
        target of an assignment whose value is the lambda itself (``noise = lambda n: ...``)."""
        node = outer.node
        if isinstance(node, cst.FunctionDef):
            return node.name.value
        for n in walk_tree(owner.node):
            if isinstance(n, cst.Assign) and n.value is node and len(n.targets) == 1 \
                    and isinstance(n.targets[0].target, cst.Name):
                return n.targets[0].target.value
        return None

    def _mapper(self, func: cst.BaseExpression, owner) -> Optional[int]:
        """The position of the mapped function when ``func`` is a mapping callable
        (``jax.tree.map``, ``map``; also through a name bound once to one, ``tree_map =
        tree_util.tree_map``), else None."""
        ctx = self.ctx
        if isinstance(func, cst.Name) and func.value == "map":
            return 0 if ctx.builtin_name(func) == "map" else None
        q = ctx.qualname(func)
        if q is None and isinstance(func, cst.Name):
            if owner.is_module:
                binds = ctx.index.module_assignments.get(func.value, [])
            else:
                memo = self._writes_memo
                binds = memo.get((id(owner.node), func.value))
                if binds is None:
                    binds = memo[(id(owner.node), func.value)] = writes(owner.node, func.value)
            if len(binds) == 1 and isinstance(binds[0], cst.Assign) and len(binds[0].targets) == 1 \
                    and isinstance(binds[0].targets[0].target, cst.Name):
                q = ctx.qualname(binds[0].value)
        return self._MAPPERS.get(q) if q is not None else None

    def _mapped_partial(self, node: cst.Call) -> None:
        """``jax.tree.map(partial(add_noise, key), grads)``, ``jax.vmap(partial(sample,
        key))(xs)``: a key bound by ``partial`` to a parameter the function hands to a
        ``jax.random`` consumer, and the function run once for every element."""
        ctx = self.ctx
        func = node.func
        vmapped = False
        if isinstance(func, cst.Call) and ctx.qualname(func.func) in _PARTIAL_MAPPERS:
            fn_pos, pos = 0, positional_args(func)  # `jax.vmap(partial(f, key))(xs)`
            vmapped = True
        else:
            pos = positional_args(node)
            if len(pos) < 2 or not any(type(a.value) is cst.Call for a in pos):
                return  # (cheap test first: no `partial(...)` handed to it)
            fn_pos = self._mapper(func, ctx.unit)
            if fn_pos is None or fn_pos >= len(pos) - 1:
                return
        if fn_pos >= len(pos) or any(a.star for a in node.args):
            return
        part = pos[fn_pos].value
        if vmapped and isinstance(part, cst.Name):
            part = bound_once(ctx.index, ctx.unit, part)  # `f = partial(sample, key)` ... `jax.vmap(f)(xs)`
        if not isinstance(part, cst.Call) or ctx.qualname(part.func) not in apis.PARTIALS:
            return
        inner = positional_args(part)
        if not inner or any(a.star for a in part.args):
            return
        target = inner[0].value
        bound = [a for a in part.args if a is not inner[0]]
        q = ctx.qualname(target) or ""
        if q.startswith("jax.random.") and q.rsplit(".", 1)[1] in self._SELECTORS:
            return
        if q.startswith("jax.random.") and q.rsplit(".", 1)[1] in apis.RANDOM_CONSUMERS:
            key = arg_at(cst.Call(func=target, args=bound), 0, "key")
            consumed = [(key, "")] if key is not None else []
        else:
            consumed = [(a, f", which draws from it with `{_by(smp)}`")
                        for a, _h, smp in ctx.key_consumer(cst.Call(func=target, args=bound))
                        if smp not in self._SELECTORS]
        if _in_test(ctx.unit):
            return
        for arg, via in consumed:
            if ctx.key_token(arg) is None:
                continue
            mapper = ctx.code(func.func).strip() if vmapped else ctx.code(func).strip()
            name = ctx.code(arg).strip()
            self.report(
                arg,
                f"`{name}` is bound by `partial` to `{ctx.code(target).strip()}`{via}, and "
                f"`{mapper}` calls it once for every element: every element "
                f"draws the same random numbers. Map a fresh key with each element "
                f"(`jax.random.split({name}, n)`) instead of binding one",
            )
            return

    def _mapped_sites(self, owner, outer) -> list[cst.Call]:
        """Calls in ``owner`` that hand the function ``outer`` (the lambda itself, or the
        name it is bound to) to a mapping callable: it runs once for every element."""
        fname = self._called_name(outer, owner)
        memo = ("mapped", id(owner.node), id(outer.node))
        got = self._sites.get(memo)
        if got is not None:
            return got
        out: list[cst.Call] = []
        for n in walk_tree(owner.node):
            if not isinstance(n, cst.Call) or any(a.star for a in n.args):
                continue
            pos = [a for a in n.args if a.keyword is None]
            if len(pos) < 2:
                continue
            fn_pos = self._mapper(n.func, owner)
            if fn_pos is None or fn_pos >= len(pos) - 1:
                continue
            f = pos[fn_pos].value
            if f is outer.node or (fname is not None and isinstance(f, cst.Name) and f.value == fname):
                if fn_pos == 0 and not self._builtin_map(n.func) and all(
                        self._one_leaf(a.value) for a in pos[1:]):
                    continue  # a tree map over one array: one leaf, one call
                out.append(n)
        self._sites[memo] = out
        return out

    def _builtin_map(self, func: cst.BaseExpression) -> bool:
        return isinstance(func, cst.Name) and func.value == "map" and self.ctx.builtin_name(func) == "map"

    def _one_leaf(self, tree: cst.BaseExpression) -> bool:
        """Is the tree given to a tree map a single array (``jnp.asarray(w)``, a name
        bound to one, a parameter annotated ``jax.Array``): a pytree of one leaf?"""
        ctx = self.ctx
        if isinstance(tree, cst.Call):
            q = ctx.qualname(tree.func) or ""
            return q.startswith(("jax.numpy.", "jax.random.", "numpy.")) and q.rsplit(".", 1)[-1] not in (
                "split", "array_split", "meshgrid", "unstack", "broadcast_arrays", "atleast_1d", "atleast_2d",
                "atleast_3d", "linalg", "svd", "eigh", "qr", "unique", "nonzero", "where", "histogram", "divmod",
                "frexp", "modf")
        if isinstance(tree, cst.Name):
            v = ctx.lookup(tree.value)
            return v is not None and v.kind in (V.ARRAY, V.NPARRAY)
        return False

    @staticmethod
    def _call_sites(scope: cst.CSTNode, fname: str) -> list[tuple[cst.Call, bool]]:
        """Calls of ``fname`` anywhere under ``scope`` (nested functions included), and
        whether each is in a loop or comprehension."""
        out: list[tuple[cst.Call, bool]] = []
        loops = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
        stack: list[tuple[cst.CSTNode, bool]] = [(scope, False)]
        while stack:
            n, loop = stack.pop()
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == fname:
                out.append((n, loop))
            inner = loop or isinstance(n, loops)
            stack.extend((c, inner) for c in reversed(children(n)))
        return out

    _DIFFERENTIATE = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacrev", "jax.jacfwd", "jax.jacobian",
                                "jax.hessian", "jax.vjp", "jax.linearize", "equinox.filter_grad",
                                "equinox.filter_value_and_grad"})

    def _differentiated(self, scope: cst.CSTNode, fname: str) -> bool:
        """Is the function ``fname`` given to a differentiation transform in ``scope``
        (``jax.jacrev(fname)``, ``jax.value_and_grad(fname, has_aux=True)``)?"""
        for n in walk_tree(scope):
            if isinstance(n, cst.Call) and n.args and n.args[0].keyword is None \
                    and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == fname \
                    and self.ctx.qualname(n.func) in self._DIFFERENTIATE:
                return True
        return False

    def _given_key_ignored(self, key_expr: cst.BaseExpression, node: cst.Call, token, how: str) -> bool:
        """A function given a key (a ``rng``/``key`` parameter, or ``kwargs.get("rng")``)
        that draws from a key of a fixed seed instead and never reads the one it gets:
        every call draws the same numbers."""
        ctx = self.ctx
        unit = ctx.unit
        made = token.node
        if unit.is_module or not isinstance(unit.node, cst.FunctionDef) or token.loop_depth != 0:
            return False
        if not isinstance(made, cst.Call) or ctx.qualname(made.func) not in ("jax.random.PRNGKey", "jax.random.key"):
            return False
        if not all(invariant(a.value, set(unit.assigned) | {p.name for p in unit.params}, calls=False)
                   for a in made.args):
            return False
        given = [(p.name, None) for p in unit.params
                 if key_like_name(p.name) and not _declared_no_key(_param_node(unit.node, p.name))]
        for n in descendants(unit.node):
            if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name) \
                    and _kwargs_key(n.value):
                given.append((n.targets[0].target.value, n))
        for name, at in given:
            if _read_before(unit.node, name, at, made):
                continue
            self.report(
                node,
                f"`{unit.name}` is given a key (`{name}`, line {{related_line}}) but never uses it: "
                f"`random.{how}` draws from `{ctx.code(made).strip()}`, a fixed seed, so every call "
                f"of `{unit.name}` draws the same random numbers. Draw with the key it is given",
                related=at if at is not None else _param_node(unit.node, name),
            )
            return True
        return False

    _LOOP_BODIES = ("lax.scan", "lax.fori_loop", "lax.while_loop", "lax.map", "lax.associative_scan")

    def _closure_key_in_loop_body(self, key_expr, node: cst.Call, how: str, at: Optional[cst.CSTNode] = None) -> bool:
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
            at or node,
            f"`{key_expr.value}` comes from the enclosing scope and is consumed by `{_by(how)}` "
            f"inside a {prim} body, which runs every iteration with the same key: every step "
            f"draws the same random numbers. Carry the key through the loop and split it each "
            f"step, or pass per-step keys as `xs` (`jax.random.split({key_expr.value}, n)`)",
        )
        return True

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """``def f(x, key=jax.random.PRNGKey(0))``: the default is built once, when the
        function is defined, and shared by every call that leaves ``key`` out."""
        ctx = self.ctx
        self._seed_overwrites_stream(node)
        self._record_keeps_key(node)
        p = node.params
        for param in (*p.posonly_params, *p.params, *p.kwonly_params):
            d = param.default
            if isinstance(d, cst.Name) and not _in_test(ctx.unit):
                self._key_default(node, param, d)
                continue
            if not isinstance(d, cst.Call) or ctx.qualname(d.func) not in ("jax.random.PRNGKey", "jax.random.key"):
                continue
            name = param.name.value
            if not any(isinstance(n, cst.Name) and n.value == name for n in descendants(node.body)):
                continue
            # a reproducible default (like `seed=0`) is a choice; it is a bug when the
            # file relies on it more than once: those calls draw the same numbers
            calls = self._calls_leaving_out(node, param)
            if len(calls) < 2:
                continue
            self.report(
                d,
                f"`{name}` defaults to a key built once, when `{node.name.value}` is defined, and "
                f"{len(calls)} calls here leave it out (the first on line {{related_line}}): they all "
                f"draw the same random numbers. Make `{name}` a required argument and pass a fresh "
                f"key to each call",
                related=calls[0],
            )

    def _record_keeps_key(self, node: cst.FunctionDef) -> None:
        """``def step(state): x = normal(state.key, s); return State(new, state.key)``
        (or ``state._replace(params=new)``): the record returned for the next step holds
        the key this step drew from, so every step draws the same numbers
        (model/keyflow.record_key_kept).  Not in tests."""
        ctx = self.ctx
        if self._file_draws is None:  # once per file: a scan of the text per def is quadratic
            self._file_draws = "random" in ctx.text or "rngs" in ctx.text
        unit = ctx.index.unit_of.get(id(node))
        if unit is None or not self._file_draws or _in_test(unit):
            return
        found = record_key_kept(unit, ctx.qualname, lambda w: ctx.index.pytree_class(w) is not None)
        if found is None:
            return
        draw, how, kept, key = found
        self.report(
            kept,
            f"`{key}` was consumed by `{_by(how)}` on line {{related_line}} and is handed back unchanged "
            f"in the record `{node.name.value}` returns: the next step given it draws the same random "
            f"numbers. Split it first (`key, sub = jax.random.split({key})`), draw with `sub` and "
            f"return the new `key` in the record",
            related=draw,
        )

    def _seed_overwrites_stream(self, node: cst.FunctionDef) -> None:
        """``rng, _rng = jax.random.split(rng)`` then ``rng = jax.random.PRNGKey(0)``
        before ``rng`` is read: the key carried on from the one the function was given is
        dropped, and every later draw comes from a fixed seed (model/keyflow)."""
        ctx = self.ctx
        seeded = self._file_makes_keys
        if seeded is None:  # looked up once per file: a scan of the text per def is quadratic
            seeded = self._file_makes_keys = "key(" in ctx.text or "PRNGKey(" in ctx.text
        if not seeded:
            return  # no key made from a seed anywhere in the file (`PRNGKey(`, `key(`)
        unit = ctx.index.unit_of.get(id(node))
        if unit is None or _in_test(unit):
            return
        for assign, name, derived, made in seed_overwrites_stream(unit, ctx.qualname):
            self.report(
                assign,
                f"`{name}` holds a key derived from the one `{node.name.value}` is given (line "
                f"{{related_line}}) and is rebound here, unread, to `{ctx.code(made).strip()}`, a fixed "
                f"seed: every key drawn from `{name}` after this line is the same whatever key "
                f"`{node.name.value}` is given. Give the fixed key its own name and go on splitting "
                f"`{name}`",
                related=derived,
            )

    def _key_default(self, fn: cst.FunctionDef, param: cst.Param, default: cst.Name) -> None:
        """``def actor_fn(obs, key=key)`` with ``key`` a PRNG key of the enclosing scope: the
        default is that one key, bound when the function is defined, so every call that
        leaves ``key`` out draws from it again.  Flagged where the body draws from it (a
        sampler, a helper that consumes it, or a call given it as ``seed=``/``rng=``/
        ``key=``) when the file calls the function twice without it, or once in a loop."""
        ctx = self.ctx
        v = ctx.value(default)
        if v.kind != V.KEY:
            return
        name = param.name.value
        unit = ctx.index.unit_of.get(id(fn))
        if unit is None or name in unit.assigned:
            return
        site = None
        for n in walk_tree(fn.body, lambda c: isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef)),
                           source_order=True):
            if not isinstance(n, cst.Call):
                continue
            for a in n.args:
                if isinstance(a.value, cst.Name) and a.value.value == name and (
                        name in unit.consumes_keys
                        or (a.keyword is not None and (a.keyword.value in ("seed", "rng", "key", "prng_key")
                                                       or key_like_name(a.keyword.value)))):
                    site = n
                    break
            if site is not None:
                break
        if site is None:
            return
        calls = [c for c in self._calls_leaving_out(fn, param) if self._calls_fn(c, unit)]
        looped = [c for c in calls if id(c) in self._looped_calls()]
        if len(calls) < 2 and not looped:
            return
        first = (looped or calls)[0]
        where = "in a loop" if looped else f"{len(calls)} times"
        self.report(
            site,
            f"`{name}` defaults to `{ctx.code(default).strip()}`, one key bound when `{fn.name.value}` is "
            f"defined, and this file calls `{fn.name.value}` {where} without passing it (line "
            f"{{related_line}}): every such call draws the same random numbers here. Make `{name}` a "
            f"required argument and pass a fresh key to each call",
            related=first,
        )

    def _calls_fn(self, call: cst.Call, unit) -> bool:
        """Does ``call`` (named like ``unit``) call it: a function by its name, a method
        through ``self`` or through a name bound once to an instance of its class?"""
        func = call.func
        if unit.cls is None:
            return isinstance(func, cst.Name)
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
            return False
        if func.value.value == "self":
            return True
        index = self.ctx.index
        if func.value.value not in index.instances:
            return False
        # the innermost function holding the call: where the receiver's name is bound
        holder = index.module_unit
        for u in index.units:
            if not u.is_module and len(u.qualname) > len(holder.qualname if not holder.is_module else "") \
                    and any(n is call for n in walk_tree(u.node)):
                holder = u
        return instance_class(index, holder, func.value) is unit.cls

    def _looped_calls(self) -> set[int]:
        """The calls of this file inside a loop's body or a comprehension."""
        got = self._looped_memo
        if got is None:
            got = set()
            for n in walk_tree(self.ctx.module):
                if isinstance(n, (cst.For, cst.While)):
                    got.update(id(c) for c in walk_tree(n.body) if isinstance(c, cst.Call))
                elif isinstance(n, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
                    got.update(id(c) for c in walk_tree(n) if isinstance(c, cst.Call))
            self._looped_memo = got
        return got

    def _calls_leaving_out(self, fn: cst.FunctionDef, param: cst.Param) -> list[cst.Call]:
        """The calls of ``fn`` in this file that do not pass ``param``."""
        p = fn.params
        if param in p.kwonly_params:
            index = None
        else:
            index = [*p.posonly_params, *p.params].index(param)
        ctx = self.ctx
        out = []
        stack: list[cst.CSTNode] = [ctx.module]
        while stack:
            n = stack.pop()
            stack.extend(reversed(list(children(n))))
            if not isinstance(n, cst.Call):
                continue
            f = n.func
            if isinstance(f, cst.Name) and f.value == fn.name.value:
                shift = 0
            elif isinstance(f, cst.Attribute) and f.attr.value == fn.name.value:
                shift = 1  # a method called on an instance: `self` is bound
            else:
                continue
            if any(a.star for a in n.args):
                continue
            if any(a.keyword is not None and a.keyword.value == param.name.value for a in n.args):
                continue
            npos = sum(1 for a in n.args if a.keyword is None)
            if index is not None and npos + shift > index:
                continue
            out.append(n)
        return out

    _MAPPED = ("wrapped by jax.vmap", "decorated with @jax.vmap")

    def _closure_key_in_mapped_fn(self, key_expr, node: cst.Call, how: str) -> bool:
        """A key from the enclosing scope consumed in a vmapped function: one key for
        every element of the batch."""
        ctx = self.ctx
        if not isinstance(key_expr, cst.Name) or ctx.local(key_expr.value) is not None:
            return False
        if not any(r in self._MAPPED for r in ctx.unit.reasons):
            return False
        self.report(
            node,
            f"`{key_expr.value}` comes from the enclosing scope and is consumed by `{_by(how)}` "
            f"inside a function mapped by jax.vmap: every element of the batch uses the same key "
            f"and draws the same random numbers. Map per-element keys with the inputs "
            f"(`jax.vmap(f)(xs, jax.random.split({key_expr.value}, n))`)",
        )
        return True

    def _leave_loop(self, node: cst.CSTNode) -> None:
        ctx = self.ctx
        if not ctx.loop_stack:
            return
        frame = ctx.loop_stack[-1]
        kind = "comprehension" if not isinstance(node, (cst.For, cst.While)) else "loop"
        if isinstance(node, cst.For) and _in_test(ctx.unit) and _cases_loop(node, ctx.unit):
            # `for train in (False, True):` in a test: each case is meant to get the
            # same inputs, drawn again from the same key
            return
        if _runs_once(node, ctx.unit):
            return  # `[normal(key, (n,)) for n in sizes]` with `sizes = [1024]`: one draw
        if _timed_repeat(ctx, node):
            return  # `for _ in range(2): t0 = time.perf_counter(); run(key)`: the same run, timed again
        for token, (site, how) in list(ctx.consumed_keys()):
            if token in frame.entry_consumed or token.loop_depth >= frame.depth:
                continue
            holders = [n for n, v in frame.entry_env.items() if v.key is token]
            still = [n for n in holders if getattr(ctx.local(n), "key", None) is token]
            attr_still = ctx.attr_key(token.label) is token
            if still or attr_still or (
                not holders and token.loop_depth < frame.depth and token.label not in frame.rebound
                and _label_base(token.label) not in frame.rebound
            ):
                if not any(n is site for n in walk_tree(node)):
                    continue  # consumed before this (inner) loop, in the loop around it
                if _read_by_rebound_holder(node, site, holders, still, ctx.qualname):
                    continue  # `key = original_key` ... `for _ in r: key, sub = split(key)`: the alias
                    # read is rebound every iteration; the name still holding the key is not read
                if _read_through_rebound(site, frame.rebound, holders, ctx):
                    continue  # `split(state[0])` with `state = step(...)` later in the body:
                    # the next iteration reads the key the body put there, not this one
                if isinstance(node, cst.For) and _drawn_on_one_iteration(node, site):
                    continue  # `for n in [0, 1]: if n == 1: y = dropout(y, key)`: one iteration draws
                if _handed_to_evaluation(node, site, lambda e: bound_once(ctx.index, ctx.unit, e)):
                    continue  # `vmap(partial(model, enable_dropout=False))(x, key=split(key, n))`:
                    # the keys go to a call that switches its randomness off, nothing draws from them
                if isinstance(node, cst.For) and _in_test(ctx.unit) and _iterations_apart(node, ctx.unit, site):
                    continue  # each iteration a case of its own: its own draw, checked and dropped
                if isinstance(node, (cst.For, cst.While)) and any(
                        isinstance(inner, cst.For) and inner is not node and _timed_repeat(ctx, inner)
                       and any(n is site for n in walk_tree(inner.body)) for inner in walk_tree(node.body)):
                    continue  # drawn in a timed repetition (a benchmark) inside this loop: the
                    # same numbers for each configuration it runs, so the timings compare
                if how in _PAIRING and _permutes_loop_item(ctx, site, node):
                    continue  # `[permutation(key, a) for a in arrays]`: each array of the
                    # collection in the same order (paired rows kept aligned), on purpose
                name = still[0] if still else token.label
                self.report(
                    site,
                    f"`{name}` is consumed by `{_by(how)}` inside a {kind} but never replaced, "
                    f"so every iteration draws the same random numbers. Split a new key each "
                    f"iteration (`{name}, sub = jax.random.split({name})`) or use "
                    f"`jax.random.fold_in({name}, i)`",
                )
                # report once per site
                frame.entry_consumed[token] = (site, how)

        if isinstance(node, (cst.For, cst.While)):
            self._back_edge(node, frame)

    def _back_edge(self, loop: cst.CSTNode, frame) -> None:
        """``for ...: key, sub = split(key); ...; sample(key)``: the name the iteration
        rebinds is consumed after its last binding and carried to the next iteration,
        whose first use (``split(key)`` at the top) consumes the same key again.  Two
        draws (or two splits) get the same random bits; a sampler and a split do not
        share bits, but break JAX's one-use promise (KeyReuseError under
        ``jax_debug_key_reuse``): the message says which."""
        ctx = self.ctx
        consumed = dict(ctx.consumed_keys())
        for name in sorted(frame.rebound):
            t1 = getattr(ctx.local(name), "key", None)
            if t1 is None or t1 not in consumed or t1 in frame.entry_consumed:
                continue
            entry = frame.entry_env.get(name)
            t0 = entry.key if entry is not None else None
            if t0 is None:  # a token made at the top of the body, before the name was rebound
                t0 = next((t for t in consumed if t is not t1 and t.label == name and t.loop_depth < frame.depth
                           and t not in frame.entry_consumed), None)
            if t0 is None or t0 is t1 or t0 not in consumed or t0 in frame.entry_consumed:
                continue
            (site0, how0), (site1, how1) = consumed[t0], consumed[t1]
            inside = {id(n) for n in walk_tree(loop)}
            if id(site0) not in inside or id(site1) not in inside or site0 is site1:
                continue
            if not any(type(n) is cst.Name and n.value == name for n in walk_tree(site0)):
                # the entry key was consumed there through another name (`rng, seed =
                # split(rng)` after `rng = seed`): the next iteration's use reads that
                # name's new key, not what `name` carries
                continue
            if self._unread(site1) or _exits_after(loop, site1):
                continue  # the draw is never read, or the iteration leaves the loop after it
            if _split_and_draw(how0, how1):
                # `randint(rng)` here, `split(rng)` at the top of the next iteration: the new keys
                # are not the draw's bits (JAX 0.10.2: `bits(k, (4,))` != `key_data(split(k))`), but
                # JAX promises independence only to a key used once (KeyReuseError on the second use)
                why = ("JAX promises independent random numbers only for a key used once (with "
                       "`jax_debug_key_reuse` on, the second use raises KeyReuseError for a typed key "
                       "from `jax.random.key`)")
            else:
                why = "both get the same random bits"
            self.report(
                site1,
                f"`{name}` is consumed by `{_by(how1)}` here and carried to the next iteration of the loop, "
                f"where `{_by(how0)}` on line {{related_line}} consumes it again: {why}. Give this call a "
                f"subkey (`{name}, sub = jax.random.split({name})` and pass `sub`)",
                related=site0,
            )

    def leave_Assign(self, node: cst.Assign) -> None:
        """``w, key = init_params(key, shape)`` where ``init_params`` (of this file, a
        method of this class, or imported from the project) draws from ``key`` and returns
        that same key (model/keyflow.returned_keys): the name the caller keeps holds a
        consumed key, and its next draw repeats the helper's bits."""
        value = node.value
        if type(value) is not cst.Call or len(node.targets) != 1:
            return
        ctx = self.ctx
        callee, returned = ctx.returned_keys(value)
        if not returned:
            return
        target = node.targets[0].target
        for pos, how in returned.items():
            if pos is None:
                name = target
            elif type(target) in (cst.Tuple, cst.List) and pos < len(target.elements) \
                    and not any(type(el.value) is cst.StarredElement for el in target.elements):
                name = target.elements[pos].value
            else:
                continue
            if type(name) is not cst.Name:
                continue
            token = ctx.key_token(name)
            if token is not None:
                ctx.consume_key(token, value, f"{how}` in `{callee}()`, which returned it as `{name.value}")

    def leave_Return(self, node: cst.Return) -> None:
        """The body of ``lax.scan``/``fori_loop``/``while_loop`` returns as its new carry a
        key it consumed after binding it (``key, sub = split(key)`` ... ``sample(key)`` ...
        ``return key, ys``): the next step is handed that consumed key and consumes it
        again where it consumed its carry (the ``split`` at the top)."""
        ctx = self.ctx
        unit = ctx.unit
        if node.value is None or not isinstance(unit.node, cst.FunctionDef):
            return
        prim = next((r.rsplit(" ", 1)[1] for r in unit.reasons
                     if r.startswith("a body passed to") and r.endswith(("lax.scan", "lax.fori_loop", "lax.while_loop"))),
                    None)
        if prim is None:
            self._returns_consumed_key(node)
            return
        params = unit.positional()
        at = 1 if prim.endswith("fori_loop") else 0
        if len(params) <= at:
            return
        carry = node.value
        if prim.endswith("scan"):
            if not isinstance(carry, cst.Tuple) or len(carry.elements) != 2:
                return
            carry = carry.elements[0].value
        names = [carry] if isinstance(carry, cst.Name) else [
            el.value for el in getattr(carry, "elements", ()) if isinstance(el.value, cst.Name)]
        if not names:
            return
        carried = {params[at].name} | _unpacked_from(unit.node, params[at].name)
        consumed = dict(ctx.consumed_keys())
        for n in names:
            t1 = ctx.key_token(n)
            if t1 is None or t1 not in consumed:
                continue
            if n.value in carried and t1.label == n.value and t1.loop_depth == 0 \
                    and self._carried_unchanged(unit.node, n.value, params[at].name, consumed[t1], prim):
                continue
            if n.value == params[at].name:
                continue
            t0 = next((t for t in consumed if t is not t1 and t.label in carried), None)
            if t0 is None:
                continue
            (site0, how0), (site1, how1) = consumed[t0], consumed[t1]
            if self._unread(site1):
                continue
            why = ("JAX promises independent random numbers only for a key used once (with "
                   "`jax_debug_key_reuse` on, the second use raises KeyReuseError for a typed key from "
                   "`jax.random.key`)") if _split_and_draw(how0, how1) else "so both get the same random bits"
            self.report(
                site1,
                f"`{n.value}` is consumed by `{_by(how1)}` here and returned as the {prim} carry: the next "
                f"step is handed this consumed key, and `{_by(how0)}` on line {{related_line}} consumes it "
                f"again{',' if why.startswith('so ') else ':'} {why}. Give this call a subkey "
                f"(`{n.value}, sub = jax.random.split({n.value})` and pass `sub`)",
                related=site0,
            )

    def _returns_consumed_key(self, node: cst.Return) -> None:
        """``return x, key`` of a function that consumed ``key`` (drew from it, split it,
        handed it to a helper that draws, or gave it as the initial carry of a loop whose
        body advances the key it carries), to a caller of this file that keeps the
        returned key as state (``x, self.key = f(..., self.key)``): the next use of the
        key it kept consumes that key again and draws the same random numbers.  (A
        caller that keeps it in a local name is followed by the caller's own flow.)"""
        ctx = self.ctx
        fn = ctx.unit.node
        value = node.value
        if isinstance(value, cst.Tuple):
            elements = [(i, el.value) for i, el in enumerate(value.elements) if not isinstance(el, cst.StarredElement)]
            if any(isinstance(el, cst.StarredElement) for el in value.elements):
                return
        else:
            elements = [(None, value)]
        consumed = dict(ctx.consumed_keys())
        for i, n in elements:
            if type(n) is not cst.Name or not key_like_name(n.value):
                continue
            token = ctx.key_token(n)
            if token is None:
                continue
            found = consumed.get(token)
            if found is None and ctx.unit.param(n.value) is not None and not writes(fn, n.value):
                found = self._given_to_advancing_loop(fn, n.value)
            if found is None:
                continue
            site, how = found
            shown_how = how if how.startswith("the ") else f"`{_by(how)}`"
            kept = self._caller_keeps(fn, i)
            if kept is None:
                continue
            self.report(
                n,
                f"`{n.value}` is returned to the caller, but {shown_how} on line {{related_line}} already consumed it: "
                f"{kept[0]} keeps it as `{kept[1]}`, and its next use of that key draws the same random numbers "
                f"again. Return the key that was kept back (`{n.value}, sub = jax.random.split({n.value})` "
                f"before drawing with `sub`, or the key the loop carried out)",
                related=site,
            )

    def _given_to_advancing_loop(self, fn: cst.FunctionDef, name: str):
        """``name`` is part of the initial carry of a ``lax.scan``/``fori_loop``/``while_loop``
        in ``fn`` whose body takes a key out of its carry and rebinds it (``key, sub =
        split(key)``; ``(..., key) = update(..., key)``) before returning it: the loop's
        first step consumed ``name``.  (the loop call, a description) or None."""
        ctx = self.ctx
        for call in walk_tree(fn.body, lambda c: isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef))):
            if type(call) is not cst.Call:
                continue
            q = ctx.qualname(call.func)
            spec = LOOP_CARRY.get(q or "")
            if spec is None:
                continue
            body_at, init_at, carry_at = spec
            body, init = arg_at(call, body_at, None), arg_at(call, init_at, None)
            if type(body) is not cst.Name or init is None:
                continue
            init = bound_once(ctx.index, ctx.unit, init)
            if not any(type(x) is cst.Name and x.value == name for x in walk_tree(init)):
                continue
            body_unit = ctx.unit.lookup_def(body.value)
            if body_unit is None or not isinstance(body_unit.node, cst.FunctionDef):
                continue
            params = body_unit.positional()
            if len(params) <= carry_at:
                continue
            if advances_carried_key(body_unit.node, params[carry_at].name):
                return call, f"the `{q.rsplit('.', 1)[-1]}` (its body takes the key out of the carry and carries a new one)"
        return None

    def _caller_keeps(self, fn: cst.FunctionDef, at: Optional[int]) -> Optional[tuple[str, str]]:
        """A call of ``fn`` in this file whose result is unpacked so that the element at
        ``at`` (the whole result when None) lands in an attribute (``self.key``: state
        the next call reads): (the caller, the target as written)."""
        ctx = self.ctx
        name = fn.name.value
        for unit in ctx.index.units:
            if unit.node is fn:
                continue
            for st in walk_tree(unit.node.body if not unit.is_module else unit.node,
                                lambda c: isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef))):
                if type(st) is not cst.Assign or len(st.targets) != 1 or type(st.value) is not cst.Call:
                    continue
                f = st.value.func
                called = f.value if type(f) is cst.Name else f.attr.value if type(f) is cst.Attribute else None
                if called != name:
                    continue
                tgt = st.targets[0].target
                if at is not None:
                    if not isinstance(tgt, (cst.Tuple, cst.List)) or at >= len(tgt.elements) \
                            or any(isinstance(el, cst.StarredElement) for el in tgt.elements):
                        continue
                    tgt = tgt.elements[at].value
                if type(tgt) is not cst.Attribute:
                    continue  # a local name: the caller's own flow shows its next use (`x, key = f(key)` twice)
                shown = ctx.code(tgt).strip()
                return ("the module" if unit.is_module else f"`{unit.name}`"), shown
        return None

    def _runs_once(self, fn: cst.FunctionDef) -> bool:
        """Is every loop call of the enclosing scope that runs ``fn`` one step long
        (``lax.scan(f, c, None, length=1)``, ``fori_loop(0, 1, f, c)``)?"""
        ctx = self.ctx
        parent = ctx.unit.parent
        if parent is None:
            return False
        found = False
        for call in walk_tree(parent.node, lambda c: c is not parent.node and isinstance(c, (cst.FunctionDef, cst.ClassDef))):
            if type(call) is not cst.Call:
                continue
            spec = LOOP_CARRY.get(ctx.qualname(call.func) or "")
            if spec is None:
                continue
            body = arg_at(call, spec[0], None)
            if type(body) is not cst.Name or body.value != fn.name.value:
                continue
            found = True
            q = ctx.qualname(call.func)
            if q == "jax.lax.scan":
                n = int_value(arg_at(call, 3, "length"))
                xs = arg_at(call, 2, "xs")
                if n is None or n > 1 or not (xs is None or type(xs) is cst.Name and xs.value == "None"):
                    return False
            elif q == "jax.lax.fori_loop":
                lo, hi = int_value(arg_at(call, 0, "lower")), int_value(arg_at(call, 1, "upper"))
                if lo is None or hi is None or hi - lo > 1:
                    return False
            else:
                return False
        return found

    def _carried_unchanged(self, fn: cst.FunctionDef, name: str, carry: str, consumed, prim: str) -> bool:
        """The body takes ``name`` out of its carry, consumes it, and returns it unchanged
        as the new carry (never rebound in the body): every step is handed the same key
        and consumes it at the same call, so every step draws the same random numbers."""
        site, how = consumed
        if len(writes(fn, name)) != (0 if name == carry else 1) or self._unread(site):
            return False  # rebound in the body (`key, sub = split(key)` then `key` is new), or the draw is unused
        if any(type(n) is cst.Subscript and n.value is site and not all(
                type(e.slice) is cst.Index and type(e.slice.value) is cst.Integer for e in n.slice)
               for n in walk_tree(fn.body)):
            return False  # `split(k, n)[i]`: each step takes another of the same keys
        if self._runs_once(fn):
            return True  # one step (`length=1`): the key is consumed once
        self.report(
            site,
            f"`{name}` comes in with the {prim} carry, is consumed by `{_by(how)}` here and returned "
            f"unchanged as the new carry: every step is handed the same key and draws the same random "
            f"numbers. Split it each step (`{name}, sub = jax.random.split({name})`), pass `sub` here "
            f"and return the new `{name}`",
        )
        return True

    leave_For = _leave_loop
    leave_While = _leave_loop
    leave_ListComp = _leave_loop
    leave_SetComp = _leave_loop
    leave_GeneratorExp = _leave_loop
    leave_DictComp = _leave_loop


def _read_by_rebound_holder(loop: cst.CSTNode, site: cst.CSTNode, holders: list[str], still: list[str],
                            qualname: Optional[Callable] = None) -> bool:
    """Does the consuming call read the key through a name that held it at the loop's
    entry (``key`` of ``key = original_key``) and that a statement at the top level of
    the loop's body, the draw's own or a later one, binds again on every iteration
    (``key, sub = jax.random.split(key)``)?
    The next iteration reads the new key; the holders that still hold the key after the
    body (``still``: ``original_key``) are not read there."""
    if type(site) is not cst.Call or type(loop) not in (cst.For, cst.While):
        return False
    read = {a.value.value for a in site.args if type(a.value) is cst.Name}  # type: ignore[attr-defined]
    if read & set(still):
        return False
    read &= set(holders)
    if not read:
        return False
    body = loop.body  # type: ignore[attr-defined]
    bound: set[str] = set()
    before: set[str] = set()  # bound before the draw (`key = original_key` again): unknown
    reached = False
    for stmt in (body.body if type(body) is cst.IndentedBlock else ()):
        reached = reached or any(n is site for n in walk_tree(stmt))
        names = {n.value for n in walk_tree(stmt) if type(n) is cst.Name}
        if not reached:
            before |= names & read
            continue
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            if type(small) is cst.Assign and _fresh_key_value(small.value, qualname):
                for t in small.targets:
                    for n in walk_tree(t.target):
                        if type(n) is cst.Name:
                            bound.add(n.value)
    return not before and read <= bound


# calls whose result is a key not drawn before: a split or fold_in of the key, or a key
# made from a seed that is not a constant
_FRESH_KEYS = frozenset({"jax.random.split", "jax.random.fold_in"})
_SEEDED_KEYS = frozenset({"jax.random.PRNGKey", "jax.random.key"})


def _fresh_key_value(value: cst.BaseExpression, qualname: Optional[Callable]) -> bool:
    """Is ``value`` a new key (``jax.random.split(key)``, ``split(key)[0]``,
    ``fold_in(key, i)``, ``PRNGKey(seed + i)``), not the same key again (``key =
    original_key``, ``PRNGKey(0)``, a copy)?"""
    if type(value) is cst.Subscript:
        value = value.value
    if type(value) is not cst.Call or qualname is None:
        return False
    q = qualname(value.func)
    if q in _FRESH_KEYS:
        return True
    return q in _SEEDED_KEYS and bool(value.args) and not _constant(value.args[0].value)


def _read_through_rebound(site: cst.CSTNode, rebound: set[str], holders: list[str], ctx) -> bool:
    """The consuming call reads its key out of a container (``state[0]``, ``carry.rng``)
    whose name the loop body binds again, and no name that still holds the key is
    passed to it as such: only the first iteration sees the key the loop started with."""
    if type(site) is not cst.Call:
        return False
    args = [a.value for a in site.args]
    if any(type(e) is cst.Name and (e.value in holders or getattr(ctx.local(e.value), "key", None) is not None
                                    or ctx.local(e.value) is None) for e in args):
        return False  # a name passed as it is that is (or may be) a key: the key itself
    for e in args:
        if type(e) is cst.Attribute and e.attr.value in ("shape", "dtype", "ndim", "size"):
            continue  # `x.shape`: not where a key is read from
        if type(e) is cst.Attribute and dotted_name(e) in rebound:
            return True  # `split(s.key, 3)` with `s.key, k1, k2 = ...` in the body: the
            # attribute the next iteration reads holds the key this one made
        base = e
        while type(base) in (cst.Subscript, cst.Attribute):
            base = base.value  # type: ignore[attr-defined]
        if base is not e and type(base) is cst.Name and base.value in rebound and base.value not in holders:
            return True
    return False


def _statements(root: cst.CSTNode) -> dict[int, int]:
    """id(node) -> id of the innermost statement of ``root`` that holds it (a simple
    statement line, or the compound statement whose header holds it), for every node of
    ``root`` outside nested functions, lambdas and classes: one walk, asked only when a
    reuse is about to be reported."""
    out: dict[int, int] = {}
    stack: list[tuple[cst.CSTNode, int]] = [(c, 0) for c in children(root)]
    while stack:
        n, stmt = stack.pop()
        if isinstance(n, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            stmt = id(n)
        out[id(n)] = stmt
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        stack.extend((c, stmt) for c in children(n))
    return out


def _exits_after(loop: cst.CSTNode, site: cst.CSTNode) -> bool:
    """Does a statement after the one holding ``site`` (in its block or an enclosing
    block of the loop's body) leave the loop (``return``, ``break``, ``raise``)?"""
    def search(stmts) -> Optional[bool]:
        for i, st in enumerate(stmts):
            if not any(n is site for n in walk_tree(st)):
                continue
            if any(_leaves(s) for s in stmts[i + 1:]):
                return True
            for block in _blocks(st):
                got = search(block)
                if got is not None:
                    return got
            return False
        return None
    body = getattr(loop, "body", None)
    return bool(search(list(getattr(body, "body", ()))))


def _blocks(st: cst.CSTNode) -> list:
    out = []
    for attr in ("body", "orelse", "finalbody"):
        b = getattr(st, attr, None)
        if b is None:
            continue
        inner = getattr(b, "body", None)
        if isinstance(inner, (list, tuple)):
            out.append(list(inner))
        elif inner is not None and hasattr(inner, "body"):
            out.append(list(inner.body))  # `else:` / `elif`
        if isinstance(b, cst.If):
            out.extend(_blocks(b))
    for h in getattr(st, "handlers", ()):
        out.append(list(h.body.body))
    return out


def _leaves(st: cst.CSTNode) -> bool:
    if isinstance(st, cst.SimpleStatementLine):
        return any(isinstance(s, (cst.Return, cst.Break, cst.Raise)) for s in st.body)
    return False


def _unpacked_from(fn: cst.FunctionDef, param: str) -> set[str]:
    """The names ``fn`` binds straight from ``param``: ``key = carry``, ``key, x = carry``."""
    out: set[str] = set()
    for n in walk_tree(fn.body, lambda c: isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef))):
        if isinstance(n, cst.Assign) and isinstance(n.value, cst.Name) and n.value.value == param:
            for t in n.targets:
                tgt = t.target
                if isinstance(tgt, cst.Name):
                    out.add(tgt.value)
                elif isinstance(tgt, (cst.Tuple, cst.List)):
                    out.update(el.value.value for el in tgt.elements if isinstance(el.value, cst.Name))
    return out


# transformations that run the function they are given once for every element of a batch
# (or device): a key bound to it by `partial` is the same in every one
_PARTIAL_MAPPERS = frozenset({"jax.vmap", "jax.pmap", "equinox.filter_vmap", "equinox.filter_pmap", "flax.nnx.vmap"})


def _reads_only_shapes(ctx, e: cst.CSTNode, params: set[str]) -> bool:
    """Does ``e`` read the parameters ``params`` only for their shapes (``x.shape``,
    ``x.shape[0]``, ``jnp.shape(x)``, ``x.ndim``, ``x.dtype``)?"""
    ok: set[int] = set()
    for n in walk_tree(e):
        if isinstance(n, cst.Attribute) and n.attr.value in ("shape", "ndim", "dtype", "size") \
                and isinstance(n.value, cst.Name):
            ok.add(id(n.value))
        elif isinstance(n, cst.Call) and len(n.args) == 1 and isinstance(n.args[0].value, cst.Name) and (
                (ctx.qualname(n.func) or "").rsplit(".", 1)[-1] in ("shape", "ndim")):
            ok.add(id(n.args[0].value))
    return all(not (isinstance(n, cst.Name) and n.value in params) or id(n) in ok for n in walk_tree(e))


def _key_line_anchor(ctx, node: cst.CSTNode, key_expr: cst.CSTNode) -> cst.CSTNode:
    """Where a reuse is shown: the call, or the key argument where the call is written
    over several lines and the key sits on a later one (``randint(\n    k1, shape=())``)."""
    if type(node) is not cst.Call:
        return node
    prefix = ctx.module.code_for_node(node.func) + ctx.module.code_for_node(node.whitespace_after_func) \
        + ctx.module.code_for_node(node.whitespace_before_args)
    for a in node.args:
        if a.value is key_expr or _contains(a.value, key_expr):
            return key_expr if "\n" in prefix else node
        prefix += ctx.module.code_for_node(a)
    return node


def _contains(root: cst.CSTNode, target: cst.CSTNode) -> bool:
    return any(n is target for n in descendants(root))


def _branch_path(root: cst.CSTNode, target: cst.CSTNode) -> Optional[list]:
    """The ``if`` statements around ``target`` in ``root`` (not in nested functions), outermost
    first, each as (the ``if``, True where ``target`` is in its body, False in its ``else``)."""
    path: list = []

    def search(n: cst.CSTNode) -> bool:
        if n is target:
            return True
        t = type(n)
        if t is cst.If:
            for part, side in ((n.test, None), (n.body, True), (n.orelse, False)):
                if part is None:
                    continue
                if side is not None:
                    path.append((n, side))
                if search(part):
                    return True
                if side is not None:
                    path.pop()
            return False
        if n is not root and (t is cst.FunctionDef or t is cst.ClassDef or t is cst.Lambda):
            return False
        return any(search(c) for c in children(n))

    return path if search(root) else None


def _test_parts(ctx, test: cst.BaseExpression) -> Optional[tuple[str, bool, Optional[tuple]]]:
    """(the tested expression as written, whether the test is negated, the constant it is
    compared equal to or None) of ``if x:``, ``if not x:``, ``if x == "a":``; None otherwise."""
    negated = False
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        negated, test = True, test.expression
    if type(test) in (cst.Name, cst.Attribute):
        return ctx.code(test).strip(), negated, None
    if type(test) is cst.Comparison and len(test.comparisons) == 1 and not negated:
        c = test.comparisons[0]
        if type(c.operator) in (cst.Equal, cst.NotEqual) and type(test.left) in (cst.Name, cst.Attribute) \
                and type(c.comparator) in (cst.SimpleString, cst.Integer, cst.Name) \
                and (type(c.comparator) is not cst.Name or c.comparator.value in ("True", "False", "None")):
            value = _constant_value(c.comparator)
            if value is None:
                return None
            return ctx.code(test.left).strip(), type(c.operator) is cst.NotEqual, value
    return None


def _constant_value(e: cst.BaseExpression) -> Optional[tuple]:
    """``("const", v)`` for a literal compared with ``==``, compared by value as Python
    compares them (``"train"`` and ``'train'``, ``1`` and ``True`` are equal); None when
    its value is not read here."""
    if type(e) is cst.Name:
        return ("const", {"True": True, "False": False, "None": None}[e.value])
    try:
        return ("const", ast.literal_eval(e.value))  # type: ignore[attr-defined]
    except (ValueError, SyntaxError, AttributeError):
        return None


def _exclusive_branches(ctx, root: cst.CSTNode, a: cst.CSTNode, b: cst.CSTNode) -> bool:
    """Do ``a`` and ``b`` sit under two ``if`` statements whose tests no run passes both
    (``if x:`` / ``if not x:``, ``if m == "a":`` / ``if m == "b":``, one test's body and the
    same test's ``else``), the tested name never rebound in the function?"""
    pa, pb = _branch_path(root, a), _branch_path(root, b)
    if not pa or not pb:
        return False
    for ia, sa in pa:
        ta = _test_parts(ctx, ia.test)
        if ta is None:
            continue
        for ib, sb in pb:
            if ib is ia:
                continue
            tb = _test_parts(ctx, ib.test)
            if tb is None or tb[0] != ta[0]:
                continue
            base = ta[0].split(".", 1)[0]
            if type(root) is cst.FunctionDef and writes(root, base):
                continue
            # what each side requires of the tested expression: (equal to, constant) pairs
            need_a = (ta[1] != (not sa), ta[2])
            need_b = (tb[1] != (not sb), tb[2])
            if need_a[1] == need_b[1]:
                if need_a[0] != need_b[0]:
                    return True  # `if x:` / `if not x:` (or one body, the other's else)
            elif need_a[1] is not None and need_b[1] is not None and not need_a[0] and not need_b[0]:
                return True  # equal to two different constants
    return False


def _by(how: str) -> str:
    """How a key was consumed, for messages: a helper call as written, else the sampler."""
    head = how.split("`", 1)[0]  # `sampler` via `helper`: the sampler's part
    return how if head.endswith(")") or how.startswith(("rngs=", "hk.", "eqx.")) else f"random.{how}"


def _kwargs_key(e: cst.BaseExpression) -> bool:
    """``kwargs.get("rng")``, ``kwargs.get("rng", None)``, ``kwargs["key"]``."""
    if isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute) and e.func.attr.value in ("get", "pop") \
            and isinstance(e.func.value, cst.Name) and e.args and isinstance(e.args[0].value, cst.SimpleString):
        s = e.args[0].value.evaluated_value
        return isinstance(s, str) and key_like_name(s)
    if isinstance(e, cst.Subscript) and isinstance(e.value, cst.Name) and len(e.slice) == 1:
        idx = getattr(e.slice[0].slice, "value", None)
        if isinstance(idx, cst.SimpleString):
            s = idx.evaluated_value
            return isinstance(s, str) and key_like_name(s)
    return False


_NOT_KEY_TYPES = frozenset({"bool", "int", "float", "str", "bytes"})


def _declared_no_key(param: cst.CSTNode) -> bool:
    """A parameter its own signature says is no key, whatever its name: annotated
    ``bool``/``int``/``float``/``str`` (``Optional[bool]``, ``bool | None``), or
    defaulting to such a literal (``with_params_rng: bool``, ``use_rng=False``)."""
    if not isinstance(param, cst.Param):
        return False
    if param.annotation is not None:
        names = {n.value for n in walk_tree(param.annotation.annotation) if isinstance(n, cst.Name)}
        if names & _NOT_KEY_TYPES and names <= _NOT_KEY_TYPES | {"Optional", "None", "typing"}:
            return True
    d = param.default
    if d is None:
        return False
    if isinstance(d, cst.UnaryOperation):
        d = d.expression
    return isinstance(d, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)) or \
        isinstance(d, cst.Name) and d.value in ("True", "False")


def _label_base(label: str) -> str:
    """The name a key's label reads: ``rngs`` of ``rngs[1]`` (rebinding ``rngs``, as
    ``rngs = split(rngs[1])`` does each iteration, replaces the keys it holds)."""
    m = re.match(r"[A-Za-z_]\w*", label)
    return m.group(0) if m and label[m.end():m.end() + 1] == "[" else label


def _param_node(fn: cst.FunctionDef, name: str) -> cst.CSTNode:
    p = fn.params
    for param in (*p.posonly_params, *p.params, *p.kwonly_params):
        if param.name.value == name:
            return param
    return fn


def _read_before(fn: cst.FunctionDef, name: str, start: Optional[cst.CSTNode], stop: cst.CSTNode) -> bool:
    """Is ``name`` read in ``fn`` after ``start`` (its binding; None: the parameter) and
    before ``stop`` (the key made instead), or anywhere when ``stop`` does not rebind it?
    A read in a function nested in ``fn`` (a closure over it) counts."""
    targets: set[int] = set()
    started = start is None
    rebinds = False
    for n in walk_tree(fn.body, source_order=True):
        if isinstance(n, cst.Assign):
            targets.update(id(t.target) for t in n.targets)
            if n.value is stop and any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets):
                rebinds = True
        if n is start:
            started = True
        if n is stop and rebinds:
            return False
        if started and isinstance(n, cst.Name) and n.value == name and id(n) not in targets:
            return True
    return False


def _makes_key(ctx, stmt: cst.CSTNode) -> bool:
    """Does the assignment ``stmt`` store a PRNG key (made, split, or a key parameter)?"""
    value = getattr(stmt, "value", None)
    if value is None:
        return False
    if isinstance(value, cst.Subscript):
        value = value.value
    if isinstance(value, cst.Call):
        q = ctx.qualname(value.func) or ""
        return q in ("jax.random.PRNGKey", "jax.random.key", "jax.random.split", "jax.random.fold_in")
    return isinstance(value, cst.Name) and key_like_name(value.value)


def _handed_to_evaluation(root: cst.CSTNode, site: cst.CSTNode,
                          bound: Callable[[cst.BaseExpression], cst.BaseExpression] = lambda e: e) -> bool:
    """Is ``site`` (a split or draw) written as an argument of a call that switches its
    randomness off (``_evaluation_call``), directly or through the wrappers around the
    function it calls (``jax.vmap(functools.partial(model, enable_dropout=False))(x,
    key=split(key, n))``, ``jax.jit(partial(apply, train=False))(p, x, rng)``, also a
    name bound once to such a wrapper: ``step = jit(partial(...))`` ... ``step(p, x, k)``)?
    ``bound``: the value a name is bound to once in its scope."""
    for n in walk_tree(root):
        if isinstance(n, cst.Call) and any(
                a.value is site or isinstance(a.value, cst.Subscript) and a.value.value is site for a in n.args):
            f: cst.CSTNode = n
            for _ in range(5):
                if isinstance(f, cst.Name):
                    f = bound(f)
                if not isinstance(f, cst.Call):
                    return False
                if _evaluation_call(f):
                    return True
                if isinstance(f.func, (cst.Call, cst.Name)) and f is n:
                    f = f.func
                else:
                    pos = positional_args(f)
                    f = pos[0].value if pos and f is not n else None
            return False
    return False


def _evaluation_call(node: cst.Call) -> bool:
    """Is the apply an evaluation, switching its randomness off by a keyword: one that
    names determinism or evaluation set to True (``deterministic=True``,
    ``inference=True``, ``is_eval=True``), or one that names training, dropout or
    sampling set to False (``train=False``, ``is_training=False``,
    ``enable_dropout=False``, ``use_dropout=False``, ``stochastic=False``)?  The key
    given is not drawn from (or only by streams that do not change the result).
    Whole words of the keyword count (split on ``_`` and camelCase: ``isTraining``),
    not parts of one (``upsample``, ``constrain``, ``retrieval``, ``latest``); a
    negation word turns the meaning round (``non_deterministic=False``)."""
    for a in node.args:
        if a.keyword is None or not isinstance(a.value, cst.Name) or a.value.value not in ("True", "False"):
            continue
        words = _words(a.keyword.value)
        negated = bool(words & _NEGATIONS)
        given = a.value.value == "True"
        if words & _EVAL_WORDS and given != negated:
            return True
        if words & _TRAIN_WORDS and given == negated:
            return True
    return False


# whole words of a keyword that name evaluation (True: randomness off) or training,
# dropout, sampling (False: randomness off)
_EVAL_WORDS = frozenset(("deterministic", "determinism", "eval", "evaluate", "evaluation", "evaluating",
                         "inference", "infer", "test", "testing"))
_TRAIN_WORDS = frozenset(("train", "training", "dropout", "stochastic", "sample", "sampling", "noise", "noisy"))
_NEGATIONS = frozenset(("no", "non", "not", "without", "disable", "skip"))


def _words(identifier: str) -> frozenset:
    """The lower-case words of an identifier, split on ``_`` and camelCase."""
    return frozenset(w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", identifier))


# samplers that reorder or pick from the array they are given: one key for several
# arrays gives each the same order (paired data kept aligned)
_PAIRING = ("permutation", "shuffle", "choice")

# libraries whose functions that take a key draw from it afresh (init, then apply)


def _data_arg(call: cst.Call) -> Optional[cst.BaseExpression]:
    a = arg_at(call, 1, "x") or arg_at(call, 1, "a")
    return a


def _array_like(e: cst.CSTNode) -> bool:
    """Not a number (``permutation(key, 10)`` draws a new permutation of ``range(10)``,
    no data to pair)."""
    return not isinstance(e, (cst.Integer, cst.Float, cst.UnaryOperation, cst.BinaryOperation)) and not (
        isinstance(e, cst.Call) and (dotted_name(e.func) or "").rsplit(".", 1)[-1] in ("len", "int"))


def _key_annotated_as_array(ctx, e: cst.BaseExpression) -> bool:
    """Is ``e`` a key-like parameter of the function (``rng``, ``rng_key``) that the model
    holds as an array only through its annotation (``rng: jnp.ndarray``: a raw key is a
    ``uint32`` array), never rebound there?"""
    if type(e) is not cst.Name or not key_like_name(e.value) or ctx.value(e).kind not in (V.ARRAY, V.NPARRAY):
        return False
    unit = ctx.unit
    return unit.param(e.value) is not None and e.value not in unit.assigned


def _enclosing(unit) -> list:
    """``unit`` and the units it is nested in."""
    out = []
    while unit is not None:
        out.append(unit)
        unit = unit.parent
    return out


def _defaulted_seed(unit, seed: cst.BaseExpression):
    """The parameter ``seed`` names when it defaults to an integer literal and the body
    never rebinds it (``def glorot(shape, seed=0)``), else None."""
    if type(seed) is not cst.Name:
        return None
    p = unit.param(seed.value)
    if p is None or p.default is None or int_value(p.default) is None or p.kind in ("vararg", "kwarg") \
            or seed.value in unit.assigned:
        return None
    return p


def _passes_param(call: cst.Call, p) -> bool:
    """Does ``call`` give the parameter ``p`` a value (by keyword, by position, or maybe
    through ``*args``/``**kwargs``)?"""
    pos = 0
    for a in call.args:
        if a.star:
            return True
        if a.keyword is not None:
            if a.keyword.value == p.name:
                return True
        else:
            if p.index is not None and pos == p.index:
                return True
            pos += 1
    return False


# samplers whose argument 1 (or `shape=`) is the shape drawn
_SHAPE_AT_1 = frozenset({"normal", "uniform", "randint", "rademacher", "laplace", "logistic", "cauchy",
                         "exponential", "gumbel", "orthogonal", "ball"})


def _shape_slot(call: cst.Call, i: int, how: str) -> bool:
    """Is argument ``i`` of the draw ``call`` its shape (``shape=``, or the position
    ``normal(key, shape)`` takes it at)?"""
    a = call.args[i]
    if a.keyword is not None:
        return a.keyword.value == "shape"
    return i == 1 and how in _SHAPE_AT_1


def _permutes_own_argument(site: cst.CSTNode, fn: cst.CSTNode) -> bool:
    """Is ``site`` a ``permutation``/``shuffle``/``choice`` of an array that reads a
    parameter of the function ``fn`` it is written in (``def convert_data(x):
    return permutation(subkey, x)``): each call reorders the array it is given?"""
    if not isinstance(site, cst.Call) or not isinstance(fn, (cst.FunctionDef, cst.Lambda)):
        return False
    data = _data_arg(site)
    if data is None or not _array_like(data):
        return False
    params = fn.params
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    return any(isinstance(n, cst.Name) and n.value in names for n in walk_tree(data))


def _permutes_loop_item(ctx, site: cst.CSTNode, loop: cst.CSTNode) -> bool:
    """Is ``site`` a ``permutation``/``shuffle``/``choice`` whose data argument is the
    loop's (or comprehension's) item, a different array of a collection each iteration
    (not a row of one array, nor an index of ``range``: each row shuffled alike is a
    reuse)?"""
    if not isinstance(site, cst.Call):
        return False
    data = _data_arg(site)
    if data is None or not _array_like(data):
        return False
    if isinstance(loop, cst.For):
        targets, iters = [loop.target], [loop.iter]
    else:
        targets, iters = [], []
        f = getattr(loop, "for_in", None)
        while f is not None:
            targets.append(f.target)
            iters.append(f.iter)
            f = f.inner_for_in
    for it in iters:
        if isinstance(it, cst.Call) and (dotted_name(it.func) or "").rsplit(".", 1)[-1] in ("range", "enumerate"):
            return False
        if ctx.value(it).kind in (V.ARRAY, V.NPARRAY):
            return False
    names = {n.value for t in targets for n in walk_tree(t) if isinstance(n, cst.Name)}
    return any(isinstance(n, cst.Name) and n.value in names for n in walk_tree(data))


_CLOCKS = frozenset({"time.time", "time.perf_counter", "time.monotonic", "time.process_time",
                     "time.time_ns", "time.perf_counter_ns", "time.monotonic_ns", "timeit.default_timer"})


# calls that hand back the values they were given (placed or waited for)
_SAME_VALUES = frozenset({"jax.device_put", "jax.block_until_ready"})


_TIMED_RUNS = 5


def _timed_repeat(ctx, node: cst.CSTNode) -> bool:
    """Is the loop a timed repetition of one run: ``for _ in range(k)``, ``k`` a literal of
    at most ``_TIMED_RUNS``, whose index the
    body never reads, whose body reads a clock (``time.perf_counter()``), and which
    carries nothing from one iteration to the next (no name the body binds is read
    there before the body binds it: ``params = step(params, key)`` carries)?  The
    iterations are the same computation run again (a compile pass, then the timed one),
    so drawing the same numbers from the same key is the point: a benchmark compares
    like with like."""
    if not isinstance(node, cst.For) or not isinstance(node.iter, cst.Call) \
            or ctx.builtin_name(node.iter.func) != "range" or len(node.iter.args) != 1 \
            or not isinstance(node.iter.args[0].value, cst.Integer) \
            or int(node.iter.args[0].value.evaluated_value) > _TIMED_RUNS:
        return False  # (a few runs: a compile pass, then the timed ones; not a loop of 100 samples)
    index = {n.value for n in walk_tree(node.target) if isinstance(n, cst.Name)}
    clock = False
    bound: set[str] = set()
    for n in walk_tree(node.body, source_order=True):
        if isinstance(n, cst.Call) and ctx.qualname(n.func) in _CLOCKS:
            clock = True
        elif isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.With, cst.NamedExpr)):
            continue
        elif isinstance(n, cst.Name) and n.value in index and n.value != "_":
            return False  # the body reads the index: each iteration its own case
    if not clock:
        return False
    # names the body binds, and whether one is read before the body binds it
    for n in walk_tree(node.body, source_order=True):
        if isinstance(n, cst.Assign):
            same = ctx.qualname(n.value.func if isinstance(n.value, cst.Call) else n.value) in _SAME_VALUES
            # (`x = jax.device_put(x, sharding)`: placed again, the same values)
            if not same and _names_read(n.value) & _rebinds(node.body) - bound:
                return False  # `params = step(params, key)`: carried to the next iteration
            for t in n.targets:
                bound.update(m.value for m in walk_tree(t.target) if isinstance(m, cst.Name))
        elif isinstance(n, cst.AugAssign):
            return False  # `total += x`: carried
    return True


def _names_read(e: cst.CSTNode) -> set[str]:
    """The names an expression reads (not an attribute's name, nor a keyword's)."""
    skip: set[int] = set()
    out: set[str] = set()
    for m in walk_tree(e, source_order=True):
        if isinstance(m, cst.Attribute):
            skip.add(id(m.attr))
        elif isinstance(m, cst.Arg) and m.keyword is not None:
            skip.add(id(m.keyword))
        elif isinstance(m, cst.Name) and id(m) not in skip:
            out.add(m.value)
    return out


def _rebinds(body: cst.CSTNode) -> set[str]:
    """The plain names assigned anywhere in ``body``."""
    out: set[str] = set()
    for n in walk_tree(body):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, (cst.Name, cst.Tuple, cst.List)):
                    out.update(m.value for m in walk_tree(t.target) if isinstance(m, cst.Name))
    return out


def _cases_loop(node: cst.For, unit) -> bool:
    """Does the loop run over a table of cases: a literal tuple or list of constants or
    of tuples of them (``for train in (False, True)``, ``for shape, dim in [((64,), 0),
    ((2, 128), 1)]``), written there or bound once to a name of the function
    (``cp_sizes = [2, 4, 8]`` ... ``for cp_size in cp_sizes``), ``zip``/
    ``itertools.product`` of such tables, or ``enumerate``/``reversed``/``sorted`` of one?"""
    return _case_table(node.iter, unit, 0)


def _runs_once(node: cst.CSTNode, unit) -> bool:
    """Does the loop or comprehension iterate over one element: a one-element list,
    tuple or set, written there or bound once to a name of the function (``sizes =
    [1024]`` ... ``for n in sizes``), or ``range(1)``?"""
    if isinstance(node, cst.For):
        return _one_element(node.iter, unit, 0)
    comp = getattr(node, "for_in", None)
    if not isinstance(comp, cst.CompFor) or comp.inner_for_in is not None:
        return False
    return _one_element(comp.iter, unit, 0)


def _one_element(it: cst.CSTNode, unit, depth: int) -> bool:
    if depth > 3:
        return False
    if isinstance(it, cst.Name):
        bound = unit.bindings.get(it.value, ()) if unit is not None else ()
        return len(bound) == 1 and bound[0][1] is not None and not _grown(unit, it.value) \
            and _one_element(bound[0][1], unit, depth + 1)
    if isinstance(it, (cst.List, cst.Tuple, cst.Set)):
        return len(it.elements) == 1 and not isinstance(it.elements[0], cst.StarredElement)
    if isinstance(it, cst.Call) and dotted_name(it.func) == "range" and len(it.args) == 1 \
            and it.args[0].keyword is None and not it.args[0].star:
        return isinstance(it.args[0].value, cst.Integer) and it.args[0].value.evaluated_value == 1
    return False


_GROWERS = frozenset({"append", "extend", "insert", "add", "update", "__iadd__", "__setitem__"})


def _grown(unit, name: str) -> bool:
    """Does the function change the container ``name`` holds in place (``name.append(x)``,
    ``name += [x]``, ``name[i] = x``)?  Then its one element at binding says nothing."""
    for n in descendants(unit.node):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _GROWERS \
                and isinstance(n.func.value, cst.Name) and n.func.value.value == name:
            return True
        if isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name) and n.target.value == name:
            return True
        if isinstance(n, (cst.Assign, cst.AugAssign)):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            if any(isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and t.value.value == name
                   for t in targets):
                return True
    return False


def _iterations_apart(node: cst.For, unit, site: cst.CSTNode) -> bool:
    """Is each iteration of the loop a case of its own: the draw at ``site`` is given
    values of the iteration (not only their shapes: ``sample(key, bins[i], ...)``), and
    no iteration hands state to the next: it binds only names the function reads
    nowhere outside the loop, writes no item or attribute of an object from outside
    it, and augments nothing; it may collect its results (``out.append(...)``)
    (``for i in range(n): samples = sample(key, w[i]); self.assertTrue(...)``)?  The
    same draw of every iteration (``normal(key, batch.shape)``) stays a reuse."""
    if not isinstance(node.body, cst.IndentedBlock) or node.orelse is not None or type(site) is not cst.Call:
        return False
    bound: set[str] = {n.value for n in walk_tree(node.target) if type(n) is cst.Name}
    body = list(walk_tree(node.body))
    for n in body:
        if type(n) is cst.Assign:
            for t in n.targets:
                if type(t.target) is cst.Name:
                    bound.add(t.target.value)
                elif type(t.target) in (cst.Tuple, cst.List):
                    bound.update(x.value for x in walk_tree(t.target) if type(x) is cst.Name)
        elif isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global, cst.Nonlocal,
                            cst.AugAssign, cst.AnnAssign, cst.Yield, cst.Return, cst.NamedExpr)):
            return False
    for n in body:
        if type(n) is cst.Assign:
            for t in n.targets:
                if type(t.target) in (cst.Subscript, cst.Attribute):
                    head = t.target.value
                    while type(head) in (cst.Subscript, cst.Attribute):
                        head = head.value
                    if type(head) is not cst.Name or head.value not in bound:
                        return False  # `results[i] = x`, `self.out = x`: kept past the iteration
        elif type(n) is cst.Call and type(n.func) is cst.Attribute \
                and n.func.attr.value in ("update", "setdefault") \
                and not (type(n.func.value) is cst.Name and n.func.value.value in bound):
            return False  # `state.update(x)`: state carried to the next iteration
    inside = {id(n) for n in body} | {id(n) for n in walk_tree(node.target)}
    fn = unit.node
    for n in walk_tree(fn):
        if type(n) is cst.Name and n.value in bound and id(n) not in inside:
            return False  # read (or bound) outside the loop too
    # the draw reads a value of the iteration (`x.shape`, `len(x)`: its size only)
    sizes: set[int] = set()
    for n in walk_tree(site):
        if type(n) is cst.Attribute and n.attr.value in _NOT_VALUES or \
                type(n) is cst.Call and dotted_name(n.func) == "len":
            sizes.update(id(x) for x in walk_tree(n))
    return any(type(n) is cst.Name and n.value in bound and id(n) not in sizes
               for a in site.args for n in walk_tree(a.value))


def _case_table(it: cst.CSTNode, unit, depth: int) -> bool:
    if depth > 3:
        return False
    if isinstance(it, cst.Name):
        bound = unit.bindings.get(it.value, ()) if unit is not None else ()
        return len(bound) == 1 and bound[0][1] is not None and _case_table(bound[0][1], unit, depth + 1)
    if isinstance(it, cst.Call) and (dotted_name(it.func) or "").rsplit(".", 1)[-1] in ("zip", "product") \
            and it.args and all(a.keyword is None and a.star == "" for a in it.args):
        return all(_case_table(a.value, unit, depth + 1) for a in it.args)
    if isinstance(it, cst.Call) and (dotted_name(it.func) or "") in ("enumerate", "reversed", "sorted", "list", "tuple") \
            and it.args and it.args[0].keyword is None and it.args[0].star == "":
        # `for i, (src, dst) in enumerate(cases):` numbers the cases of the table
        return _case_table(it.args[0].value, unit, depth + 1)
    if not isinstance(it, (cst.Tuple, cst.List)) or not it.elements:
        return False
    return all(_constant(el.value) for el in it.elements)


def _constant(v: cst.CSTNode) -> bool:
    if isinstance(v, cst.UnaryOperation):
        v = v.expression
    if isinstance(v, (cst.Tuple, cst.List)):
        return all(_constant(el.value) for el in v.elements)
    return isinstance(v, (cst.Integer, cst.Float, cst.SimpleString)) or \
        isinstance(v, cst.Name) and v.value in ("True", "False", "None")


# --- two draws meant to give the same bits: their results asserted equal -------------
_EQUAL_TESTS = frozenset({"allclose", "array_equal", "array_equiv", "isclose", "equal",
                          # whole pytrees: `eqx.tree_equal`, optax's `tree_utils.tree_allclose`
                          "tree_equal", "tree_allclose", "trees_equal", "tree_all_close"})
_NOT_VALUES = frozenset({"shape", "ndim", "dtype", "size"})  # reads of these are not the values


def _asserted_equal(root: cst.CSTNode, a: cst.Call, b: cst.Call, memo: dict,
                    qualname: Callable[[cst.CSTNode], Optional[str]] = lambda _: None,
                    others: tuple = ()) -> bool:
    """Does the function ``root`` assert that what the draw ``a`` gave equals what
    ``b`` gave (``assert_allclose(x, y)``, ``self.assertEqual(f(x), f(y))``,
    ``assert jnp.array_equal(x, y)``, through the names computed from them), each
    side computed from one draw and not the other?  A test of determinism or of two
    computations under one randomness: the repeated key is the point.  ``memo`` (one
    per file): the function's assertions and assignments, and each draw's derived
    names, computed once however many reuses ask.  ``qualname``: what a name is
    imported as (a module's function is not an object a call hands values to)."""
    info = memo.get(id(root))
    if info is None:
        def nested(c: cst.CSTNode) -> bool:
            return c is not root and isinstance(c, (cst.FunctionDef, cst.ClassDef, cst.Lambda))

        nodes = list(walk_tree(root, nested))
        pairs = [p for n in nodes for p in _equal_pairs(n)]
        assigns = [n for n in nodes
                   if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and n.value is not None
                   or isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
                   and isinstance(n.func.value, cst.Name) and qualname(n.func.value) is None
                   and n.func.value.value not in ("self", "cls")] if pairs else []
        info = memo[id(root)] = (root, pairs, assigns, {})
    _root, pairs, assigns, derived = info
    if not pairs:
        return False
    for d in (a, b, *others):
        if id(d) not in derived:
            derived[id(d)] = (d, _derived(assigns, d))
    from_a, from_b = derived[id(a)][1], derived[id(b)][1]
    for x, y in pairs:
        for p, q in ((x, y), (y, x)):
            if _reads(p, a, from_a) and not _reads(p, b, from_b) and _reads(q, b, from_b) and not _reads(q, a, from_a) \
                    and not any(_reads(q, o, derived[id(o)][1]) for o in others):
                # (`others`: draws of the same key that `b`'s side must not read either)
                return True
    return False


def _equal_pairs(n: cst.CSTNode) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """The two sides an assertion says are equal (none for a negated one)."""
    if isinstance(n, cst.Assert):
        return _equal_test(n.test)
    if not isinstance(n, cst.Call):
        return []
    last = (dotted_name(n.func) or "").rsplit(".", 1)[-1]
    low = last.lower()
    pos = positional_args(n)
    if last == "assertTrue" and pos:
        return _equal_test(pos[0].value)
    if low.startswith("assert") and ("equal" in low or "close" in low) and "not" not in low and len(pos) >= 2:
        return [(pos[0].value, pos[1].value)]
    return []


def _equal_test(t: cst.BaseExpression) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    if isinstance(t, cst.Comparison) and len(t.comparisons) == 1 and isinstance(t.comparisons[0].operator, cst.Equal):
        return [(t.left, t.comparisons[0].comparator)]
    if isinstance(t, cst.Call):
        pos = positional_args(t)
        last = (dotted_name(t.func) or "").rsplit(".", 1)[-1]
        if last in _EQUAL_TESTS and len(pos) >= 2:
            return [(pos[0].value, pos[1].value)]
        if "not" not in last.lower() and last != "all":
            # `assert _typeequal(eqx.tree_equal(a, b), True)`: an equality test handed to a helper
            return [p for arg in pos if isinstance(arg.value, cst.Call) for p in _equal_test(arg.value)]
        if last == "all":  # `jnp.all(x == y)`, `(x == y).all()`
            inner = pos[0].value if pos else (t.func.value if isinstance(t.func, cst.Attribute) else None)
            return _equal_test(inner) if inner is not None else []
    return []


def _derived(assigns: list, draw: cst.Call) -> set[str]:
    """The names computed from the result of ``draw`` (through any number of
    assignments), and the objects a method call handed one of them to."""
    names: set[str] = set()
    for _ in range(6):
        before = len(names)
        for st in assigns:
            if isinstance(st, cst.Call):
                # `module.update_variables(new)`, `buf.append(x)`: the object now holds it
                if any(_reads(arg.value, draw, names) for arg in st.args):
                    names.add(st.func.value.value)
                continue
            if _reads(st.value, draw, names):
                targets = st.targets if isinstance(st, cst.Assign) else [st]
                for t in targets:
                    # (`_`: a result thrown away, not one value both sides share)
                    names.update(m.value for m in (t.target, *descendants(t.target))
                                 if isinstance(m, cst.Name) and m.value != "_")
        if len(names) == before:
            break
    return names


def _reads(e: cst.CSTNode, draw: cst.Call, names: set[str]) -> bool:
    """Is ``e`` computed from the values of ``draw`` (it, or a name in ``names``;
    not its shape or dtype)?"""
    def leaf(c: cst.CSTNode) -> bool:
        return isinstance(c, cst.Attribute) and c.attr.value in _NOT_VALUES or c is draw

    for c in walk_tree(e, leaf):
        if c is draw or isinstance(c, cst.Name) and c.value in names:
            return True
    return False


def _parent_map(root: cst.CSTNode, memo: dict) -> dict[int, cst.CSTNode]:
    """id(node) -> its parent, for the nodes of ``root`` (one walk per function, kept in
    ``memo``)."""
    got = memo.get(id(root))
    if got is not None and got[0] is root:
        return got[1]
    parents: dict[int, cst.CSTNode] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        for c in children(n):
            parents[id(c)] = n
            stack.append(c)
    memo[id(root)] = (root, parents)
    return parents


# what a value passes through on its way into an assertion and stays an expected value:
# arithmetic, displays, a subscript or attribute of it, arguments of the assertion
_EXPECTED_PATH = (cst.BinaryOperation, cst.UnaryOperation, cst.Element, cst.StarredElement, cst.DictElement,
                  cst.List, cst.Tuple, cst.Set, cst.Dict, cst.Subscript, cst.SubscriptElement, cst.Index,
                  cst.Attribute, cst.Comparison, cst.ComparisonTarget, cst.Arg, cst.BooleanOperation)


# NumPy/JAX functions that compare an expected value or convert it, nothing else
_EXPECTED_CALLS = frozenset({"allclose", "isclose", "array_equal", "array_equiv", "asarray", "array"})


def _assertion_call(ctx, n: cst.CSTNode) -> bool:
    """``self.assertEqual(...)``, ``np.testing.assert_allclose(...)``, ``chex.assert_trees_all_close(...)``
    (not a negated one, nor ``assertRaises``)."""
    if not isinstance(n, cst.Call):
        return False
    last = (dotted_name(n.func) or "").rsplit(".", 1)[-1].lower()
    return last.startswith("assert") and "not" not in last and "raise" not in last and "warn" not in last


def _expected_only(ctx, root: cst.CSTNode, draw: cst.Call, memo: dict) -> bool:
    """Is ``draw`` written in the arguments of a test's assertion, reached from it only
    through arithmetic, displays, conversions and comparisons (``self.assertDictEqual(
    joint_sample(model)(seed), {'z': normal(k1), 'x': normal(k1) + normal(k2)})``)?  It is
    an expected value: the test rebuilds what the code under test drew from the same keys,
    and its numbers go into nothing but the comparison (a draw inside a call of the code
    under test, ``assertEqual(model(normal(k) + normal(k)), ...)``, feeds the computation)."""
    parents = _parent_map(root, memo)
    n: cst.CSTNode = draw
    while True:
        p = parents.get(id(n))
        if p is None:
            return False
        if isinstance(p, cst.Assert):
            return n is p.test
        if isinstance(p, cst.Call):
            if n is p.func:
                return False
            if _assertion_call(ctx, p):
                return True
            q = ctx.qualname(p.func) or ""
            if not (q.startswith(("jax.numpy.", "numpy.")) and q.rsplit(".", 1)[-1] in _EXPECTED_CALLS):
                return False  # (a statistic, `jnp.std(a + b)`, is computed from the draws: not rebuilt)
        elif not isinstance(p, _EXPECTED_PATH):
            return False
        n = p


def _param_names(fn: cst.FunctionDef) -> set[str]:
    ps = fn.params
    return {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)} | {
        p.name.value for p in (ps.star_arg, ps.star_kwarg) if isinstance(p, cst.Param)}


def _given_params(call: cst.Call, fn: cst.FunctionDef, ctx) -> Optional[dict]:
    """parameter name -> the expression ``call`` gives it (None where a call passes ``*``
    or ``**``, or more positional arguments than ``fn`` takes)."""
    ps = fn.params
    positional = [p.name.value for p in (*ps.posonly_params, *ps.params)]
    names = _param_names(fn)
    out: dict = {}
    i = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value not in names:
                return None
            out[arg.keyword.value] = arg.value
        else:
            if i >= len(positional):
                return None
            out[positional[i]] = arg.value
            i += 1
    return out


def _only_builder_call(fn: cst.FunctionDef, param: str) -> Optional[cst.Call]:
    """The one call of ``fn`` (a builder) that every read of ``param`` is a whole argument
    of, when ``fn`` never rebinds ``param`` and reads it nowhere else."""
    found: Optional[cst.Call] = None
    args_of: dict[int, cst.Call] = {}
    skip: set[int] = set()  # (a keyword's or an attribute's name: no read)
    reads = 0
    for n in walk_tree(fn.body):
        if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            if any(isinstance(m, cst.Name) and m.value == param for t in targets for m in walk_tree(t)):
                return None
        if isinstance(n, cst.Call):
            for arg in n.args:
                if isinstance(arg.value, cst.Name) and arg.value.value == param:
                    args_of[id(arg.value)] = n
        if isinstance(n, cst.Attribute):
            skip.add(id(n.attr))
        elif isinstance(n, cst.Arg) and n.keyword is not None:
            skip.add(id(n.keyword))
    for n in walk_tree(fn.body):
        if isinstance(n, cst.Name) and n.value == param and id(n) not in skip:
            reads += 1
            call = args_of.get(id(n))
            if call is None or (found is not None and call is not found):
                return None
            found = call
    return found if reads else None


def _results_meet(root: cst.CSTNode, a: cst.Call, b: cst.Call) -> bool:
    """Does one statement of ``root`` (not of a function it defines) compute with what both
    calls gave (the calls themselves, or names computed from their results)?  A statement
    that only shows them (``print``, a plot, an assertion) does not."""
    def nested(c: cst.CSTNode) -> bool:
        return c is not root and isinstance(c, (cst.FunctionDef, cst.ClassDef, cst.Lambda))

    nodes = list(walk_tree(root, nested))
    assigns = [n for n in nodes if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and n.value is not None]
    from_a, from_b = _derived(assigns, a), _derived(assigns, b)
    for n in nodes:
        if isinstance(n, cst.SimpleStatementLine) and all(isinstance(x, (cst.Expr, cst.Assert)) for x in n.body):
            continue  # `print(dense, cg)`, `plot(...)`, an assertion: the two results observed side
            # by side, not computed into one value
        if isinstance(n, cst.SimpleStatementLine) or isinstance(n, (cst.If, cst.While)):
            part = n if isinstance(n, cst.SimpleStatementLine) else n.test
            if _reads(part, a, from_a) and _reads(part, b, from_b):
                return True
        elif isinstance(n, cst.For) and _reads(n.iter, a, from_a) and _reads(n.iter, b, from_b):
            return True
    return False


def _method_of(ctx, first: cst.CSTNode, second: cst.CSTNode) -> bool:
    """Is ``first`` a call of a method of the very callable ``second`` calls
    (``model.optimize.optax_adam.debug(seed=k)`` then ``model.optimize.optax_adam(seed=k)``:
    bayeux's dry-run checker of that optimiser, then the run)?"""
    return isinstance(first, cst.Call) and isinstance(second, cst.Call) \
        and isinstance(first.func, cst.Attribute) and isinstance(second.func, (cst.Name, cst.Attribute)) \
        and ctx.code(first.func.value).strip() == ctx.code(second.func).strip()


def _split_and_draw(how0: str, how1: str) -> bool:
    """Is one of two consumptions of a key `jax.random.split` and the other a `jax.random`
    sampler (``randint(rng, ...)``, then ``split(rng)``)?  The keys the split makes are not
    the sampler's bits; the pair breaks JAX's one-use promise without repeating a draw (a
    helper, which may split or draw, is not known to differ)."""
    def sampler(how: str) -> bool:  # (`randint`; a helper is `init()`, a library's `m.sample(seed=...)`)
        return how.isidentifier() and how != "split"

    return (how0 == "split" and sampler(how1)) or (how1 == "split" and sampler(how0))


def _in_test(unit) -> bool:
    """Is ``unit`` a test (a ``test*`` function, or in a ``Test*``/``*Test`` class)?"""
    u = unit
    while u is not None and not u.is_module:
        if u.name.startswith("test") or (u.cls is not None and "Test" in u.cls.name):
            return True
        u = u.parent
    return False


# `model.init(key, x)` next to `normal(key, ...)` is not reported: flax draws each parameter
# from `fold_in(key, <its path>)`, never from `key` itself, and JAX's own checker
# (`jax_debug_key_reuse`) accepts a draw before or after the init and a split after it (JAX
# 0.10.2, flax 0.12): no bits are shared, so "the same random bits" would be wrong
_FLAX_INIT_CONSUMES = False


def _reaches_return(fn: cst.CSTNode, call: cst.Call) -> bool:
    """Is ``call`` inside a ``return`` of ``fn``, or assigned to a name that a ``return``
    of ``fn`` reads (``x = uniform(key, ...)`` ... ``return x + 1``), also through names
    computed from it (``mask = bernoulli(...)``, ``loss = mean(batch * mask)``, ``return
    params - loss``)?"""
    returns = [n for n in walk_tree(fn) if type(n) is cst.Return and n.value is not None]
    if any(any(d is call for d in descendants(r)) for r in returns):
        return True
    assigns = [n for n in walk_tree(fn) if type(n) is cst.Assign]
    names: set[str] = set()
    for n in assigns:
        if n.value is call or any(d is call for d in descendants(n.value)):
            # (`x_noisy = x + sigma * normal(key, x.shape)`: computed from the draw)
            for t in n.targets:
                names.update(x.value for x in walk_tree(t.target) if type(x) is cst.Name)
    if not names:
        return False
    for _ in range(8):  # names computed from those (a chain of assignments, to a fixed point)
        more: set[str] = set()
        for n in assigns:
            if any(type(d) is cst.Name and d.value in names for d in walk_tree(n.value)):
                for t in n.targets:
                    more.update(x.value for x in walk_tree(t.target) if type(x) is cst.Name)
        if more <= names:
            break
        names |= more
    return any(type(d) is cst.Name and d.value in names for r in returns for d in descendants(r))


def _refuses_a_second_call(cls, unit) -> bool:
    """The method sets a flag of its object (``self._used = True``) and raises when it is
    already set (``if self._used: raise ...``, ``assert not self._used``, here or in a method
    of the class it calls on ``self``): a key wrapper that refuses a second draw (alphafold's
    ``SafeKey``), so its stored key is never drawn from twice."""
    flags = set()
    for n in descendants(unit.node):
        if type(n) is cst.Assign and type(n.value) is cst.Name and n.value.value == "True":
            for t in n.targets:
                d = dotted_name(t.target)
                if d is not None and d.startswith("self.") and d.count(".") == 1:
                    flags.add(d)
    if not flags:
        return False
    called = {c.func.attr.value for c in descendants(unit.node)
              if type(c) is cst.Call and type(c.func) is cst.Attribute and type(c.func.value) is cst.Name
              and c.func.value.value == "self"}
    bodies = [unit.node] + [m.node for name, m in cls.methods.items() if name in called]
    for body in bodies:
        for n in descendants(body):
            if type(n) is cst.If and dotted_name(n.test) in flags and any(
                    type(x) is cst.Raise for x in descendants(n.body)):
                return True
            if type(n) is cst.Assert and type(n.test) is cst.UnaryOperation and type(
                    n.test.operator) is cst.Not and dotted_name(n.test.expression) in flags:
                return True
    return False


def _drawn_on_one_iteration(loop: cst.For, site: cst.CSTNode) -> bool:
    """``for n in [0, 1]: ... if n == 1: dropout(y, key)``: the draw sits under a test that
    the loop variable equals a literal, over a loop whose items are distinct (a literal list
    or tuple of distinct numbers or strings, or a ``range``), and nothing in the body rebinds
    the variable: at most one iteration draws, once."""
    if type(loop.target) is not cst.Name:
        return False
    var = loop.target.value
    it = loop.iter
    if type(it) in (cst.List, cst.Tuple):
        vals = []
        for el in it.elements:
            v = el.value
            if type(v) is cst.Integer or type(v) is cst.SimpleString:
                vals.append(v.value)
            else:
                return False
        if len(set(vals)) != len(vals):
            return False
    elif not (type(it) is cst.Call and dotted_name(it.func) == "range"):
        return False
    for n in walk_tree(loop.body):
        if type(n) in (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.For):
            targets = ([t.target for t in n.targets] if type(n) is cst.Assign else [n.target])
            if any(type(t) is cst.Name and t.value == var for tt in targets for t in walk_tree(tt)):
                return False

    def on_one(test) -> bool:
        if type(test) is not cst.Comparison or len(test.comparisons) != 1 or type(
                test.comparisons[0].operator) is not cst.Equal:
            return False
        a, b = test.left, test.comparisons[0].comparator
        lit = (cst.Integer, cst.SimpleString)
        return (type(a) is cst.Name and a.value == var and type(b) in lit) or (
            type(b) is cst.Name and b.value == var and type(a) in lit)

    def search(node, guarded: bool) -> Optional[bool]:
        if node is site:
            return guarded
        if type(node) in (cst.For, cst.While) and node is not loop:
            guarded = False  # an inner loop repeats the draw
        if type(node) is cst.If:
            r = search(node.test, guarded)
            if r is not None:
                return r
            r = search(node.body, guarded or on_one(node.test))
            if r is not None:
                return r
            return search(node.orelse, guarded) if node.orelse is not None else None
        for c in children(node):
            r = search(c, guarded)
            if r is not None:
                return r
        return None

    return bool(search(loop.body, False))
