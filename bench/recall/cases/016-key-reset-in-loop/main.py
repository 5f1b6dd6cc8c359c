from jax import random

if __name__ == "__main__":
    seen = []
    for _ in range(3):
        key = random.PRNGKey(0)
        a = random.normal(key=key)
        seen.append(float(a))
    print("distinct:", len(set(seen)))
