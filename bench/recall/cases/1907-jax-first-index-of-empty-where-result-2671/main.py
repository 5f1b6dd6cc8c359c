import jax.numpy as np

if __name__ == "__main__":
    try:
        first = np.where(np.array([]) > 1)[0][0]
        print("first:", first)
    except IndexError as e:
        print("IndexError:", e)
