import jax
import haiku as hk


class MyModule(hk.Module):
    def __init__(self):
        super().__init__(name="MyModule")
        print("MyModule.__init__ ran")

    def __call__(self, x):
        print("MyModule.__call__ ran")
        return x + 1


def forward(x):
    return MyModule()(x)


if __name__ == "__main__":
    rng = hk.PRNGSequence(420)
    fwd = hk.transform(forward)
    params = fwd.init(next(rng), 1)
    apply = fwd.apply
    x = 0
    for _ in range(10):
        x = apply(params, None, x)
    print("x:", int(x))
