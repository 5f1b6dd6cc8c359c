from jax import random

key = random.PRNGKey(42)

print(key)

key, subkey = random.split(key)
a = random.normal(subkey)
key, subkey = random.split(key)
b = random.normal(subkey)
print(a)
print(b)

if __name__ == "__main__":
    print("same:", bool(a == b))
