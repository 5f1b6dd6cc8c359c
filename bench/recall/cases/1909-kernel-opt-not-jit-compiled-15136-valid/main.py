import jax

from note_lite import kernel, nn

if __name__ == "__main__":
    kx, kd = jax.random.split(jax.random.key(0))
    data = jax.random.normal(kd, (32, 4))
    labels = data.sum(axis=1, keepdims=True)
    k = kernel(nn(kx), data, labels)
    k.opt()
    try:
        print("loss after one step:", k.nn.loss(k.param, k.data, k.labels))
    except jax.errors.UnexpectedTracerError as e:
        print("UnexpectedTracerError:", str(e).splitlines()[0])
