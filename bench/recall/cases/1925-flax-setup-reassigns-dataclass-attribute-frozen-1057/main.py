import jax

from models.test_module import Test

if __name__ == "__main__":
  model = Test()
  try:
    pars = model.init(jax.random.PRNGKey(0), 1)
    print("initialised")
  except Exception as e:
    print(type(e).__name__, str(e).split(" (")[0])
