import numpy as onp
import jax
import jax.numpy as np


def getFeature(x, resMap, st, en):
    resMap = resMap.conj().T

    newMap = []

    for j in range(0, (len(resMap[:, 0]) - 1)):
        for i in range(0, (len(resMap[0]) - 1)):
            newMap.append([j,i])

    def innerLoop(n):
        Stacked = np.zeros((4, en - st))
        j,i = newMap[n] #n should be an integer

        Stacked = Stacked.at[0, :].set(x[resMap[j, i], st:en])

        Stacked = Stacked.at[1, :].set(x[resMap[j, i + 1], st -1:en -1])
        Stacked = Stacked.at[2, :].set(x[resMap[j, i + 1], st:en])
        Stacked = Stacked.at[3, :].set(x[resMap[j, i + 1], st+1:en +1])
        return Stacked.sum()

    return jax.vmap(innerLoop)(np.arange(len(newMap)))


if __name__ == "__main__":
    x = np.ones((6, 20))
    resMap = onp.arange(6).reshape(2, 3)
    print(getFeature(x, resMap, 2, 10))
