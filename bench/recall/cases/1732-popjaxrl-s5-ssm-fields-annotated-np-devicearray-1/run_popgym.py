import jax

from popjaxrl_lite.algorithms.ppo_s5 import make_train as make_train_s5

if __name__ == "__main__":
    config = {"S5_D_MODEL": 4, "S5_P": 4}
    out = jax.jit(make_train_s5(config))(jax.random.PRNGKey(0))
    print("out:", out.shape)
