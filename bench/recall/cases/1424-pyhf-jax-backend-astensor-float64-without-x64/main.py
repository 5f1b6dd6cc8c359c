import pyhf_lite
from pyhf_lite.tensor import jax_backend

if __name__ == "__main__":
    pyhf_lite.set_backend(jax_backend())
    tb = pyhf_lite.tensorlib
    observed = tb.astensor([100000001.0, 52.0])
    expected = tb.astensor([100000000.0, 50.0])
    print("dtype:", observed.dtype, "observed[0]:", int(observed[0]))
    print("logpdf:", tb.sum(tb.poisson_logpdf(observed, expected)))
