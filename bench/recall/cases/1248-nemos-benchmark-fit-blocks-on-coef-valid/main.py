import jax

from scripts.benchmarking_glm import benchmark_fit

if __name__ == "__main__":
    X = jax.random.normal(jax.random.PRNGKey(0), (2000, 20)) * 0.1
    y = jax.random.poisson(jax.random.PRNGKey(1), 2.0, (2000, 5)).astype(float)
    config = {"model_conf": {"solver_name": "GradientDescent", "stepsize": 0.1, "maxiter": 3000}}
    results = benchmark_fit(config, X, y)
    print("fit seconds per repetition:", [f"{t:.4f}" for t in results["fit_s"]])
