import numpy as onp

from physionet_lite import get_data_min_max, process_batch
from physionet_lite.physionet_data import normalize_masked_data


def toy_records(n=3, T=4, D=3, seed=0):
    """A few (tt, vals, mask) records shaped like the PhysioNet ones."""
    rng = onp.random.default_rng(seed)
    records = []
    for _ in range(n):
        tt = onp.sort(rng.choice(48, size=T, replace=False)).astype(float)
        vals = rng.normal(size=(T, D))
        mask = (rng.random((T, D)) > 0.3).astype(float)
        vals[:, 0] = 0.0   # a feature whose max is 0 (the divide-by-zero guard)
        records.append((tt, vals * mask, mask))
    return records


if __name__ == "__main__":
    records = toy_records()
    data_min, data_max = get_data_min_max(records)
    failed = []
    try:
        process_batch(records, data_min=data_min, data_max=data_max)
    except TypeError as err:
        print("att_max: TypeError:", str(err).splitlines()[0])
        failed.append("att_max")
    # the next write in the same function, reached when att_max is a NumPy copy
    data = onp.stack([r[1] for r in records])
    mask = onp.stack([r[2] for r in records])
    try:
        normalize_masked_data(data, mask, data_min, onp.array(data_max))
    except TypeError as err:
        print("data_norm: TypeError:", str(err).splitlines()[0])
        failed.append("data_norm")
    print("both writes fail on JAX arrays:", failed == ["att_max", "data_norm"])
