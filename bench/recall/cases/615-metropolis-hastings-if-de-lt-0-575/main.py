import itertools as it
from functools import partial

import jax.numpy as np
from jax import jit, random

N = 10

marg_1 = lambda i,x:x[i]
marg_2 = lambda i,j,x:x[i]*x[j]

marg_1s = [jit(partial(marg_1,i)) for i in range(N)]
marg_2s = [jit(partial(marg_2,i,j)) for i,j in list(it.combinations(range(N),r=2))]
funcs = marg_1s+marg_2s

@jit
def calc_e(factors,word):
    return np.sum(np.stack([factor*func(word) for factor,func in zip(factors,funcs)]))

@jit
def sample(factors,N=10,seed=0,n_samps=100):
    key = random.PRNGKey(seed)
    key, subkey = random.split(key)
    
    state = random.randint(subkey,minval=0,maxval=2, shape=(N,))
    all_states = []
    
    for _ in range(n_samps):
        all_states.append(state)
        for i in range(N):
            #flip sign
            state_flipped = state.at[i].set(1-state[i])
            #calc energy difference
            dE = calc_e(factors,state_flipped)-calc_e(factors,state)
            if dE < 0:  
                state = state_flipped
            else:
                key, subkey = random.split(key)
                rand=random.uniform(subkey,shape=(1,))
                if rand < np.exp(-dE):
                    state = state_flipped
    return all_states


if __name__ == "__main__":
    factors = random.normal(random.PRNGKey(1), (len(funcs),))
    samples = sample(factors)
    print(len(samples))
