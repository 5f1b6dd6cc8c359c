import jax
import jax.numpy as jnp
jax.config.update("jax_enable_x64", True)

num_rows = 5
num_cols = 20
smf = jnp.array([jnp.inf, 0.1, 0.1, 0.1, 0.1])
par_init = jnp.array([1.0,2.0,3.0,4.0,5.0])
lb = jnp.array([0.1, 0.1, 0.1, 0.1, 0.1])
ub = jnp.array([10.0, 10.0, 10.0, 10.0, 10.0])
par = jnp.broadcast_to(par_init[:,None],(num_rows,num_cols))

kvals = jnp.where(jnp.isinf(smf), 1, num_cols)
kvals = jnp.insert(kvals, 0, 0)
kvals = jnp.cumsum(kvals)

par0_col = jnp.zeros(num_rows*num_cols - (num_cols-1) * jnp.sum(jnp.isinf(smf)))
lb_col = jnp.zeros(num_rows*num_cols - (num_cols-1) * jnp.sum(jnp.isinf(smf)))
ub_col = jnp.zeros(num_rows*num_cols- (num_cols-1) * jnp.sum(jnp.isinf(smf)))



for i in range(num_rows):
    par0_col = par0_col.at[kvals[i]:kvals[i+1]].set(par[i, :kvals[i+1]-kvals[i]])
    lb_col = lb_col.at[kvals[i]:kvals[i+1]].set(lb[i])
    ub_col = ub_col.at[kvals[i]:kvals[i+1]].set(ub[i])

par_log = jnp.log10(par0_col)

@jax.jit
def compute(p):
    arr_1 = jnp.zeros(shape = (num_rows, num_cols))
    arr_2 = jnp.zeros(shape = (num_rows, num_cols))
    for i in range(num_rows):

        arr_1 = arr_1.at[i, :].set((par_log[kvals[i]:kvals[i+1]]))
        arr_2 = arr_2.at[i, :].set(10**par_log[kvals[i]:kvals[i+1]])

    return arr_1

if __name__ == "__main__":
    print("columns:", par0_col.shape)
    try:
        print(compute(par_log))
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
