import jax

from chromax_lite.simulator import Simulator


if __name__ == "__main__":
    sim = Simulator(n_markers=8)
    pop = sim.load_population(4, key=jax.random.key(0))
    print("shape:", sim.cross(pop, jax.random.key(1)).shape)
