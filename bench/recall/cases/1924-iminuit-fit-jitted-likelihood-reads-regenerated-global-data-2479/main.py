import numpy as onp
from jax import grad,jit
import jax.numpy as np

def gao(m,w):
    return np.exp(-(x-m)**2/(2*w*w))/(np.sqrt(2*np.pi)*w)

def likelihood(arg):
#     print("likelihood")
    m,w = np.split(arg,2)
    s = np.log(gao(m,w))
    return -np.sum(s)

x = onp.random.normal(4.,0.7,1000)
args = np.asarray([4.,0.7])

if __name__ == "__main__":
    ranm = onp.random.randint(50,80,size=500) - 50
    stale = []
    for i in range(3):
        k = ranm[i] / 100
        args = np.asarray([5.+k,0.6+k])
        x = onp.random.normal(4.,0.7,1000)
        jitf = jit(likelihood)
        devf = jit(grad(likelihood))
        stale.append(not bool(np.allclose(jitf(args), likelihood(args))))
    print("jitf stale after new data:", stale[1:])
