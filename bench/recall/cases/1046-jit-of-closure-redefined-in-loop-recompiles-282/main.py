#!/usr/bin/env python3
import argparse
import jax
import jax.numpy as np
import numpy as onp


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--jit', action='store_true')
    args = parser.parse_args(['--jit'])

    x = onp.random.rand(256, 256).astype(onp.float32)
    x = onp.repeat(x, 4, axis=0)
    x = jax.device_put(x)

    v = onp.random.rand(256).astype(onp.float32)
    v = jax.device_put(v)

    for i in range(4):
        print(f'{i + 1}. iteration')

        def f(v):
            return np.dot(x, v)

        if args.jit:
            f = jax.jit(f)

        f(v)


if __name__ == '__main__':
    main()
