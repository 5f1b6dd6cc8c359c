from jax import random

if __name__ == "__main__":
    key = random.PRNGKey(42)
    seen = []
    for _ in range(3):
        key, subkey = random.split(key)
        a = random.normal(key=subkey)
        seen.append(float(a))
    print("distinct:", len(set(seen)))
