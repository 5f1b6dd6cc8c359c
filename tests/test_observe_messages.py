"""What `observe` says of a function traced again for other shapes: each argument named
once, with the values it had in the order the retraces saw them."""

from jaxlint.runtime.sightings import Sighting, describe


def test_a_retraced_argument_is_named_once_with_all_its_shapes():
    s = Sighting("JAX508", "/p/train.py", 16, 4, 30, "", function="main", count=2, evidence={
        "name": "step", "defined": "/p/train.py:6", "compiles": 3,
        "changes": [["w", "f32[3]", "f32[2]"], ["w", "f32[4]", "f32[2]"]]})
    assert describe(s) == (
        "`step` (defined at line 6) was traced 3 times: the argument shapes or dtypes changed "
        "(`w` f32[2] -> f32[3] -> f32[4]); pad or bucket the inputs to a few shapes")
