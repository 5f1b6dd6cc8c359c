from jax import random

key = random.PRNGKey(42)

print(key)

a = random.normal(key)
b = random.normal(key)
print(a)
print(b)

if __name__ == "__main__":
    print("same:", bool(a == b))
