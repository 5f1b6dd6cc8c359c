"""JAX4xx impurity rules: side effects and hidden state in traced code."""
