import jax
import numpy as np

import jax_dataloader_lite.core as jdl

X, Y = np.zeros((20, 28, 28), np.uint8), np.arange(20) % 10
ds = jdl.Dataset(X, Y)
train_loader = jdl.DataLoaderJax(ds, batch_size=5, shuffle=False, drop_last=False)

@jax.jit
def foo(train_loader):
    train_iter = iter(train_loader)
    Xtr, Ytr = next(train_iter)
    print(Xtr.shape, Ytr.shape, Xtr[0].shape, Ytr[0].shape) # 5, 28, 28) (5,) (28, 28) ()

if __name__ == "__main__":
    try:
        foo(train_loader) # fails
    except TypeError as e:
        print("TypeError:", e)
